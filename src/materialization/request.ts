// The arguments of `materialize_inferences` (TOOLS.md 3.8) as one closed valibot schema, shared by the tool
// and by the job runner that previews in the background, so both accept exactly the same requests.

import * as v from 'valibot';
import { CATEGORIES } from './categories.js';

export const DESTINATION_KINDS = ['new_ontology', 'active_source', 'project_file'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** Per-limit ceiling for ontology destinations (one broadcast, one undo entry). */
export const ONTOLOGY_DESTINATION_CAP = 500;

const int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

export const MaterializationRequestSchema = v.strictObject({
  categories: v.pipe(
    v.array(v.picklist(CATEGORIES)),
    v.minLength(1),
    v.maxLength(CATEGORIES.length),
    v.check((cs) => new Set(cs).size === cs.length, 'categories must be unique'),
  ),
  destination: v.strictObject({
    kind: v.picklist(DESTINATION_KINDS),
    identifier: v.pipe(v.string(), v.minLength(1), v.maxLength(4096), v.description('Ontology IRI, or path for project_file.')),
  }),
  provenance: v.strictObject({
    generator: v.pipe(v.string(), v.minLength(1), v.maxLength(512)),
    purpose: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
  }),
  limits: v.strictObject({
    max_axioms_per_category: int(1, 50_000),
    max_axioms_total: int(1, 50_000),
    max_bytes: int(1024, 67_108_864),
    timeout_ms: int(1, 3_600_000),
  }),
  policy_path: v.optional(v.pipe(v.string(), v.nonEmpty())),
});

export type MaterializationRequest = v.InferOutput<typeof MaterializationRequestSchema>;
