// Where a materialization may go (TOOLS.md 3.8): the governing policy's `materialization` block, the
// destination rules (ontology IRIs; a project-relative file inside the project root and the policy's
// `output_dir`), and the `active_source` write permission. Preview and commit decide these the same way.

import path from 'node:path';
import { authorizeLocalPath } from '../policy/authorize.js';
import { isInside, localDocumentOf, urlScheme } from '../policy/paths.js';
import type { PolicyResolution } from '../policy/resolution.js';
import type { CallContext } from '../window/call-context.js';
import { DomainError } from '../util/errors.js';
import { absoluteIri } from '../model/iri.js';
import { CATEGORIES, type Category } from './categories.js';

export interface MaterializationRules {
  readonly allowedCategories: readonly Category[];
  /** Ceiling of every axiom limit (policy `materialization.max_axioms`); null without a version-2 policy. */
  readonly maxAxioms: number | null;
  readonly outputDir: string | null;
  /** Policy `allow_source_write`: true only when the governing policy says so; null without a policy. */
  readonly allowSourceWrite: boolean | null;
}

/** The materialization rules of a resolution; an invalid policy refuses everything. */
export function materializationRules(tool: string, res: PolicyResolution): MaterializationRules {
  if (res.loaded && (!res.valid || res.policy === null)) {
    throw new DomainError(
      `${tool}: the project policy ${res.file} is invalid; materialization is refused until it is fixed (get_project_policy lists its errors)`,
      'policy_invalid',
      { policy_path: res.file },
    );
  }
  const p = res.policy;
  if (p === null) return { allowedCategories: CATEGORIES, maxAxioms: null, outputDir: null, allowSourceWrite: null };
  if (p.version !== 2) return { allowedCategories: CATEGORIES, maxAxioms: null, outputDir: null, allowSourceWrite: false };
  const m = p.materialization;
  return {
    allowedCategories: m.allowed_categories,
    maxAxioms: m.max_axioms,
    outputDir: m.output_dir ?? null,
    allowSourceWrite: m.allow_source_write,
  };
}

/** `active_source` needs the caller's `allow_source` (at commit) and, under a policy, `allow_source_write: true`. */
export function requireSourceWrite(tool: string, rules: MaterializationRules, res: PolicyResolution): void {
  if (rules.allowSourceWrite === false) {
    throw new DomainError(
      `${tool}: destination active_source needs materialization.allow_source_write: true in the project policy ${res.file}`,
      'source_write_not_allowed',
      { policy_path: res.file },
    );
  }
}

export function ontologyDestination(identifier: string): string {
  return absoluteIri(identifier, 'destination.identifier');
}

/** The project root project-relative destinations resolve against: the policy's, else the active document's directory. */
function projectRoot(ctx: CallContext, res: PolicyResolution): string {
  if (res.projectRoot !== null) return res.projectRoot;
  const doc = ctx.workspace.hasActive ? localDocumentOf(ctx.workspace.active) : null;
  if (doc === null) {
    throw new DomainError(
      'destination project_file needs a project root: no project policy governs this workspace and the active ontology has no local document',
      'project_root_unknown',
    );
  }
  return path.dirname(doc);
}

/** The absolute target of a `project_file` destination, authorized for `mode` under the resolution. */
export async function projectFileTarget(
  ctx: CallContext,
  tool: string,
  identifier: string,
  rules: MaterializationRules,
  res: PolicyResolution,
  mode: 'read' | 'write',
): Promise<{ readonly target: string; readonly root: string }> {
  if (urlScheme(identifier) !== null || path.isAbsolute(identifier)) {
    throw new DomainError(
      'destination.identifier of a project_file must be a project-relative path (no URL scheme, not absolute)',
      'invalid_argument',
      { argument: 'destination.identifier' },
    );
  }
  const root = projectRoot(ctx, res);
  const target = path.resolve(root, identifier);
  if (!isInside(root, target) || target === root) {
    throw new DomainError(`destination.identifier ${identifier} leaves the project root ${root}`, 'invalid_argument', {
      argument: 'destination.identifier',
      project_root: root,
    });
  }
  if (rules.outputDir !== null) {
    const dir = path.resolve(root, rules.outputDir);
    if (!isInside(dir, target)) {
      throw new DomainError(
        `destination.identifier ${identifier} is outside the policy's materialization.output_dir (${dir})`,
        'destination_not_allowed',
        { output_dir: dir },
      );
    }
  }
  const authorized = await authorizeLocalPath(ctx, tool, target, mode, { resolution: res });
  return { target: authorized, root };
}
