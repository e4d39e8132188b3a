// Import tools (TOOLS.md 3.6): inspect_imports (the active ontology's loaded import graph), write_import_lock
// and verify_import_lock (the version-1 lock of its local imports), and the `lock_mode` check load_ontology
// runs on a closure before attaching it. The pure rules live in src/imports; this file resolves the policy,
// authorizes the lockfile path and shapes the results.

import * as v from 'valibot';
import path from 'node:path';
import type { IRI } from '../../model/terms.js';
import type { Ontology } from '../../model/ontology.js';
import { resolvePolicy } from '../../policy/resolve.js';
import { checkLocalPath } from '../../policy/path-rules.js';
import { localDocumentOf, realTarget, urlScheme } from '../../policy/paths.js';
import type { PolicyResolution } from '../../policy/resolution.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import {
  importConflicts,
  importCycles,
  importGraph,
  missingEdges,
  type ClosureNode,
  type ImportEdge,
  type ImportGraph,
} from '../../imports/closure.js';
import { captureLock } from '../../imports/capture.js';
import { verifyLock } from '../../imports/verify.js';
import { serializeLock } from '../../imports/lockfile.js';
import {
  BESIDE_DOCUMENT_NOTE,
  checkImportLock,
  lockPolicyOf,
  resolveDeclaredLockfile,
  resolveLockTarget,
  type ImportLockVerification,
  type LockMode,
  type LockfileSource,
} from '../../imports/lock-mode.js';
import { revisionEnvelope, sameRevision } from '../../model/revision.js';
import { defineTool, always, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';
import { sha256Digest } from '../../util/digest.js';

// ---------------------------------------------------------------- lock_mode for load_ontology

/** Whether `document` is the project's root artifact (`root_artifact`, else the `root_ontology` IRI). */
async function isRootArtifact(res: PolicyResolution, document: string | null, o: Ontology): Promise<boolean> {
  if (res.policy === null || res.projectRoot === null) return false;
  if (res.policy.root_artifact === undefined) return o.id.iri !== null && o.id.iri === res.policy.root_ontology;
  if (document === null) return false;
  const [declared, actual] = await Promise.all([realTarget(path.resolve(res.projectRoot, res.policy.root_artifact)), realTarget(document)]);
  return declared === actual;
}

/**
 * The `lock_mode` check of load_ontology on the closure about to be attached: `root` with the planned
 * imports (`attach`) and what the workspace already holds. The lockfile is the one beside the loaded
 * document, or the policy's when that document is the project's root artifact. A blocking result refuses
 * the load (nothing has been attached yet); otherwise the verification is returned for the result.
 */
export async function checkLoadLock(
  ctx: ToolContext,
  lockMode: LockMode,
  root: Ontology,
  attach: readonly Ontology[],
): Promise<ImportLockVerification | null> {
  const res = await resolvePolicy(ctx);
  const policy = lockPolicyOf(res);
  if (lockMode === 'ignore' && policy?.mode !== 'locked') return null;
  const planned = [root, ...attach];
  const find = (iri: IRI): Ontology | undefined =>
    planned.find((o) => o.id.iri === iri) ?? planned.find((o) => o.id.versionIri === iri) ?? ctx.workspace.find(iri);
  const document = localDocumentOf(root);
  const target = await resolveLockTarget(policy, document, await isRootArtifact(res, document, root));
  const verification = await checkImportLock(lockMode, policy, target, importGraph(root, find));
  if (verification?.blocking === true) throw lockRefusal(verification, 'loaded');
  return verification;
}

/** The failure of a call refused by its import-lock check; nothing was changed. */
export function lockRefusal(verification: ImportLockVerification, what: string): ToolFailure {
  const missing = verification.findings.some((f) => f.rule_id === 'imports.lock_missing');
  const message = missing
    ? `${verification.note ?? 'Import lock missing'}; nothing was ${what}`
    : `The imports closure does not match the lockfile ${verification.path}; nothing was ${what}`;
  return new ToolFailure(message, missing ? 'import_lock_missing' : 'import_lock_mismatch', {
    import_lock_verification: verification,
    effects_prevented: true,
  });
}

// ---------------------------------------------------------------- the lockfile write_import_lock / verify_import_lock use

interface LockFile {
  readonly path: string;
  readonly source: LockfileSource | 'explicit';
}

/**
 * The lockfile a lock tool reads or writes: an explicit `path`; else the policy's `imports.lockfile`; else
 * `imports.lock.json` beside the active document, only when no policy declares one. Fail-closed: without
 * `path`, an invalid policy or a declared lockfile that does not resolve to a file refuses.
 */
async function lockFileFor(
  ctx: ToolContext,
  tool: string,
  res: PolicyResolution,
  explicit: string | undefined,
  mode: 'read' | 'write',
): Promise<LockFile> {
  const policy = lockPolicyOf(res);
  if (explicit !== undefined) {
    if (urlScheme(explicit) !== null)
      throw new ToolFailure('path must be a local file path (URL schemes are not accepted)', 'invalid_argument', { argument: 'path' });
    const file = path.resolve(explicit);
    await checkLocalPath(ctx, tool, file, 'read', res);
    if (mode === 'write') await checkLocalPath(ctx, tool, file, 'write', res);
    if (policy?.lockfile !== undefined) {
      const declared = path.resolve(policy.projectRoot, policy.lockfile);
      if ((await realTarget(declared)) !== (await realTarget(file))) {
        throw new ToolFailure(`path ${file} differs from the policy's imports.lockfile ${declared}`, 'policy_conflict', {
          message: `the project policy ${res.file} declares imports.lockfile ${policy.lockfile}; pass that path or omit path`,
          path: file,
          policy_lockfile: declared,
        });
      }
    }
    return { path: file, source: 'explicit' };
  }
  if (res.loaded && !res.valid) {
    throw new ToolFailure(
      `The project policy ${res.file} is invalid, so its lockfile cannot be determined; fix it or pass path`,
      'policy_invalid',
      { policy_path: res.file, policy_error_count: res.errors.length },
    );
  }
  if (policy?.lockfile !== undefined) {
    const declared = await resolveDeclaredLockfile(policy);
    if (declared === null) {
      const wanted = path.resolve(policy.projectRoot, policy.lockfile);
      throw new ToolFailure(
        `The policy's imports.lockfile ${wanted} does not resolve to a file inside the project root; pass path to create it`,
        'lockfile_unresolved',
        { policy_path: res.file, policy_lockfile: wanted },
      );
    }
    return { path: declared, source: 'policy_declared' };
  }
  const doc = ctx.workspace.hasActive ? localDocumentOf(ctx.workspace.active) : null;
  if (doc === null)
    throw new ToolFailure(
      'The active ontology has no local document and no policy declares imports.lockfile: pass path',
      'invalid_argument',
      { argument: 'path' },
    );
  const target = await resolveLockTarget(null, doc);
  const file = target.path!;
  await checkLocalPath(ctx, tool, file, mode, res, { derived: true });
  return { path: file, source: 'beside_document' };
}

const sourceFields = (lock: LockFile): JsonObject => ({
  lockfile_source: lock.source,
  ...(lock.source === 'beside_document' ? { lockfile_note: BESIDE_DOCUMENT_NOTE } : {}),
});

const LockArgs = {
  path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096), v.description('Default: beside the active document.'))),
  policy_path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096))),
};

