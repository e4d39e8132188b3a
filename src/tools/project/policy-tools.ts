// Project policy tools (TOOLS.md 3.3, 3.2): get_project_policy, validate_project_policy,
// write_project_policy_template and get_model_revision. The diagnostics report an invalid policy in full
// (they are among the few things an invalid policy still allows); none of them edits the ontology.

import * as v from 'valibot';
import path from 'node:path';
import type { FormatId, Ontology } from '../../model/ontology.js';
import { reasonerById } from '../../reasoner/registry.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { authorizeLocalPath } from '../../policy/authorize.js';
import { isInside, localDocumentOf, realTarget } from '../../policy/paths.js';
import { inspectPolicy } from '../../policy/resolve.js';
import { policyAnchor, POLICY_DIR, POLICY_FILE } from '../../policy/discover.js';
import type { PolicyIssue, PolicyResolution } from '../../policy/resolution.js';
import { canonicalJson, validatePolicyData, type EffectivePolicy, type PolicyFormat } from '../../policy/schema.js';
import { policyTemplate, type TemplateProfile } from '../../policy/template.js';
import { revisionEnvelope } from '../../model/revision.js';
import { existsAs, resolvedAssets } from '../../policy/assets.js';
import { fingerprintStability } from '../../model/fingerprint.js';
import { always, defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { sha256Digest } from '../../util/digest.js';
import { readRegularFile } from '../../util/file-read.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';

const PolicyPath = v.optional(
  v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096), v.description('Local policy file; default: discovered.')),
);

const MAX_MESSAGE = 2048;
const MAX_ISSUES = 128;

const issueRow = (i: PolicyIssue): JsonObject => ({
  severity: i.severity,
  code: i.code,
  ...(i.path === undefined ? {} : { path: i.path }),
  message: i.message.slice(0, MAX_MESSAGE),
});

const V1_BLOCKS = [
  'interoperability',
  'filesystem',
  'network',
  'imports',
  'reasoning',
  'validation',
  'entity_search',
  'prefixes',
  'modules',
  'annotations',
  'iri_policy',
  'lifecycle',
  'invariants',
  'shacl',
  'cqs',
  'release',
] as const;

/** v1 → v2 advice: which configured blocks carry over, what v2 adds; a diagnostic only (it changes no digest). */
function migrationAdvice(policy: EffectivePolicy): JsonObject {
  const defaults = validatePolicyData({ version: 1, project_id: policy.project_id, root_ontology: policy.root_ontology });
  const base = defaults.ok ? (defaults.policy as unknown as Record<string, unknown>) : {};
  const effective = policy as unknown as Record<string, unknown>;
  const enabled = V1_BLOCKS.filter((b) => effective[b] !== undefined && canonicalJson(effective[b]) !== canonicalJson(base[b]));
  return {
    from_version: 1,
    to_version: 2,
    enabled_blocks: enabled,
    v2_additions: ['external_terms', 'mappings', 'jobs', 'materialization', 'validation.required_stages: provider_evidence'],
    advice:
      'Every version-1 block keeps its meaning in version 2: change `version: 1` to `version: 2` and add only the version-2 blocks you use ' +
      '(write_project_policy_template version=2 shows them). Providers name an origin alias and credential id bound in the private directory, never endpoints or secrets.',
    automatic_write: false,
    diagnostic_affects_digest: false,
  };
}

function activeIri(ctx: ToolContext): string | null {
  return ctx.workspace.hasActive ? ctx.workspace.active.id.iri : null;
}

/** The shared result of get_project_policy and validate_project_policy; the policy and its assets are as written. */
const PolicyReportOutput = v.object({
  policy_loaded: v.boolean(),
  valid: v.boolean(),
  discovery: v.string(),
  path_mode: v.string(),
  active_ontology_iri: v.nullable(v.string()),
  policy_path: v.nullable(v.string()),
  project_root: v.nullable(v.string()),
  policy_digest: v.nullable(v.string()),
  schema_version: v.nullable(v.number()),
  policy: v.nullable(AnyObject),
  migration: v.optional(AnyObject),
  resolved_assets: v.nullable(AnyObject),
  errors: AnyList,
  warnings: AnyList,
  issues_truncated: v.optional(v.number()),
  note: v.optional(v.string()),
});

