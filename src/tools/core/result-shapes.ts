// Shared result shapes of the tools (TOOLS.md 1.5): entity-type inputs, declared row schemas, ontology counts.

import * as v from 'valibot';
import { isLogicalAxiom, type EntityKind } from '../../model/terms.js';
import type { Ontology } from '../../model/ontology.js';
import type { Workspace } from '../../model/workspace.js';

/** Entity-type input enum → entity kind. */
export const ENTITY_TYPE_INPUT = {
  class: 'Class',
  object_property: 'ObjectProperty',
  data_property: 'DataProperty',
  annotation_property: 'AnnotationProperty',
  individual: 'NamedIndividual',
  datatype: 'Datatype',
} as const satisfies Readonly<Record<string, EntityKind>>;

/** In a declared result shape: a list, or an object, whose items or fields the listed outputSchema leaves out. */
export const AnyList = v.pipe(v.array(v.unknown()), v.readonly());
export const AnyObject = v.object({});
export const StringList = v.pipe(v.array(v.string()), v.readonly());

/** An entity row (TOOLS.md 1.5) in a declared result shape; `generated_id` marks a minted generated id. */
export const EntityRowOutput = v.object({
  iri: v.string(),
  display: v.string(),
  type: v.string(),
  generated_id: v.optional(v.literal(true)),
});

/** The result of a tool that asserts one axiom: whether it is now present, its rendering, the entities it minted. */
export const AxiomWriteOutput = v.object({
  applied: v.boolean(),
  axiom: v.string(),
  new_entities: v.optional(v.array(EntityRowOutput)),
  note: v.optional(v.string()),
});

/** Logical-axiom counts, cached per ontology until the workspace revision moves. */
const logicalCache = new WeakMap<Ontology, { revision: number; count: number }>();

export function logicalAxiomCount(o: Ontology, ws: Workspace): number {
  const hit = logicalCache.get(o);
  if (hit !== undefined && hit.revision === ws.revision) return hit.count;
  let count = 0;
  for (const a of o.axioms()) if (isLogicalAxiom(a)) count++;
  logicalCache.set(o, { revision: ws.revision, count });
  return count;
}

export function activeCounts(ws: Workspace): {
  axioms: number;
  logical_axioms: number;
  direct_imports: number;
  ontology_annotations: number;
} {
  const o = ws.active;
  return {
    axioms: o.axiomCount,
    logical_axioms: logicalAxiomCount(o, ws),
    direct_imports: o.imports.size,
    ontology_annotations: o.annotations.size,
  };
}