export const writeImportLock = defineTool({
  name: 'write_import_lock',
  description: 'Write imports.lock.json with the checksums of every resolved local import.',
  input: v.strictObject(LockArgs),
  capabilities: ['ontology:admin', 'filesystem:project:read', 'filesystem:project:write'],
  mutating: always,
  destructive: true,
  idempotent: true,
  summary: (args) => `write_import_lock ${args.path ?? '(policy or default lockfile)'}`,
  handler: async (args, ctx) => {
    const ws = ctx.workspace;
    const base = revisionEnvelope(ws);
    const res = await resolvePolicy(ctx, args.policy_path);
    const lock = await lockFileFor(ctx, 'write_import_lock', res, args.path, 'write');
    const lockDir = await realTarget(path.dirname(lock.path));
    const capture = await captureLock(
      importGraph(ws.active, (iri) => ws.find(iri)),
      lockDir,
      (o) => ws.isDirty(o),
    );
    if (!capture.ok) return { written: false, valid: false, path: lock.path, ...sourceFields(lock), errors: capture.errors };
    const text = serializeLock(capture.lock);
    // the closure was read across awaits: refuse when the workspace or the policy moved meanwhile
    const current = revisionEnvelope(ws);
    if (!sameRevision({ ...base }, current)) {
      throw new ToolFailure('The workspace changed while the lock was captured; nothing was written', 'revision_conflict', {
        written: false,
        base_revision: base,
        current_revision: current,
      });
    }
    const again = await resolvePolicy(ctx, args.policy_path);
    if (again.file !== res.file || again.digest !== res.digest || again.valid !== res.valid) {
      throw new ToolFailure('The project policy changed while the lock was captured; nothing was written', 'policy_conflict', {
        written: false,
        message: `policy ${res.file ?? '(none)'} → ${again.file ?? '(none)'}`,
      });
    }
    ctx.signal.throwIfAborted();
    await writeFileAtomic(lock.path, text);
    return {
      written: true,
      valid: true,
      path: lock.path,
      ...sourceFields(lock),
      entry_count: capture.lock.imports.length,
      sha256: sha256Digest(text),
      lock: capture.lock,
    };
  },
});