async function policyReport(
  ctx: ToolContext,
  policyPath: string | undefined,
  mandatory: boolean,
): Promise<v.InferOutput<typeof PolicyReportOutput>> {
  const { resolution: res, candidate } = await inspectPolicy(ctx, policyPath);
  const errors = res.errors.map(issueRow);
  if (!res.loaded && mandatory) {
    errors.push(
      issueRow({
        severity: 'error',
        code: 'policy_not_found',
        message: `no project policy was found: pass policy_path, or create ${POLICY_DIR}/${POLICY_FILE} (write_project_policy_template)`,
      }),
    );
  }
  // at most MAX_ISSUES in all, errors first
  const warnings = res.warnings.map(issueRow).slice(0, Math.max(0, MAX_ISSUES - errors.length));
  const truncated = errors.length + res.warnings.length - Math.min(errors.length, MAX_ISSUES) - warnings.length;
  const shown = res.policy ?? candidate;
  return {
    policy_loaded: res.loaded,
    valid: res.valid,
    discovery: res.discovery,
    path_mode: res.pathMode,
    active_ontology_iri: activeIri(ctx),
    policy_path: res.file,
    project_root: res.projectRoot,
    policy_digest: res.digest,
    schema_version: shown?.version ?? null,
    policy: shown,
    ...(shown?.version === 1 ? { migration: migrationAdvice(shown) } : {}),
    resolved_assets: shown === null || res.projectRoot === null ? null : await resolvedAssets(shown, res.projectRoot),
    errors: errors.slice(0, MAX_ISSUES),
    warnings,
    ...(truncated > 0 ? { issues_truncated: truncated } : {}),
    ...(res.loaded
      ? {}
      : {
          note:
            res.pathMode === 'policy_required'
              ? 'No project policy governs this workspace and the server requires one: every caller-selected path and URL is refused.'
              : 'No project policy governs this workspace: legacy local-admin mode (caller-selected paths and URLs are not confined).',
        }),
  };
}

export const getProjectPolicy = defineTool({
  name: 'get_project_policy',
  description: 'Discover and validate the project policy: effective policy, digest, errors.',
  input: v.strictObject({ policy_path: PolicyPath }),
  output: PolicyReportOutput,
  capabilities: ['ontology:read', 'filesystem:project:read'],
  mutating: never,
  handler: (args, ctx) => policyReport(ctx, args.policy_path, false),
});

export const validateProjectPolicy = defineTool({
  name: 'validate_project_policy',
  description: 'Validate the project policy; none found is policy_not_found.',
  input: v.strictObject({ policy_path: PolicyPath }),
  output: PolicyReportOutput,
  capabilities: ['ontology:read', 'filesystem:project:read'],
  mutating: never,
  handler: (args, ctx) => policyReport(ctx, args.policy_path, true),
});

