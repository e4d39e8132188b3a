// `commit_materialization` (TOOLS.md 3.8): publish a preview only after re-verifying everything it rests on
// (the artifact's fingerprint and digest, the source revision and imports closure, the exact reasoner
// configuration, the policy, the destination and the write permissions), then one of: one undoable change
// of the active ontology, a new loaded ontology, or a verified functional-syntax project file.

import type { Axiom } from '../model/terms.js';
import { annotation, annotationProperty, declaration, literal } from '../model/terms.js';
import { Ontology } from '../model/ontology.js';
import type { Change } from '../model/changes.js';
import { ontologyLabel } from '../model/workspace.js';
import { RDFS_COMMENT, STANDARD_PREFIXES } from '../model/vocab.js';
import { readFunctional } from '../model/formats/functional/reader.js';
import { writeDocument } from '../model/formats/registry.js';
import { axiomLines } from '../model/render/axiom-lines.js';
import { resolvePolicy } from '../policy/resolve.js';
import { DomainError } from '../util/errors.js';
import type { JsonObject } from '../util/json-object.js';
import type { CallContext } from '../window/call-context.js';
import { revisionEnvelope, sameRevision } from '../model/revision.js';
import { materializationRules, ontologyDestination, projectFileTarget, requireSourceWrite } from './destination.js';
import { changedFields, inputIdentity } from './identity.js';
import type { MaterializationPayload } from './preview.js';
import { formsByLogicalAxiom, type GeneratedAxiom } from './generate.js';
import { artifactDigestOf, sameDigest } from './artifact.js';
import { PROVENANCE_PREFIX, PROVENANCE_PROPERTY } from './provenance.js';
import { publishProjectFile } from './project-file.js';

export const TOOL = 'commit_materialization';

export type CollisionMode = 'reject' | 'merge' | 'replace';

export interface CommitArgs {
  readonly artifact_id: string;
  readonly artifact_fingerprint: string;
  readonly confirm: true;
  readonly allow_source?: boolean | undefined;
  readonly collision_mode: CollisionMode;
  readonly overwrite: boolean;
  readonly expected_target_digest?: string | undefined;
  readonly policy_path?: string | undefined;
}

function findArtifact(ctx: CallContext, args: CommitArgs): MaterializationPayload {
  const found = ctx.window.materializations.get(args.artifact_id, ctx.sessionId);
  if (found.kind === 'unknown') {
    throw new DomainError(
      `No materialization artifact ${args.artifact_id} exists for this session (artifacts are private to the session that previewed them).`,
      'unknown_artifact',
      { artifact_id: args.artifact_id, committed: false },
    );
  }
  if (found.kind === 'expired') {
    throw new DomainError(
      `Materialization artifact ${args.artifact_id} expired at ${new Date(found.expiredAt).toISOString()}; preview again.`,
      'artifact_expired',
      { artifact_id: args.artifact_id, committed: false },
    );
  }
  const p = found.artifact.payload;
  if (!sameDigest(p.fingerprint, args.artifact_fingerprint)) {
    throw new DomainError(
      `artifact_fingerprint does not match artifact ${args.artifact_id}; nothing was committed.`,
      'artifact_fingerprint_mismatch',
      { artifact_id: args.artifact_id, committed: false },
    );
  }
  const digest = artifactDigestOf(p.request, p.identity, p.destinationPlan, p.categories, p.materializationDigest);
  if (digest !== p.artifactDigest) {
    throw new DomainError(
      `Artifact ${args.artifact_id} no longer matches its digest; nothing was committed. Preview again.`,
      'artifact_corrupted',
      { committed: false },
    );
  }
  return p;
}

const generated = (p: MaterializationPayload): GeneratedAxiom[] => p.categories.flatMap((c) => c.axioms);

/** True when `a` carries a materialization provenance other than `ours`. */
function otherProvenance(a: Axiom, ours: string): boolean {
  return a.annotations.some(
    (n) =>
      n.property.iri === PROVENANCE_PROPERTY && n.value.kind === 'IRI' && n.value.iri.startsWith(PROVENANCE_PREFIX) && n.value.iri !== ours,
  );
}

