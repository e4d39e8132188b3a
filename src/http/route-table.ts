// One small matcher for a declared route table: exact paths by one map look-up, then prefixes and patterns
// in declaration order. An exact path never lies under an earlier prefix or pattern (checked when the table
// is made), so "exact first" gives the same answer as "first declared": the table reads top to bottom.

/** A route's path: exact, every path under a prefix, or a pattern whose groups become the route's params. */
export type RoutePath = string | { readonly prefix: string } | RegExp;

export interface RouteSpec {
  /** The methods it answers; another method on its path is refused with 405 and these in `Allow`. */
  readonly methods: readonly string[] | 'any';
  readonly path: RoutePath;
}

export interface RouteMatch<R extends RouteSpec> {
  readonly route: R;
  /** The pattern's capture groups, undecoded (empty for an exact path or a prefix). */
  readonly params: readonly string[];
  /** False when the path is the route's and the method is not. */
  readonly methodAllowed: boolean;
}

const NO_PARAMS: readonly string[] = [];

function pathParams(path: RoutePath, candidate: string): readonly string[] | null {
  if (typeof path === 'string') return path === candidate ? NO_PARAMS : null;
  if (path instanceof RegExp) {
    const m = path.exec(candidate);
    return m === null ? null : m.slice(1);
  }
  return candidate.startsWith(path.prefix) ? NO_PARAMS : null;
}

export class RouteTable<R extends RouteSpec> {
  private readonly exact = new Map<string, R>();
  private readonly patterns: R[] = [];

  constructor(routes: readonly R[]) {
    for (const route of routes) {
      if (typeof route.path !== 'string') {
        this.patterns.push(route);
        continue;
      }
      if (this.exact.has(route.path)) throw new Error(`route ${route.path} is declared twice`);
      const shadow = this.patterns.find((p) => pathParams(p.path, route.path as string) !== null);
      if (shadow !== undefined) throw new Error(`route ${route.path} lies under the earlier route ${describe(shadow.path)}`);
      this.exact.set(route.path, route);
    }
  }

  /** The route of `path`; null when none is declared for it. */
  match(method: string, path: string): RouteMatch<R> | null {
    const exact = this.exact.get(path);
    if (exact !== undefined) return { route: exact, params: NO_PARAMS, methodAllowed: allows(exact, method) };
    for (const route of this.patterns) {
      const params = pathParams(route.path, path);
      if (params !== null) return { route, params, methodAllowed: allows(route, method) };
    }
    return null;
  }
}

function describe(path: RoutePath): string {
  return typeof path === 'string' || path instanceof RegExp ? String(path) : `${path.prefix}*`;
}

function allows(route: RouteSpec, method: string): boolean {
  return route.methods === 'any' || route.methods.includes(method);
}