// ---------------------------------------------------------------- template

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The last path segment of the ontology IRI (without a file extension), made an identifier; else `my-project`. */
export function defaultProjectId(iri: string | null): string {
  let rest = '';
  try {
    const u = new URL(iri ?? '');
    rest = u.pathname + u.hash;
  } catch {
    rest = '';
  }
  const segment =
    rest
      .split(/[/#:]/)
      .filter((s) => s.length > 0)
      .pop() ?? '';
  const id = segment
    .replace(/\.(owl|ttl|obo|ofn|omn|owx|rdf|xml)$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 128);
  return id === '' ? 'my-project' : id;
}

/** Formats save_ontology can write by extension; others start the project in Turtle. */
const EXTENSIONS: Partial<Record<FormatId, string>> = {
  turtle: '.ttl',
  rdfxml: '.owl',
  owlxml: '.owx',
  ofn: '.ofn',
  manchester: '.omn',
  obo: '.obo',
};

function templateFormat(o: Ontology | null, profile: TemplateProfile): PolicyFormat {
  if (profile === 'obo') return 'obo';
  const f = o?.format ?? 'turtle';
  return f !== 'obo' && EXTENSIONS[f] !== undefined ? f : 'turtle';
}

/** The installed reasoner a profile calls for, named without its version so the policy survives upgrades. */
function templateReasoner(profile: TemplateProfile): { name: string; note: string | null } {
  // general asks for a full OWL 2 DL reasoner: Konclude when installed, else the EL++ classifier, saying so
  const dl = profile === 'general' ? reasonerById('konclude') : undefined;
  const r = dl ?? reasonerById('el')!;
  const name = r.name.endsWith(' ' + r.version) ? r.name.slice(0, -(r.version.length + 1)) : r.name;
  return {
    name,
    note:
      profile === 'general' && dl === undefined
        ? 'No full OWL 2 DL reasoner is installed, so reasoning.reasoner names the EL++ classifier; change it when one is.'
        : null,
  };
}

const sha256 = (text: string) => sha256Digest(text);

export const writeProjectPolicyTemplate = defineTool({
  name: 'write_project_policy_template',
  description: 'Write a starter project policy; overwrite=true replaces one.',
  input: v.strictObject({
    path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096))),
    project_id: v.optional(
      v.pipe(
        v.string(),
        v.regex(IDENTIFIER, 'project_id: letters, digits, ".", "_" or "-" (at most 128), starting with a letter or digit'),
      ),
    ),
    profile: v.optional(v.picklist(['general', 'obo']), 'general'),
    version: v.optional(v.picklist([1, 2]), 1),
    overwrite: v.optional(v.boolean(), false),
  }),
  output: v.object({
    written: v.boolean(),
    path: v.string(),
    project_id: v.string(),
    profile: v.string(),
    schema_version: v.number(),
    bytes: v.number(),
    sha256: v.string(),
    validation_hint: AnyList,
    note: v.string(),
  }),
  capabilities: ['ontology:admin', 'filesystem:project:write'],
  mutating: always,
  destructive: true,
  summary: (args) => `write_project_policy_template ${args.path ?? `${POLICY_DIR}/${POLICY_FILE}`}`,
  handler: async (args, ctx) => {
    const active = ctx.workspace.hasActive ? ctx.workspace.active : null;
    const doc = active === null ? null : localDocumentOf(active);
    if (args.path === undefined && doc === null) {
      throw new ToolFailure('The active ontology has no local document to put the policy beside: give path', 'invalid_argument', {
        argument: 'path',
      });
    }
    const res = await inspectPolicy(ctx);
    // a relative path is project-relative: the governing project's root, else the active document's folder
    const base = res.resolution.projectRoot ?? (doc === null ? process.cwd() : path.dirname(doc));
    // the default is beside the active document, unless a discovered policy already governs it: a second,
    // nearer policy would silently take over discovery, so the governing file is the target (policy_exists)
    const governing = res.resolution.discovery === 'discovered' ? res.resolution.file : null;
    const target =
      args.path !== undefined
        ? path.resolve(base, args.path)
        : (governing ?? path.join(doc === null ? base : path.dirname(doc), POLICY_DIR, POLICY_FILE));
    const derived = args.path === undefined;
    const refuseExisting = async () => {
      if (!args.overwrite && (await existsAs(target)) !== null) {
        throw new ToolFailure(`${target} already exists; pass overwrite=true to replace it`, 'policy_exists', {
          written: false,
          path: target,
        });
      }
    };
    // the default target sits beside the open document (derived, like a plain save), so saying it exists
    // reveals nothing the caller chose to probe; a caller-selected path is authorized before anything is looked at
    if (derived) await refuseExisting();
    await authorizeLocalPath(ctx, 'write_project_policy_template', target, 'write', { derived, resolution: res.resolution });
    if (!derived) await refuseExisting();
    const projectId = args.project_id ?? defaultProjectId(active?.id.iri ?? null);
    const format = templateFormat(active, args.profile);
    const rootArtifact = `ontology/${projectId}${args.profile === 'obo' ? '-edit' : ''}${EXTENSIONS[format] ?? '.ttl'}`;
    const reasoner = templateReasoner(args.profile);
    const text = policyTemplate({
      projectId,
      rootOntology: active?.id.iri ?? `http://example.org/${projectId}`,
      rootArtifact,
      format,
      profile: args.profile,
      version: args.version,
      reasoner: reasoner.name,
    });
    ctx.signal.throwIfAborted();
    await writeFileAtomic(target, text);
    const root = policyAnchor(target);
    return {
      written: true,
      path: target,
      project_id: projectId,
      profile: args.profile,
      schema_version: args.version,
      bytes: Buffer.byteLength(text, 'utf8'),
      sha256: sha256(text),
      validation_hint: [
        `Create the root_artifact: save_ontology path=${path.join(root, rootArtifact)} policy_bootstrap=true (the policy is invalid until it exists).`,
        'Check the policy with validate_project_policy; its errors list what remains.',
        'Uncomment the asset blocks you need (prefixes, modules, annotations, iri_policy, lifecycle, invariants, shacl, cqs, imports.lockfile, release); every file they name must lie inside the project root.',
        'Run run_project_qc for the first policy gate.',
      ],
      note:
        'A new starter policy; the ontology is unchanged.' +
        (active?.id.iri === null || active === null ? ' The active ontology is anonymous: set root_ontology to its IRI.' : '') +
        (reasoner.note === null ? '' : ' ' + reasoner.note),
    };
  },
});