function commitToSource(ctx: CallContext, p: MaterializationPayload, mode: CollisionMode): JsonObject {
  const ws = ctx.workspace;
  const active = ws.active;
  const gen = generated(p);
  const forms = formsByLogicalAxiom(active.axioms());
  const missing: Axiom[] = [];
  const alternates = new Set<Axiom>();
  let existing = 0;
  let collisions = 0;
  for (const g of gen) {
    if (active.has(g.axiom)) existing++;
    else missing.push(g.axiom);
    const others = (forms.get(g.plain) ?? []).filter((f) => f !== g.axiom);
    if (others.length > 0) collisions++;
    for (const f of others) if (otherProvenance(f, g.provenance)) alternates.add(f);
  }
  const noop = missing.length === 0 && (mode === 'merge' || alternates.size === 0);
  if (!noop && mode === 'reject' && collisions > 0) {
    throw new DomainError(
      `${collisions} generated axiom(s) collide with axioms the active ontology already asserts in another form; nothing was committed. Use collision_mode merge or replace.`,
      'materialization_collision',
      { asserted_collision_count: collisions, committed: false },
    );
  }
  if (noop)
    return {
      status: 'noop',
      committed: false,
      added_axioms: 0,
      existing_axioms: existing,
      asserted_collision_count: collisions,
      single_undo: true,
    };
  const changes: Change[] = [];
  const prov = annotationProperty(PROVENANCE_PROPERTY);
  const declared = ctx.resolver.closure.some((o) => o.has(declaration(prov)));
  if (!declared && missing.length > 0) changes.push({ kind: 'AddAxiom', ontology: active, axiom: declaration(prov) });
  for (const a of missing) changes.push({ kind: 'AddAxiom', ontology: active, axiom: a });
  if (mode === 'replace') for (const a of alternates) changes.push({ kind: 'RemoveAxiom', ontology: active, axiom: a });
  const result = ws.apply(changes);
  return {
    status: 'committed',
    committed: true,
    added_axioms: missing.length,
    existing_axioms: existing,
    asserted_collision_count: collisions,
    ...(mode === 'replace' ? { removed_axioms: alternates.size } : {}),
    single_undo: true,
    new_revision: result.revision,
  };
}

/** The destination document: the generated axioms, the provenance property's declaration, and a comment saying who made it and why. */
function destinationOntology(iri: string, p: MaterializationPayload): Ontology {
  const o = new Ontology();
  o.id = Object.freeze({ iri, versionIri: null });
  const { generator, purpose } = p.request.provenance;
  o.annotations.add(
    annotation(
      annotationProperty(RDFS_COMMENT),
      literal(
        `Inferred axioms of ${p.identity.source} by ${p.identity.reasoner.name}; generator: ${generator}; purpose: ${purpose}; materialization_digest: ${p.materializationDigest}`,
      ),
    ),
  );
  for (const [prefix, ns] of STANDARD_PREFIXES) o.prefixes.set(prefix, ns);
  o.prefixes.set('prov:', 'http://www.w3.org/ns/prov#');
  const gen = generated(p);
  if (gen.length > 0) o.add(declaration(annotationProperty(PROVENANCE_PROPERTY)));
  for (const g of gen) o.add(g.axiom);
  o.format = 'ofn';
  return o;
}

function commitToNewOntology(ctx: CallContext, p: MaterializationPayload): JsonObject {
  const ws = ctx.workspace;
  const iri = ontologyDestination(p.request.destination.identifier);
  const other = ws.find(iri);
  if (other !== undefined) {
    throw new DomainError(
      `Ontology id ${iri} is already in use by a loaded ontology (${ontologyLabel(other)}); nothing was committed.`,
      'id_in_use',
      { committed: false },
    );
  }
  const o = destinationOntology(iri, p);
  ws.load(o, false);
  const gen = generated(p);
  return {
    status: 'committed',
    committed: true,
    added_axioms: gen.length,
    existing_axioms: 0,
    asserted_collision_count: 0,
    single_undo: false,
    new_revision: ws.revision,
    created_ontology: ontologyLabel(o),
    note: 'The new ontology is loaded (not active, not saved); creating it is not undoable.',
  };
}

