// Shared result shapes of the tools (TOOLS.md 1.5): entity rows, axiom renderings, ontology counts.

import * as v from 'valibot';
import { isLogicalAxiom, type Axiom, type Entity, type EntityKind, type IRI } from '../model/terms.js';
import type { Ontology } from '../model/ontology.js';
import type { Workspace } from '../model/workspace.js';
import { displayName, preferredLabel } from '../model/display.js';
import { ManchesterRenderer } from '../model/formats/manchester/render.js';
import type { ToolContext } from './tool.js';

export const ENTITY_TYPE_NAMES: Readonly<Record<EntityKind, string>> = {
  Class: 'Class', ObjectProperty: 'ObjectProperty', DataProperty: 'DataProperty',
  AnnotationProperty: 'AnnotationProperty', NamedIndividual: 'NamedIndividual', Datatype: 'Datatype',
};

/** Entity-type input enum → entity kind. */
export const ENTITY_TYPE_INPUT: Readonly<Record<string, EntityKind>> = {
  class: 'Class', object_property: 'ObjectProperty', data_property: 'DataProperty',
  annotation_property: 'AnnotationProperty', individual: 'NamedIndividual', datatype: 'Datatype',
};

export interface EntityRow {
  iri: string;
  display: string;
  type: string;
}

/** In a declared result shape: a list, or an object, whose items or fields the listed outputSchema leaves out. */
export const AnyList = v.pipe(v.array(v.unknown()), v.readonly());
export const AnyObject = v.object({});

/** An entity row (TOOLS.md 1.5) in a declared result shape; `generated_id` marks a minted generated id. */
export const EntityRowOutput = v.object({ iri: v.string(), display: v.string(), type: v.string(), generated_id: v.optional(v.literal(true)) });

/** The result of a tool that asserts one axiom: whether it is now present, its rendering, the entities it minted. */
export const AxiomWriteOutput = v.object({ applied: v.boolean(), axiom: v.string(), new_entities: v.optional(v.array(EntityRowOutput)), note: v.optional(v.string()) });

/**
 * The display name (TOOLS.md 1.4). An entity this call minted with a generated id and that has no label
 * yet (a preview, or before the write) shows the name it was mentioned by, which a write adds as its label.
 */
function displayOf(e: Entity | IRI, ctx: ToolContext): string {
  const closure = ctx.resolver.closure;
  const lang = ctx.settings.label_language;
  if (ctx.resolver.generatesIds) {
    const iri = typeof e === 'string' ? e : e.iri;
    const name = ctx.resolver.generatedName(iri);
    if (name !== undefined && preferredLabel(iri, closure, lang) === null) return name;
  }
  return displayName(e, closure, lang);
}

export function entityRow(e: Entity, ctx: ToolContext): EntityRow {
  return { iri: e.iri, display: displayOf(e, ctx), type: ENTITY_TYPE_NAMES[e.kind] };
}

/**
 * A `new_entities` row (TOOLS.md 1.7). An entity minted with a generated id says so (`generated_id`); its
 * display is then its label: the name it was mentioned by, which the same write adds as its rdfs:label.
 */
export function newEntityRow(e: Entity, ctx: ToolContext): EntityRow & { generated_id?: true } {
  const row = entityRow(e, ctx);
  return ctx.resolver.generatedName(e.iri) === undefined ? row : { ...row, generated_id: true };
}

/** One axiom in Manchester syntax with display names (TOOLS.md 1.5 axiom rows). */
export function renderAxiom(a: Axiom, ctx: ToolContext): string {
  return new ManchesterRenderer((e) => displayOf(e, ctx)).axiom(a);
}

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

export function activeCounts(ws: Workspace): { axioms: number; logical_axioms: number; direct_imports: number; ontology_annotations: number } {
  const o = ws.active;
  return { axioms: o.axiomCount, logical_axioms: logicalAxiomCount(o, ws), direct_imports: o.imports.size, ontology_annotations: o.annotations.size };
}
