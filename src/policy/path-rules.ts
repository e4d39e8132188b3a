// The path and network rules of TOOLS.md 1.2 (step 2) and 1.9, decided against one PolicyResolution:
// conditional capabilities first, then the path mode, then the policy (containment in the project root with
// symlinks resolved; outside it only with `filesystem:external` and `filesystem.allow_external_paths`;
// network by request, capability, `network.default` / `imports.network` and `allowed_hosts`).

import path from 'node:path';
import { isLocalAdminProfile, missingCapabilities } from '../auth/principal.js';
import { isProtectedPath } from '../util/file-read.js';
import type { JsonObject } from '../util/json-object.js';
import type { CallContext } from '../window/call-context.js';
import { denied, requireCapabilities } from './denial.js';
import { activeDocumentDir, isInside, realTarget } from './paths.js';
import type { PolicyResolution } from './resolution.js';

export interface PathOptions {
  /** The target derived from the open document (plain save), not selected by the caller. */
  readonly derived?: boolean;
  /** `save_ontology policy_bootstrap=true`: an invalid policy still allows this write inside its project root. */
  readonly bootstrap?: boolean;
  /** A policy diagnostic reading inside the project root of an invalid policy (TOOLS.md 1.9 exceptions). */
  readonly diagnostic?: boolean;
}

function where(res: PolicyResolution, file: string): JsonObject {
  return {
    path: file,
    path_mode: res.pathMode,
    ...(res.file === null ? {} : { policy_path: res.file }),
    ...(res.projectRoot === null ? {} : { project_root: res.projectRoot }),
  };
}

const INVALID_HINT = 'every file and network access is refused until it is fixed (get_project_policy lists its errors)';

/** The directory relative caller paths resolve against, the same for every tool: the project root, else the active document's directory. */
export function callerBase(ctx: CallContext, res: PolicyResolution): string {
  return res.projectRoot ?? activeDocumentDir(ctx) ?? process.cwd();
}

/** A caller-selected path made absolute by the one rule of callerBase. */
export function resolveCallerPath(ctx: CallContext, res: PolicyResolution, file: string): string {
  return path.resolve(callerBase(ctx, res), file);
}

/**
 * Without a policy, a principal other than the local-admin profile is confined to the active document's
 * directory tree (its implicit project root).
 */
async function checkImplicitRoot(ctx: CallContext, tool: string, absolute: string, real: string, res: PolicyResolution): Promise<void> {
  if (isLocalAdminProfile(ctx.principal)) return;
  const dir = activeDocumentDir(ctx);
  const root = dir === null ? null : await realTarget(dir);
  if (root !== null && isInside(root, real)) return;
  throw denied(
    `${tool}: ${absolute} is refused: without a project policy this client may only use paths below the active document's directory` +
      (root === null ? ' (the active ontology has no local document)' : ` ${root}`),
    [],
    {
      ...where(res, absolute),
      ...(root === null ? {} : { implicit_project_root: root }),
      denied_by: 'no policy: outside the implicit project root',
    },
  );
}

/**
 * Authorizes a local path for reading or writing and returns it, absolute and (under a policy) with symlinks
 * resolved; throws the refusal otherwise. A relative path resolves against callerBase. The private
 * directory is refused under every policy and to every principal.
 */
export async function checkLocalPath(
  ctx: CallContext,
  tool: string,
  file: string,
  mode: 'read' | 'write',
  res: PolicyResolution,
  options: PathOptions = {},
): Promise<string> {
  const absolute = resolveCallerPath(ctx, res, file);
  requireCapabilities(ctx, tool, [mode === 'read' ? 'filesystem:project:read' : 'filesystem:project:write'], `${mode} ${absolute}`);
  const real = await realTarget(absolute);
  if (isProtectedPath(real)) {
    throw denied(`${tool}: ${absolute} is inside the server's private directory, which no tool may ${mode}`, [], {
      path: absolute,
      denied_by: 'private directory',
    });
  }
  if (!res.loaded) {
    if (res.pathMode === 'policy_required' && options.derived !== true) {
      throw denied(
        `${tool}: ${absolute} is refused: no project policy governs this workspace and the server requires one for caller-selected paths ` +
          '(path_mode policy_required; settings allow_unrestricted_paths_without_policy is false)',
        [],
        { ...where(res, absolute), denied_by: 'path_mode=policy_required' },
      );
    }
    await checkImplicitRoot(ctx, tool, absolute, real, res);
    return absolute;
  }
  const root = res.projectRoot;
  const inside = root !== null && isInside(root, real);
  if (!res.valid) {
    if ((options.bootstrap === true || options.diagnostic === true) && inside) return real;
    throw denied(
      `${tool}: ${absolute} is refused: the project policy ${res.file} is invalid and ${INVALID_HINT}` +
        (options.bootstrap === true ? `; policy_bootstrap allows only paths inside the project root ${root}` : ''),
      [],
      { ...where(res, absolute), denied_by: 'invalid project policy', policy_error_count: res.errors.length },
    );
  }
  if (inside) return real;
  const missing = missingCapabilities(ctx.principal, ['filesystem:external']);
  const allowed = res.policy?.filesystem.allow_external_paths === true;
  if (missing.length === 0 && allowed) return real;
  const needs = [
    ...(missing.length > 0 ? ['the capability filesystem:external'] : []),
    ...(allowed ? [] : ['policy filesystem.allow_external_paths: true']),
  ];
  throw denied(
    `${tool}: ${absolute} is outside the project root ${root} of the project policy ${res.file}; a path there needs ${needs.join(' and ')}`,
    missing,
    { ...where(res, absolute), denied_by: 'project policy', allow_external_paths: allowed },
  );
}

