// Authorization of save_ontology targets (TOOLS.md 3.10, 1.9): a plain save writes the document the
// ontology came from (derived, so it works even in `policy_required` mode); a save-as writes a caller-selected
// path. `policy_bootstrap=true` lets a save-as proceed while the discovered policy is loaded but invalid,
// confined to that policy's project root (so a template's root artifact can be created), and reports it.

import path from 'node:path';
import type { JsonObject } from '../util/json-object.js';
import type { CallContext } from '../window/call-context.js';
import { checkLocalPath } from './path-rules.js';
import { readPolicy, resolvePolicy } from './resolve.js';
import { discoverFrom } from './discover.js';
import type { PolicyResolution } from './resolution.js';

/**
 * The governing policy of a save: the one discovered from the active document; for a bootstrap save of a
 * document that has none yet (untitled), the one discovered from the target's directory.
 */
async function governing(ctx: CallContext, target: string, bootstrap: boolean): Promise<PolicyResolution> {
  const res = await resolvePolicy(ctx);
  if (res.loaded || !bootstrap) return res;
  const file = await discoverFrom(path.dirname(target));
  return file === null ? res : readPolicy(ctx, file, 'discovered');
}

function report(res: PolicyResolution, used: boolean): JsonObject {
  const base = {
    used,
    policy_path: res.file,
    policy_errors: res.errors.map((e) => ({ code: e.code, ...(e.path === undefined ? {} : { path: e.path }), message: e.message })),
    contained_root: res.projectRoot,
  };
  if (used) {
    return {
      ...base,
      note: 'The project policy is invalid; this save was authorized by policy_bootstrap inside its project root only. Fix the remaining policy errors (get_project_policy lists them); until then every other file and network access stays refused.',
    };
  }
  const reason = !res.loaded
    ? 'no project policy was discovered; the save was authorized by the ordinary rules'
    : 'the project policy is valid; the save was authorized by the ordinary rules';
  return { ...base, reason };
}

/**
 * Authorizes writing `target` (absolute) and returns the `policy_bootstrap` report when one was asked for.
 * `selected`: the caller chose the path (save-as); otherwise it is the ontology's own document.
 */
export async function authorizeSave(ctx: CallContext, target: string, selected: boolean, bootstrap: boolean): Promise<JsonObject | null> {
  const res = await governing(ctx, target, bootstrap);
  const used = bootstrap && res.loaded && !res.valid;
  await checkLocalPath(ctx, 'save_ontology', target, 'write', res, { derived: !selected, bootstrap: used });
  return bootstrap ? report(res, used) : null;
}