// ---------------------------------------------------------------- revision

/** SHA-256 of the policy's declared lockfile, when it exists inside the project root. */
async function importLockDigest(res: PolicyResolution): Promise<string | null> {
  const lockfile = res.policy?.imports.lockfile;
  if (lockfile === undefined || res.projectRoot === null) return null;
  const file = await realTarget(path.resolve(res.projectRoot, lockfile));
  if (!isInside(res.projectRoot, file)) return null;
  try {
    return sha256Digest(await readRegularFile(file, 'document'));
  } catch {
    return null;
  }
}

export const getModelRevision = defineTool({
  name: 'get_model_revision',
  description: 'Revision envelope (workspace id, revision, fingerprints) for optimistic concurrency.',
  input: v.strictObject({ policy_path: PolicyPath }),
  output: v.object({
    revision: AnyObject,
    workspace_id: v.string(),
    session_revision: v.number(),
    semantic_fingerprint: v.string(),
    document_fingerprint: v.string(),
    ontology: AnyObject,
    dirty: v.boolean(),
    dirty_semantics: v.string(),
    reasoner: AnyObject,
    fingerprint_stability: v.string(),
    release_stable: v.boolean(),
    fingerprint_warnings: AnyList,
    policy_loaded: v.boolean(),
    policy_valid: v.boolean(),
  }),
  capabilities: ['ontology:read', 'filesystem:project:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const ws = ctx.workspace;
    const o = ws.active;
    const revision = revisionEnvelope(ws);
    const session = ctx.window.reasoning;
    const selected = session.selected;
    const { stability, warnings } = fingerprintStability(o);
    const { resolution: res } = await inspectPolicy(ctx, args.policy_path);
    const lockDigest = res.valid ? await importLockDigest(res) : null;
    return {
      revision,
      ...revision,
      ontology: { ontology_iri: o.id.iri, version_iri: o.id.versionIri, document_iri: o.documentIri },
      dirty: ws.isDirty(o),
      dirty_semantics:
        'dirty is set by any change and cleared only by a save; it stays true after undo even when semantic_fingerprint returns to the loaded value.',
      reasoner: { selected_id: selected.id, selected_name: selected.name, status: session.status() },
      fingerprint_stability: stability,
      release_stable: stability === 'stable',
      fingerprint_warnings: warnings,
      policy_loaded: res.loaded,
      policy_valid: res.valid,
      ...(res.file === null ? {} : { policy_path: res.file }),
      ...(res.digest === null ? {} : { policy_digest: res.digest }),
      ...(res.loaded && !res.valid
        ? { policy_error: `${res.errors.length} error(s); first: ${res.errors[0]?.message ?? 'unknown'}`.slice(0, MAX_MESSAGE) }
        : {}),
      ...(lockDigest === null ? {} : { import_lock_digest: lockDigest }),
    };
  },
});
