// The `classification` job: the active imports closure captured as a private reasoning snapshot when the job
// starts, classified on the reasoner pool by the selected reasoner (else the policy's; see job-reasoner.ts).
// The structural reasoner cannot judge consistency or satisfiability, so the result says `unsupported`
// instead of a verdict.

import * as v from 'valibot';
import type { IRI } from '../../model/terms.js';
import { OWL_NOTHING } from '../../model/vocab.js';
import { Classification, runTask } from '../../reasoner/pool.js';
import type { ClassificationData } from '../../reasoner/pool-worker.js';
import { implementationDigest, type ReasonerInfo } from '../../reasoner/registry.js';
import { jobReasoner } from './job-reasoner.js';
import { shipAll } from '../../reasoner/snapshot.js';
import type { JsonObject } from '../../util/json-object.js';
import { JobRunError } from '../job.js';
import { defineJobType, limitField, PolicyPathField } from './job-type.js';

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_LIMIT = 1000;

const Request = v.strictObject({ limit: limitField(DEFAULT_LIMIT), policy_path: PolicyPathField });
type ClassificationRequest = v.InferOutput<typeof Request>;

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Taxonomy {
  readonly edges: { sub: IRI; super: IRI }[];
  readonly groups: IRI[][];
}

/** Direct subclass edges between node representatives (least IRI) and equivalence groups, sorted. */
function taxonomyOf(c: Classification): Taxonomy {
  const classes = c.data.members === '' ? [] : c.data.members.split('\n');
  const representative = (iri: IRI): IRI => c.equivalents(iri).reduce((least, e) => (compare(e, least) < 0 ? e : least), iri);
  const edges: { sub: IRI; super: IRI }[] = [];
  const groups: [IRI, ...IRI[]][] = [];
  for (const iri of classes) {
    const members: [IRI, ...IRI[]] = [iri, ...c.equivalents(iri)];
    members.sort(compare);
    if (members[0] !== iri) continue;
    if (members.length > 1) groups.push(members);
    if (members.includes(OWL_NOTHING)) continue;
    const parents = new Set(c.superclasses(iri, true).map(representative));
    for (const p of [...parents].sort(compare)) edges.push({ sub: iri, super: p });
  }
  edges.sort((a, b) => compare(a.sub, b.sub) || compare(a.super, b.super));
  groups.sort((a, b) => compare(a[0], b[0]));
  return { edges, groups };
}

function capped<T>(items: readonly T[], limit: number): JsonObject {
  return { count: items.length, items: items.slice(0, limit), ...(items.length > limit ? { truncated: items.length - limit } : {}) };
}

const UNSUPPORTED = (what: string, r: ReasonerInfo) => ({
  status: 'unsupported',
  reason: `${r.name} uses told axioms only and cannot decide ${what}`,
});

function verdicts(c: Classification, r: ReasonerInfo, limit: number): JsonObject {
  if (r.id === 'structural') return { consistency: UNSUPPORTED('consistency', r), satisfiability: UNSUPPORTED('satisfiability', r) };
  const unsatisfiable = [...c.data.unsatisfiable].filter((i) => i !== OWL_NOTHING).sort(compare);
  return {
    consistency: { status: c.consistent ? 'consistent' : 'inconsistent' },
    satisfiability: c.consistent ? { status: 'checked', unsatisfiable: capped(unsatisfiable, limit) } : { status: 'inconsistent_ontology' },
  };
}

export const classificationJob = defineJobType<ClassificationRequest>({
  type: 'classification',
  request: Request,
  capabilities: ['ontology:read'],
  resultDiscriminator: 'classification.v1',
  runsUnderInvalidPolicy: false,
  prepare: async (ctx, request, res) => {
    const reasoner = jobReasoner(ctx);
    const snap = ctx.window.reasoning.snapshot();
    const timeoutMs = res.policy?.reasoning.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    return {
      identity: {
        reasoner: reasoner.id,
        reasoner_version: reasoner.version,
        implementation: implementationDigest(reasoner),
        timeout_ms: timeoutMs,
      },
      run: async (handle) => {
        handle.progress('classifying', `Classifying ${snap.axiomCount} axioms with ${reasoner.name}`);
        const task = {
          type: 'classify' as const,
          key: `${snap.workspaceId}@${snap.revision}`,
          model: shipAll(snap),
          reasoner: reasoner.id,
          timeLimitMs: timeoutMs,
        };
        const out = await runTask<ClassificationData>(task, timeoutMs, handle.signal);
        if (out.kind === 'cancelled') throw new JobRunError('Classification was cancelled', 'cancelled');
        if (out.kind === 'timeout')
          throw new JobRunError(`Classification did not finish within ${timeoutMs} ms`, 'timeout', true, { timeout_ms: timeoutMs });
        if (out.kind === 'error') throw new JobRunError(`The reasoner failed: ${out.message}`, 'reasoner_error');
        handle.progress('reporting', 'Writing the taxonomy');
        const c = new Classification(out.value, snap.revision, reasoner, snap.ruleCount);
        const taxonomy = c.consistent ? taxonomyOf(c) : { edges: [], groups: [] };
        const full = {
          reasoner: { id: reasoner.id, name: reasoner.name },
          revision: snap.revision,
          consistent: reasoner.id === 'structural' ? null : c.consistent,
          ...taxonomy,
        };
        const artifact = await handle.artifact('taxonomy', 'application/json', Buffer.from(JSON.stringify(full) + '\n'));
        return {
          reasoner: { id: reasoner.id, name: reasoner.name },
          revision: snap.revision,
          complete: c.data.complete,
          ...verdicts(c, reasoner, request.limit),
          taxonomy: { subclass_edges: capped(taxonomy.edges, request.limit), equivalent_groups: capped(taxonomy.groups, request.limit) },
          unsupported_axioms: { count: c.data.unsupported.count },
          ...(snap.ruleCount > 0
            ? { warning: 'The ontology has SWRL rules; this reasoner ignores them, so rule inferences are missing.' }
            : {}),
          taxonomy_artifact_id: artifact.artifact_id,
          artifacts: [artifact],
        };
      },
    };
  },
});