export type FetchPurpose = 'document' | 'import';

/** `host` or `host:port` of an http(s) URL, lower-cased. */
function hostOf(url: string): { host: string; port: string } {
  const u = new URL(url);
  return { host: u.hostname.toLowerCase(), port: u.port };
}

/** An `allowed_hosts` entry matches the exact host (and port, when it names one); `*.` matches subdomains. */
export function hostAllowed(entries: readonly string[], url: string): boolean {
  const { host, port } = hostOf(url);
  return entries.some((entry) => {
    const [name = '', entryPort] = entry.toLowerCase().split(':');
    if (entryPort !== undefined && entryPort !== port) return false;
    return name.startsWith('*.') ? host.endsWith(name.slice(1)) && host.length > name.length - 1 : host === name;
  });
}

const networkDenied = (message: string, missing: readonly string[], context: JsonObject) =>
  denied(message, missing, context, 'network_denied');

/**
 * Authorizes one remote fetch, most restrictive first: the request's `network=deny`, then `network:access`,
 * then the path mode and the policy (for imports, the stricter of `network.default` and `imports.network`),
 * then `allowed_hosts`.
 */
export function checkRemote(
  ctx: CallContext,
  tool: string,
  url: string,
  network: 'deny' | 'allow' | undefined,
  res: PolicyResolution,
  purpose: FetchPurpose,
): void {
  const context: JsonObject = { url, path_mode: res.pathMode, ...(res.file === null ? {} : { policy_path: res.file }) };
  if (network === 'deny') {
    throw networkDenied(`${tool}: remote fetch of ${url} refused by the request setting network=deny`, [], {
      ...context,
      denied_by: 'request network=deny',
    });
  }
  requireCapabilities(ctx, tool, ['network:access'], `fetch ${url}`);
  if (!res.loaded) {
    if (res.pathMode === 'policy_required') {
      throw networkDenied(
        `${tool}: remote fetch of ${url} refused: no project policy governs this workspace and the server requires one (path_mode policy_required)`,
        [],
        { ...context, denied_by: 'path_mode=policy_required' },
      );
    }
    return;
  }
  const policy = res.policy;
  if (!res.valid || policy === null) {
    throw networkDenied(`${tool}: remote fetch of ${url} refused: the project policy ${res.file} is invalid and ${INVALID_HINT}`, [], {
      ...context,
      denied_by: 'invalid project policy',
    });
  }
  if (policy.network.default !== 'allow') {
    throw networkDenied(`${tool}: remote fetch of ${url} refused by the project policy ${res.file} (network.default: deny)`, [], {
      ...context,
      denied_by: 'project policy network.default',
    });
  }
  if (purpose === 'import' && policy.imports.network === 'deny') {
    throw networkDenied(`${tool}: remote fetch of ${url} refused by the project policy ${res.file} (imports.network: deny)`, [], {
      ...context,
      denied_by: 'project policy imports.network',
    });
  }
  const hosts = policy.network.allowed_hosts;
  if (hosts !== undefined && !hostAllowed(hosts, url)) {
    throw networkDenied(`${tool}: remote fetch of ${url} refused: its host is not in the project policy's network.allowed_hosts`, [], {
      ...context,
      denied_by: 'project policy network.allowed_hosts',
    });
  }
}
