// Which project policy governs a call (TOOLS.md 1.9): an explicit `policy_path` (itself authorized as a
// caller-selected read), else the nearest `.athene/project.yaml` walking up from the active ontology's local
// document, else none. The file is read strictly, validated against its schema version, anchored, and its
// live facts checked (project root and assets contained with symlinks resolved, the root artifact present,
// the reasoner installed, CURIEs and regular expressions usable, the active ontology the root one).

import { stat } from 'node:fs/promises';
import path from 'node:path';
import { resolveReasoner, sortedReasoners } from '../reasoner/registry.js';
import { DomainError } from '../util/errors.js';
import type { CallContext, WindowSettings } from '../window/call-context.js';
import { expandTerm } from './curie.js';
import { checkLocalPath } from './path-rules.js';
import { isInside, localDocumentOf, realTarget, urlScheme } from './paths.js';
import type { Discovery, PathMode, PolicyIssue, PolicyResolution } from './resolution.js';
import { assetPaths, policyDigest, termReferences, validatePolicyData, type EffectivePolicy } from './schema.js';
import { MAX_POLICY_BYTES, parseStrictYaml } from './yaml.js';
import { readRegularFile } from '../util/file-read.js';
import { discoverFrom, policyAnchor } from './discover.js';

/** `policy_required` when no policy governs and the server demands one, else the legacy local-admin mode. */
export function noPolicyMode(settings: WindowSettings): PathMode {
  return settings.allow_unrestricted_paths_without_policy === false ? 'policy_required' : 'legacy_local_admin_unrestricted';
}

function none(settings: WindowSettings): PolicyResolution {
  return {
    discovery: 'none',
    pathMode: noPolicyMode(settings),
    file: null,
    projectRoot: null,
    loaded: false,
    valid: false,
    policy: null,
    digest: null,
    errors: [],
    warnings: [],
  };
}

const isFile = (p: string) =>
  stat(p).then(
    (s) => s.isFile(),
    () => false,
  );
const isDirectory = (p: string) =>
  stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
/** The nearest `.athene/project.yaml` above the active ontology's local document, or null. */
export async function discoverPolicyFile(ctx: CallContext): Promise<string | null> {
  const doc = ctx.workspace.hasActive ? localDocumentOf(ctx.workspace.active) : null;
  return doc === null ? null : discoverFrom(path.dirname(doc));
}

const error = (code: string, message: string, where?: string): PolicyIssue => ({
  severity: 'error',
  code,
  ...(where === undefined ? {} : { path: where }),
  message,
});
const warn = (code: string, message: string, where?: string): PolicyIssue => ({
  severity: 'warn',
  code,
  ...(where === undefined ? {} : { path: where }),
  message,
});

const MAX_ISSUES = 128;

/**
 * A resolution together with the schema-valid policy it was checked from: a policy can pass the schema and
 * still fail a live check (a missing root artifact), and the diagnostics show what it would mean.
 */
export interface PolicyInspection {
  readonly resolution: PolicyResolution;
  readonly candidate: EffectivePolicy | null;
}

/** Reads and validates one policy file; never throws for bad content (that is what `errors` is for). */
export async function readPolicy(ctx: CallContext, file: string, discovery: Exclude<Discovery, 'none'>): Promise<PolicyResolution> {
  return (await inspectPolicyFile(ctx, file, discovery)).resolution;
}

