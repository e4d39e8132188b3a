// How results show entities, axioms and annotations to the caller (TOOLS.md 1.4, 1.5): display names in
// the window's label language, Manchester syntax, the row shapes every tool and domain report shares.

import type { Annotation, Axiom, Entity, EntityKind, IRI } from '../model/terms.js';
import { displayName, preferredLabel } from '../model/display.js';
import { ManchesterRenderer } from '../model/formats/manchester/render.js';
import { XSD_STRING, RDF_LANG_STRING } from '../model/vocab.js';
import type { JsonObject } from '../util/json-object.js';
import type { CallContext } from '../window/call-context.js';

/** What a row needs of the call: the resolver (closure, minted names) and the label language. */
type RowContext = Pick<CallContext, 'resolver' | 'settings'>;

/** The order entity kinds are listed in. */
export const KIND_ORDER: readonly EntityKind[] = [
  'Class',
  'ObjectProperty',
  'DataProperty',
  'AnnotationProperty',
  'NamedIndividual',
  'Datatype',
];

export interface EntityRow {
  iri: string;
  display: string;
  type: string;
}

/**
 * The display name (TOOLS.md 1.4). An entity this call minted with a generated id and that has no label
 * yet (a preview, or before the write) shows the name it was mentioned by, which a write adds as its label.
 */
function displayOf(e: Entity | IRI, ctx: RowContext): string {
  const closure = ctx.resolver.closure;
  const lang = ctx.settings.label_language;
  if (ctx.resolver.generatesIds) {
    const iri = typeof e === 'string' ? e : e.iri;
    const name = ctx.resolver.generatedName(iri);
    if (name !== undefined && preferredLabel(iri, closure, lang) === null) return name;
  }
  return displayName(e, closure, lang);
}

export function entityRow(e: Entity, ctx: RowContext): EntityRow {
  return { iri: e.iri, display: displayOf(e, ctx), type: e.kind };
}

/**
 * A `new_entities` row (TOOLS.md 1.7). An entity minted with a generated id says so (`generated_id`); its
 * display is then its label: the name it was mentioned by, which the same write adds as its rdfs:label.
 */
export function newEntityRow(e: Entity, ctx: RowContext): EntityRow & { generated_id?: true } {
  const row = entityRow(e, ctx);
  return ctx.resolver.generatedName(e.iri) === undefined ? row : { ...row, generated_id: true };
}

/** One axiom in Manchester syntax with display names (TOOLS.md 1.5 axiom rows). */
export function renderAxiom(a: Axiom, ctx: RowContext): string {
  return new ManchesterRenderer((e) => displayOf(e, ctx)).axiom(a);
}

/** Annotation row (TOOLS.md 1.5): `datatype` only for literals that are neither strings nor language-tagged. */
export function annotationRow(a: Annotation, ctx: RowContext): JsonObject {
  const closure = ctx.resolver.closure;
  const row: JsonObject = { property: displayName(a.property, closure, ctx.settings.label_language), property_iri: a.property.iri };
  const value = a.value;
  if (value.kind === 'IRI') row.value_iri = value.iri;
  else if (value.kind === 'AnonymousIndividual') row.value = '_:' + value.nodeId;
  else {
    row.value = value.lex;
    if (value.lang !== '') row.lang = value.lang;
    else if (value.datatype !== XSD_STRING && value.datatype !== RDF_LANG_STRING) row.datatype = value.datatype;
  }
  if (a.annotations.length > 0) row.annotations = a.annotations.map((n) => annotationRow(n, ctx));
  return row;
}