/** The file text, read back and compared line by line with what the artifact holds before anything is written. */
function verifiedText(p: MaterializationPayload): string {
  const iri = PROVENANCE_PREFIX + p.materializationDigest.slice('sha256:'.length);
  const text = writeDocument(destinationOntology(iri, p), 'ofn');
  const back = readFunctional(text);
  const lines = axiomLines([...back.axioms()].filter((a) => a.kind !== 'Declaration'));
  const expected = generated(p)
    .map((g) => g.line)
    .sort();
  if (lines.length !== expected.length || lines.some((l, i) => l !== expected[i]) || back.id.iri !== iri) {
    throw new DomainError(
      'The functional-syntax serialization did not read back to the previewed axioms; nothing was written.',
      'materialization_verification_failed',
      { committed: false },
    );
  }
  return text;
}

async function commitToFile(
  ctx: CallContext,
  p: MaterializationPayload,
  args: CommitArgs,
  rules: ReturnType<typeof materializationRules>,
  res: Awaited<ReturnType<typeof resolvePolicy>>,
): Promise<JsonObject> {
  const { target, root } = await projectFileTarget(ctx, TOOL, p.request.destination.identifier, rules, res, 'write');
  const text = verifiedText(p);
  const out = await publishProjectFile({
    root,
    target,
    text,
    overwrite: args.overwrite,
    expectedTargetDigest: args.expected_target_digest,
  });
  return {
    status: out.status,
    committed: out.status === 'committed',
    added_axioms: out.status === 'committed' ? generated(p).length : 0,
    existing_axioms: out.status === 'noop' ? generated(p).length : 0,
    asserted_collision_count: 0,
    single_undo: false,
    target_digest: out.targetDigest,
    path: target,
    ...(out.backup !== undefined ? { backup: { path: out.backup.path, sha256: out.backup.sha256, verified: true } } : {}),
  };
}

export async function commitMaterialization(ctx: CallContext, args: CommitArgs): Promise<JsonObject> {
  const p = findArtifact(ctx, args);
  const res = await resolvePolicy(ctx, args.policy_path ?? p.request.policy_path);
  const rules = materializationRules(TOOL, res);
  const kind = p.request.destination.kind;
  if (kind === 'active_source') {
    if (args.allow_source !== true) {
      throw new DomainError('Committing into the active ontology needs allow_source=true.', 'invalid_argument', {
        argument: 'allow_source',
        committed: false,
      });
    }
    requireSourceWrite(TOOL, rules, res);
  }
  const changed = changedFields(p.identity, await inputIdentity(ctx.window, ctx.window.reasoning.selected, res));
  if (changed.length > 0) {
    throw new DomainError(
      `The state the preview was computed from has changed (${changed.join(', ')}); nothing was committed. Preview again.`,
      'precondition_changed',
      { changed, committed: false },
    );
  }
  // the identity was read across an await: the model must still be at the previewed revision when it is written
  if (kind !== 'project_file' && !sameRevision(p.identity.revision, revisionEnvelope(ctx.workspace))) {
    throw new DomainError(
      'The model changed while the commit was being verified; nothing was committed. Preview again.',
      'precondition_changed',
      { changed: ['source_revision'], committed: false },
    );
  }
  const outcome =
    kind === 'active_source'
      ? commitToSource(ctx, p, args.collision_mode)
      : kind === 'new_ontology'
        ? commitToNewOntology(ctx, p)
        : await commitToFile(ctx, p, args, rules, res);
  return {
    ...outcome,
    artifact_id: args.artifact_id,
    artifact_fingerprint: p.fingerprint,
    artifact_digest: p.artifactDigest,
    materialization_digest: p.materializationDigest,
    destination: p.destinationPlan,
    collision_mode: args.collision_mode,
  };
}