async function inspectPolicyFile(ctx: CallContext, file: string, discovery: Exclude<Discovery, 'none'>): Promise<PolicyInspection> {
  const anchor = await realTarget(policyAnchor(file));
  const base = { discovery, pathMode: 'policy_confined' as const, file, loaded: true };
  let candidate: EffectivePolicy | null = null;
  const invalid = (errors: PolicyIssue[], projectRoot: string | null = anchor, warnings: PolicyIssue[] = []): PolicyInspection => ({
    resolution: {
      ...base,
      projectRoot,
      valid: false,
      policy: null,
      digest: null,
      errors: errors.slice(0, MAX_ISSUES),
      warnings: warnings.slice(0, MAX_ISSUES),
    },
    candidate,
  });
  let text: string;
  try {
    const size = (await stat(file)).size;
    if (size > MAX_POLICY_BYTES) return invalid([error('yaml_too_large', `the policy file is larger than ${MAX_POLICY_BYTES} bytes`)]);
    text = await readRegularFile(file, 'policy', 'utf8');
  } catch (err) {
    return invalid([error('policy_unreadable', `the policy file cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`)]);
  }
  const yaml = parseStrictYaml(text);
  if (!yaml.ok) return invalid(yaml.issues.map((i) => error(i.code, i.message)));
  const schema = validatePolicyData(yaml.value);
  if (!schema.ok) return invalid([...schema.errors]);
  const policy = schema.policy;
  candidate = policy;
  const root = await realTarget(path.resolve(anchor, policy.project_root));
  if (!isInside(anchor, root)) {
    return invalid([error('project_root_escape', `project_root resolves outside the policy's anchor directory ${anchor}`, 'project_root')]);
  }
  if (
    !(await stat(root).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    return invalid([error('project_root_missing', `project_root ${root} is not a directory`, 'project_root')]);
  }
  const { errors, warnings } = await liveChecks(ctx, policy, root);
  if (errors.length > 0) return invalid(errors, root, warnings);
  return {
    resolution: {
      ...base,
      projectRoot: root,
      valid: true,
      policy,
      digest: policyDigest(policy),
      errors: [],
      warnings: warnings.slice(0, MAX_ISSUES),
    },
    candidate,
  };
}

/** The checks that need the file system, the installed reasoners and the workspace. */
async function liveChecks(
  ctx: CallContext,
  policy: EffectivePolicy,
  root: string,
): Promise<{ errors: PolicyIssue[]; warnings: PolicyIssue[] }> {
  const errors: PolicyIssue[] = [];
  const warnings: PolicyIssue[] = [];
  for (const asset of assetPaths(policy)) {
    const target = await realTarget(path.resolve(root, asset.path));
    if (!isInside(root, target)) {
      errors.push(error('asset_escape', `${asset.field} resolves outside the project root (symlinks resolved)`, asset.field));
      continue;
    }
    if (asset.kind === 'directory' || asset.kind === 'store') continue;
    if ((await isFile(target)) || (asset.kind === 'file_or_directory' && (await isDirectory(target)))) continue;
    if (asset.field === 'root_artifact')
      errors.push(
        error(
          'root_artifact_missing',
          `root_artifact ${asset.path} does not exist (create it with save_ontology policy_bootstrap=true)`,
          asset.field,
        ),
      );
    else
      warnings.push(
        warn(asset.kind === 'lockfile' ? 'lockfile_missing' : 'asset_missing', `${asset.field}: ${asset.path} does not exist`, asset.field),
      );
  }
  if (policy.reasoning.reasoner !== undefined) {
    const outcome = resolveReasoner(policy.reasoning.reasoner);
    if (outcome.kind === 'none') {
      errors.push(
        error(
          'reasoner_not_installed',
          `reasoning.reasoner names no installed reasoner (installed: ${sortedReasoners()
            .map((r) => `${r.name} [${r.id}]`)
            .join(', ')})`,
          'reasoning.reasoner',
        ),
      );
    }
    if (outcome.kind === 'ambiguous') {
      errors.push(
        error(
          'reasoner_ambiguous',
          `reasoning.reasoner matches several reasoners: ${outcome.candidates.map((r) => `${r.name} [${r.id}]`).join(', ')}`,
          'reasoning.reasoner',
        ),
      );
    }
  }
  for (const ref of termReferences(policy)) {
    if (expandTerm(ref.value, policy.prefixes) === null)
      errors.push(error('curie_unresolved', `${ref.field} uses a prefix the policy does not declare`, ref.field));
  }
  if (policy.iri_policy.pattern !== undefined) {
    try {
      new RegExp(policy.iri_policy.pattern, 'u');
    } catch {
      errors.push(error('regex_invalid', 'iri_policy.pattern is not a valid ECMAScript regular expression', 'iri_policy.pattern'));
    }
  }
  rootOntologyCheck(ctx, policy, root, errors, warnings);
  return { errors, warnings };
}

/**
 * The root artifact must hold the root ontology; any other active ontology (a module, an import being
 * edited) is governed as part of the project, with a warning.
 */
function rootOntologyCheck(ctx: CallContext, policy: EffectivePolicy, root: string, errors: PolicyIssue[], warnings: PolicyIssue[]): void {
  if (!ctx.workspace.hasActive) return;
  const active = ctx.workspace.active;
  if (active.id.iri === policy.root_ontology || active.id.versionIri === policy.root_ontology) return;
  const doc = localDocumentOf(active);
  const isRootArtifact =
    policy.root_artifact !== undefined && doc !== null && path.resolve(root, policy.root_artifact) === path.resolve(doc);
  if (isRootArtifact) {
    errors.push(
      error(
        'root_ontology_mismatch',
        `root_artifact holds ${active.id.iri ?? 'an anonymous ontology'}, not root_ontology`,
        'root_ontology',
      ),
    );
  } else {
    warnings.push(
      warn(
        'active_not_root',
        `the active ontology (${active.id.iri ?? 'anonymous'}) is not root_ontology; the policy governs it as part of the project`,
        'root_ontology',
      ),
    );
  }
}

/**
 * The policy that governs a call. An explicit `policy_path` must be a local path (no URL scheme) that the
 * caller may read under the policy discovered for the workspace (or the no-policy path mode).
 */
export async function resolvePolicy(ctx: CallContext, policyPath?: string): Promise<PolicyResolution> {
  return (await inspectPolicy(ctx, policyPath)).resolution;
}

/** resolvePolicy, keeping the schema-valid candidate for the diagnostics. */
export async function inspectPolicy(ctx: CallContext, policyPath?: string): Promise<PolicyInspection> {
  const discovered = await discoverPolicyFile(ctx);
  const inspected =
    discovered === null ? { resolution: none(ctx.settings), candidate: null } : await inspectPolicyFile(ctx, discovered, 'discovered');
  const governing = inspected.resolution;
  if (policyPath === undefined) return inspected;
  if (urlScheme(policyPath) !== null) {
    throw new DomainError('policy_path must be a local file path (URL schemes are not accepted)', 'invalid_argument', {
      argument: 'policy_path',
    });
  }
  const file = await checkLocalPath(ctx, 'policy_path', policyPath, 'read', governing, { diagnostic: true });
  if (!(await isFile(file))) throw new DomainError(`policy_path ${file} is not a readable file`, 'policy_not_found', { policy_path: file });
  return inspectPolicyFile(ctx, file, 'explicit');
}
