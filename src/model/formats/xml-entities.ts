// Internal DTD entities (`<!ENTITY owl "http://www.w3.org/2002/07/owl#">`), which RDF/XML and OWL/XML
// documents use to shorten IRIs, declared on a saxes parser with every expansion bounded: a 100 KB document
// must not expand to hundreds of millions of characters (one large entity referenced many times), and a
// chain of entities referring to each other (billion laughs) must not multiply. References between
// entities are expanded as XML specifies; external and parameter entities are never declared.

/** Expansion every document may use, whatever its size, in characters. */
export const ENTITY_EXPANSION_FLOOR = 10_000_000;
/** Beyond the floor, expansion may reach this many times the document's length (libxml2's default ratio). */
export const ENTITY_AMPLIFICATION = 5;
/** How deeply entity values may refer to other entities. */
export const MAX_ENTITY_NESTING = 16;

const PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
const DECLARATION = /<!ENTITY\s+([^\s%"'<>]+)\s+(?:"([^"]*)"|'([^']*)')\s*>/g;
const REFERENCE = /&([^\s&;#<>"']+);/g;

/** The most characters entity references in a document of this length may expand to, in total. */
export function entityExpansionLimit(documentLength: number): number {
  return Math.max(ENTITY_EXPANSION_FLOOR, ENTITY_AMPLIFICATION * documentLength);
}

/**
 * Declares the DOCTYPE's internal general entities on `entities` (a saxes parser's ENTITIES). Each value's
 * expanded length is known up front, so a value too large on its own, a cycle or a chain nested too deep
 * fails at the DOCTYPE; every reference in the document then counts its expansion against the total
 * limit and fails the moment it is passed. `fail` throws the reader's positioned error.
 */
export function declareBoundedEntities(
  doctype: string,
  entities: Record<string, string>,
  documentLength: number,
  fail: (detail: string) => never,
): void {
  const limit = entityExpansionLimit(documentLength);
  const values = new Map<string, string>();
  for (const m of doctype.matchAll(DECLARATION)) {
    // The name (group 1) and one of the two quoted values are in every match.
    const name = m[1]!;
    // the first declaration binds (XML 1.0 §4.2); the predefined five keep their meaning
    if (!values.has(name) && !PREDEFINED.has(name)) values.set(name, m[2] ?? m[3]!);
  }
  /** Each entity's expanded length and how deeply its references nest, computed once. */
  const sizes = new Map<string, { length: number; depth: number }>();
  const overLimit = (name: string) =>
    fail(
      `entity expansion limit exceeded: expanding '&${name};' passes ${limit} characters (entities may expand to max(${ENTITY_EXPANSION_FLOOR}, ${ENTITY_AMPLIFICATION} × document length) characters in total)`,
    );
  const deeper = () => fail(`entity references nest deeper than ${MAX_ENTITY_NESTING} levels (the entity nesting limit)`);
  const sizeOf = (name: string, chain: readonly string[]): { length: number; depth: number } => {
    const known = sizes.get(name);
    if (known !== undefined) return known;
    if (chain.includes(name)) fail(`entity '${name}' refers to itself`);
    if (chain.length >= MAX_ENTITY_NESTING) deeper();
    const value = values.get(name)!;
    let length = value.length;
    let depth = 1;
    for (const m of value.matchAll(REFERENCE)) {
      const ref = m[1]!; // not optional in REFERENCE
      if (!values.has(ref)) continue;
      const inner = sizeOf(ref, [...chain, name]);
      length += inner.length - m[0].length;
      depth = Math.max(depth, inner.depth + 1);
      if (depth > MAX_ENTITY_NESTING) deeper();
      if (length > limit) overLimit(name);
    }
    const size = { length, depth };
    sizes.set(name, size);
    return size;
  };
  const expand = (name: string): string =>
    values.get(name)!.replace(REFERENCE, (ref, inner: string) => (values.has(inner) ? expand(inner) : ref));
  let used = 0;
  for (const name of values.keys()) {
    const { length } = sizeOf(name, []);
    Object.defineProperty(entities, name, {
      configurable: true,
      enumerable: true,
      get: () => {
        used += length;
        if (used > limit) overLimit(name);
        return expand(name);
      },
    });
  }
}
