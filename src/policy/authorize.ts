// The authorization entry points tools call before touching a caller-selected file or URL (TOOLS.md 1.2
// step 2, 1.9). Each resolves the governing policy unless the caller already holds its resolution (a tool
// with `policy_path` resolves once and authorizes every path of the call against that one answer).

import type { CallContext } from '../window/call-context.js';
import { checkLocalPath, checkRemote, type FetchPurpose, type PathOptions } from './path-rules.js';
import { resolvePolicy } from './resolve.js';
import type { PolicyResolution } from './resolution.js';

export interface LocalPathOptions extends PathOptions {
  readonly resolution?: PolicyResolution;
}

/** Authorizes a local path and returns it (absolute; symlinks resolved under a policy), or throws the refusal. */
export async function authorizeLocalPath(
  ctx: CallContext,
  tool: string,
  file: string,
  mode: 'read' | 'write',
  options: LocalPathOptions = {},
): Promise<string> {
  return checkLocalPath(ctx, tool, file, mode, options.resolution ?? (await resolvePolicy(ctx)), options);
}

export interface RemoteOptions {
  readonly resolution?: PolicyResolution;
  /** `import`: the policy's `imports.network` may deny what `network.default` allows. */
  readonly purpose?: FetchPurpose;
}

/** Authorizes one remote fetch, or throws the refusal (nothing is fetched either way). */
export async function authorizeRemote(
  ctx: CallContext,
  tool: string,
  url: string,
  network: 'deny' | 'allow' | undefined,
  options: RemoteOptions = {},
): Promise<void> {
  checkRemote(ctx, tool, url, network, options.resolution ?? (await resolvePolicy(ctx)), options.purpose ?? 'document');
}