export const verifyImportLock = defineTool({
  name: 'verify_import_lock',
  description: 'Check an import lock against the loaded closure, offline.',
  input: v.strictObject(LockArgs),
  capabilities: ['ontology:read', 'filesystem:project:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const ws = ctx.workspace;
    const res = await resolvePolicy(ctx, args.policy_path);
    const lock = await lockFileFor(ctx, 'verify_import_lock', res, args.path, 'read');
    const result = await verifyLock(
      lock.path,
      importGraph(ws.active, (iri) => ws.find(iri)),
    );
    return { ...result, ...sourceFields(lock) };
  },
});

// ---------------------------------------------------------------- inspect_imports

function nodeRow(n: ClosureNode): JsonObject {
  return {
    ref: n.ref,
    ontology_iri: n.ontology_iri,
    version_iri: n.version_iri,
    document_iri: n.document_iri,
    source_type: n.source_type,
    anonymous: n.ontology_iri === null,
    depth: n.depth,
    role: n.role,
  };
}

function edgeRow(e: ImportEdge): JsonObject {
  const t = e.target;
  return {
    source_ref: e.source.ref,
    source_ontology_iri: e.source.ontology_iri,
    source_version_iri: e.source.version_iri,
    source_document_iri: e.source.document_iri,
    import_iri: e.import_iri,
    direct: e.direct,
    depth: e.depth,
    resolved: t !== null,
    target_ref: t?.ref ?? null,
    target_ontology_iri: t?.ontology_iri ?? null,
    target_version_iri: t?.version_iri ?? null,
    target_document_iri: t?.document_iri ?? null,
    target_source_type: t?.source_type ?? null,
  };
}

/** The inspect_imports report of one import graph. */
export function importReport(g: ImportGraph) {
  const cycles = importCycles(g);
  const conflicts = importConflicts(g);
  const missing = missingEdges(g);
  const imported = g.nodes.filter((n) => n !== g.root);
  const summary = {
    ontologies: g.nodes.length,
    declarations: g.edges.length,
    direct_imports: g.edges.filter((e) => e.direct).length,
    transitive_imports: g.edges.filter((e) => !e.direct).length,
    resolved_imports: g.edges.length - missing.length,
    missing_imports: missing.length,
    local_documents: imported.filter((n) => n.source_type === 'local').length,
    remote_documents: imported.filter((n) => n.source_type === 'remote').length,
    in_memory: imported.filter((n) => n.source_type === 'memory').length,
    cycles: cycles.length,
    conflicts: conflicts.length,
  };
  const imports = g.edges.map(edgeRow);
  return {
    root: nodeRow(g.root),
    summary,
    ontologies: g.nodes.map(nodeRow),
    imports,
    resolved_imports: imports.filter((e) => e.resolved),
    missing_imports: imports.filter((e) => !e.resolved),
    cycles,
    conflicts,
    missing_imports_clear: missing.length === 0,
    conflicts_clear: conflicts.length === 0,
    // cycles are legal in OWL 2 and do not fail integrity on their own
    import_integrity_ok: missing.length === 0 && conflicts.length === 0,
  };
}

export const inspectImports = defineTool({
  name: 'inspect_imports',
  description: 'The loaded import graph: depths, edges, missing imports, cycles, conflicts.',
  input: v.strictObject({}),
  capabilities: ['ontology:read'],
  mutating: never,
  output: v.object({
    root: AnyObject,
    summary: AnyObject,
    ontologies: AnyList,
    imports: AnyList,
    resolved_imports: AnyList,
    missing_imports: AnyList,
    cycles: AnyList,
    conflicts: AnyList,
    missing_imports_clear: v.boolean(),
    conflicts_clear: v.boolean(),
    import_integrity_ok: v.boolean(),
  }),
  handler: (_args, ctx) => importReport(importGraph(ctx.workspace.active, (iri) => ctx.workspace.find(iri))),
});
