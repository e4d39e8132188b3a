// Explore and context tools (TOOLS.md 3.1, 3.2): summarize_ontology, list_classes, get_axioms_for_entity,
// get_ontology_context and get_entity_context. Asserted structure only. Every list has a total order
// (display name, then IRI; anonymous neighbours after named ones, by their rendering), so unchanged state
// yields byte-identical results.

import * as v from 'valibot';
import {
  axiomTypeName,
  datatype as makeDatatype,
  entity as makeEntity,
  isLogicalAxiom,
  type Annotation,
  type AnnotationValue,
  type AnonymousIndividual,
  type Axiom,
  type AxiomKind,
  type ClassExpression,
  type DataRange,
  type Datatype,
  type Entity,
  type EntityKind,
  type Individual,
  type IRI,
  type Literal,
  type Node,
  type ObjectPropertyExpression,
  otherKinds,
  ANY_AXIOM,
} from '../../model/terms.js';
import type { Ontology } from '../../model/ontology.js';
import { NameError } from '../../model/names.js';
import { forEachChild } from '../../model/walk.js';
import { displayName } from '../../model/display.js';
import { ManchesterRenderer } from '../../model/formats/manchester/render.js';
import { LineRenderer } from '../../model/render/axiom-lines.js';
import { OWL_DEPRECATED, OWL_THING, OWL_NOTHING, RDF_LANG_STRING, XSD_BOOLEAN, XSD_STRING } from '../../model/vocab.js';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { EntityRowOutput, logicalAxiomCount, AnyList, AnyObject } from '../core/result-shapes.js';
import { KIND_ORDER, type EntityRow } from '../../report/rows.js';
import { lastChangesField } from '../history/change-journal-tools.js';
import { prefixObject } from '../header/header-tools.js';
import { unreachable } from '../../util/unreachable.js';

export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Entity kinds in the order their cards and rows are listed. */

const Limit = (fallback: number) => v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), fallback);
const Offset = v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0);
const EntityRef = v.pipe(v.string(), v.nonEmpty());

// ---------------------------------------------------------------- shared shapes (TOOLS.md 1.5, 1.6)

export interface Page<T> {
  count: number;
  offset: number;
  returned: number;
  items: T[];
  next_offset?: number;
}

/** A page (pageOf) of `item` rows in a declared result shape. */
export function pageOutput<T extends v.GenericSchema>(item: T) {
  return v.object({
    count: v.number(),
    offset: v.number(),
    returned: v.number(),
    items: v.array(item),
    next_offset: v.optional(v.number()),
  });
}

export function pageOf<T>(all: readonly T[], offset: number, limit: number): Page<T> {
  const items = all.slice(offset, offset + limit);
  const next = offset + items.length;
  return { count: all.length, offset, returned: items.length, items, ...(next < all.length ? { next_offset: next } : {}) };
}

export interface Capped<T> {
  count: number;
  items: T[];
  truncated?: number;
}

export function cappedOf<T>(all: readonly T[], limit: number): Capped<T> {
  return { count: all.length, items: all.slice(0, limit), ...(all.length > limit ? { truncated: all.length - limit } : {}) };
}

export interface AnonymousRow {
  expression: string;
  anonymous: true;
}

export type Neighbour = EntityRow | AnonymousRow;

/** Display names and renderings for one call, each entity's display computed once. */
export class View {
  readonly closure: readonly Ontology[];
  readonly renderer: ManchesterRenderer;
  private readonly names = new Map<string, string>();

  constructor(readonly ctx: ToolContext) {
    this.closure = ctx.resolver.closure;
    this.renderer = new ManchesterRenderer((e) => this.display(e));
  }

  display(e: Entity | IRI): string {
    const iri = typeof e === 'string' ? e : e.iri;
    let name = this.names.get(iri);
    if (name === undefined) {
      name = displayName(iri, this.closure, this.ctx.settings.label_language);
      this.names.set(iri, name);
    }
    return name;
  }

  row(e: Entity): EntityRow {
    return { iri: e.iri, display: this.display(e), type: e.kind };
  }

  /** Entity rows sorted by display name, then IRI, then type. */
  rows(entities: Iterable<Entity>): EntityRow[] {
    return [...entities].map((e) => this.row(e)).sort(compareRows);
  }

  classNeighbour(c: ClassExpression): Neighbour {
    return c.kind === 'Class' ? this.row(c) : { expression: this.renderer.classExpression(c), anonymous: true };
  }

  propertyNeighbour(p: ObjectPropertyExpression): Neighbour {
    return p.kind === 'ObjectProperty' ? this.row(p) : { expression: this.renderer.objectProperty(p), anonymous: true };
  }

  rangeNeighbour(d: DataRange): Neighbour {
    return d.kind === 'Datatype' ? this.row(d) : { expression: this.renderer.dataRange(d), anonymous: true };
  }

  individualNeighbour(i: Individual): Neighbour {
    return i.kind === 'NamedIndividual' ? this.row(i) : { expression: this.renderer.individual(i), anonymous: true };
  }

  /** TOOLS.md 1.5 annotation row. */
  annotationRow(property: Entity, value: AnnotationValue, nested: readonly Annotation[]): JsonObject {
    const row: JsonObject = { property: this.display(property), property_iri: property.iri };
    if (value.kind === 'IRI') row.value_iri = value.iri;
    else if (value.kind === 'AnonymousIndividual') row.value = this.renderer.individual(value);
    else Object.assign(row, literalFields(value));
    if (nested.length > 0) row.annotations = this.annotationRows(nested.map((a) => [a.property, a.value, a.annotations] as const));
    return row;
  }

  annotationRows(list: Iterable<readonly [Entity, AnnotationValue, readonly Annotation[]]>): JsonObject[] {
    return [...list].map(([p, val, nested]) => this.annotationRow(p, val, nested)).sort((a, b) => cmp(rowKey(a), rowKey(b)));
  }
}

function literalFields(l: Literal): JsonObject {
  if (l.lang !== '') return { value: l.lex, lang: l.lang };
  return l.datatype === XSD_STRING ? { value: l.lex } : { value: l.lex, datatype: l.datatype };
}

const rowKey = (r: JsonObject): string => JSON.stringify(r);

export function compareRows(a: EntityRow, b: EntityRow): number {
  return cmp(a.display, b.display) || cmp(a.iri, b.iri) || cmp(a.type, b.type);
}

/** Named neighbours first (display, IRI), then anonymous ones by rendering; duplicates dropped. */
function sortNeighbours(list: readonly Neighbour[]): Neighbour[] {
  const named: EntityRow[] = [];
  const anonymous = new Set<string>();
  for (const n of list) {
    if ('anonymous' in n) anonymous.add(n.expression);
    else named.push(n);
  }
  return [...named.sort(compareRows), ...[...anonymous].sort().map((expression): AnonymousRow => ({ expression, anonymous: true }))];
}

// ---------------------------------------------------------------- scope helpers

function scopeOf(ctx: ToolContext, includeImports: boolean): readonly Ontology[] {
  return includeImports ? ctx.resolver.closure : [ctx.workspace.active];
}

/** Distinct axioms of the scope that mention `e`. */
function referencingAxioms(scope: readonly Ontology[], e: Entity): Set<Axiom> {
  const out = new Set<Axiom>();
  for (const o of scope) for (const a of o.index.referencing.get(e) ?? []) out.add(a);
  return out;
}

/** Distinct annotation assertions of the scope whose subject is `iri`. */
function annotationsOn(scope: readonly Ontology[], iri: IRI): Set<Axiom & { kind: 'AnnotationAssertion' }> {
  const out = new Set<Axiom & { kind: 'AnnotationAssertion' }>();
  for (const o of scope) for (const a of o.index.annotationsBySubject.get(iri) ?? []) out.add(a);
  return out;
}

/** True when a node mentions `dt` other than as the datatype of a literal. */
function mentionsOutsideLiterals(n: Node, dt: Datatype): boolean {
  if (n === dt) return true;
  if (n.kind === 'Literal') return false;
  let found = false;
  forEachChild(n, (c) => {
    if (!found && mentionsOutsideLiterals(c, dt)) found = true;
  });
  return found;
}

function namesExplicitly(o: Ontology, dt: Datatype): boolean {
  for (const a of o.index.referencing.get(dt) ?? []) if (mentionsOutsideLiterals(a, dt)) return true;
  return false;
}

/** The datatypes plain literals carry implicitly; they count as entities only where named explicitly. */
const PLAIN_LITERAL_TYPES: readonly Datatype[] = [makeDatatype(XSD_STRING), makeDatatype(RDF_LANG_STRING)];

function addAnnotationEntities(a: Annotation, out: Set<Entity>): void {
  out.add(a.property);
  if (a.value.kind === 'Literal' && !PLAIN_LITERAL_TYPES.includes(makeDatatype(a.value.datatype))) out.add(makeDatatype(a.value.datatype));
  for (const n of a.annotations) addAnnotationEntities(n, out);
}

/**
 * Distinct entities referenced by the scope's own axioms and ontology annotations, without the implicit
 * datatypes of plain literals (xsd:string, rdf:langString) unless something names them explicitly.
 */
export function scopeSignature(scope: readonly Ontology[]): Set<Entity> {
  const out = new Set<Entity>();
  for (const o of scope) {
    for (const k of o.index.referencing.keys()) {
      if (k.kind !== 'AnonymousIndividual' && !PLAIN_LITERAL_TYPES.includes(k as Datatype)) out.add(k);
    }
    for (const a of o.annotations) addAnnotationEntities(a, out);
  }
  for (const dt of PLAIN_LITERAL_TYPES) {
    if (out.has(dt)) continue;
    if (scope.some((o) => namesExplicitly(o, dt))) out.add(dt);
  }
  return out;
}

/** Counts sorted by count (descending), then name. */
function sortedCounts(counts: ReadonlyMap<string, number>): [string, number][] {
  return [...counts].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]));
}

// ---------------------------------------------------------------- entity lookup

/** Every entity (one per kind) a reference names; an ambiguous display name yields every candidate. */
export function lookUpEntities(ref: string, ctx: ToolContext): Entity[] {
  let iris: readonly IRI[];
  try {
    iris = [ctx.resolver.resolve(ref).iri];
  } catch (err) {
    if (!(err instanceof NameError)) throw err;
    iris = err.candidates;
  }
  const out: Entity[] = [];
  for (const iri of iris) {
    const kinds = ctx.resolver.kindsOf(iri);
    for (const kind of KIND_ORDER) if (kinds.has(kind)) out.push(makeEntity(kind, iri));
  }
  return out;
}

/** The entities of one IRI a reference names (every punned kind); ambiguity is an error, absence not_found. */
function requireOneIri(ref: string, ctx: ToolContext): [Entity, ...Entity[]] {
  let iri: IRI;
  try {
    iri = ctx.resolver.resolve(ref).iri;
  } catch (err) {
    if (err instanceof NameError && err.candidates.length === 0) throw new ToolFailure(`No entity found for '${ref}'.`, 'not_found');
    throw err;
  }
  const kinds = ctx.resolver.kindsOf(iri);
  const [first, ...rest] = KIND_ORDER.filter((k) => kinds.has(k)).map((k) => makeEntity(k, iri));
  if (first === undefined) throw new ToolFailure(`No entity found for '${ref}'.`, 'not_found');
  return [first, ...rest];
}

// ---------------------------------------------------------------- summarize_ontology

export const summarizeOntology = defineTool({
  name: 'summarize_ontology',
  description: 'Axiom and entity statistics of the active ontology or its imports closure.',
  input: v.strictObject({
    include_imports: v.optional(v.boolean(), false),
    limit: Limit(80),
  }),
  output: v.object({
    scope: v.string(),
    ontologies: v.number(),
    axioms: v.number(),
    logical_axioms: v.number(),
    ontology_annotations: v.number(),
    import_declarations: v.number(),
    signature_entities: v.number(),
    entity_types: AnyObject,
    axiom_types: AnyObject,
    axiom_types_truncated: v.optional(v.number()),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    const scope = scopeOf(ctx, args.include_imports);
    // by OWL 2 type name, as axiom rows name them (a property chain is a SubObjectPropertyOf)
    const byKind = new Map<string, number>();
    let axioms = 0;
    let logical = 0;
    let annotations = 0;
    let imports = 0;
    for (const o of scope) {
      axioms += o.axiomCount;
      annotations += o.annotations.size;
      imports += o.imports.size;
      for (const set of o.index.byKind.values()) {
        if (set.size === 0) continue;
        const first = set.values().next().value as Axiom;
        const name = axiomTypeName(first);
        byKind.set(name, (byKind.get(name) ?? 0) + set.size);
        // logical-ness depends on the kind only
        if (isLogicalAxiom(first)) logical += set.size;
      }
    }
    const signature = scopeSignature(scope);
    const entityCounts = new Map<string, number>();
    for (const e of signature) entityCounts.set(e.kind, (entityCounts.get(e.kind) ?? 0) + 1);
    const axiomRows = sortedCounts(byKind);
    return {
      scope: args.include_imports ? 'imports_closure' : 'active',
      ontologies: scope.length,
      axioms,
      logical_axioms: logical,
      ontology_annotations: annotations,
      import_declarations: imports,
      signature_entities: signature.size,
      entity_types: Object.fromEntries(sortedCounts(entityCounts)),
      axiom_types: Object.fromEntries(axiomRows.slice(0, args.limit)),
      ...(axiomRows.length > args.limit ? { axiom_types_truncated: axiomRows.length - args.limit } : {}),
    };
  },
});

// ---------------------------------------------------------------- list_classes

export const listClasses = defineTool({
  name: 'list_classes',
  description: 'Named classes of the active ontology, by display name.',
  input: v.strictObject({ limit: Limit(200), offset: Offset }),
  output: pageOutput(EntityRowOutput),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    const view = new View(ctx);
    return { ...pageOf(view.rows(ctx.workspace.active.entities('Class')), args.offset, args.limit) };
  },
});

// ---------------------------------------------------------------- get_axioms_for_entity

export const getAxiomsForEntity = defineTool({
  name: 'get_axioms_for_entity',
  description: 'Asserted axioms that mention an entity or annotate its IRI.',
  input: v.strictObject({
    entity: EntityRef,
    include_imports: v.optional(v.boolean(), false),
    limit: Limit(100),
    offset: Offset,
  }),
  output: v.object({ entity: AnyObject, include_imports: v.boolean(), axioms: AnyObject }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    const senses = requireOneIri(args.entity, ctx);
    const scope = scopeOf(ctx, args.include_imports);
    const found = new Set<Axiom>(annotationsOn(scope, senses[0].iri));
    for (const e of senses) for (const a of referencingAxioms(scope, e)) found.add(a);
    const view = new View(ctx);
    const rendered = [...found].map((axiom) => ({ axiom, rendering: view.renderer.axiom(axiom) }));
    const canonical = new LineRenderer((x: AnonymousIndividual) => '_:' + x.nodeId);
    // ties (e.g. two IRIs sharing a label) fall back to the canonical full-IRI line
    rendered.sort((a, b) => cmp(a.rendering, b.rendering) || cmp(canonical.axiom(a.axiom), canonical.axiom(b.axiom)));
    const rows = rendered.map((r) => ({ axiom_type: axiomTypeName(r.axiom), rendering: r.rendering }));
    return {
      entity: view.row(senses[0]),
      include_imports: args.include_imports,
      axioms: pageOf(rows, args.offset, args.limit),
    };
  },
});

// ---------------------------------------------------------------- get_ontology_context

/** Classes of the active ontology without an asserted named superclass (other than owl:Thing) in the closure. */
function rootClasses(ctx: ToolContext): Entity[] {
  const closure = ctx.resolver.closure;
  const roots: Entity[] = [];
  for (const c of ctx.workspace.active.entities('Class')) {
    if (c.iri === OWL_THING || c.iri === OWL_NOTHING) continue;
    const hasParent = closure.some((o) =>
      o.index.superClasses(c as ClassExpression).some((s) => s.kind === 'Class' && s !== c && s.iri !== OWL_THING),
    );
    if (!hasParent) roots.push(c);
  }
  return roots;
}

/** The window's reasoner selection as get_ontology_context reports it; `stale` only when out of sync. */
function reasonerState(ctx: ToolContext): JsonObject {
  const session = ctx.window.reasoning;
  const status = session.status();
  return {
    selected_id: session.selected.id,
    selected_name: session.selected.name,
    status,
    results_available: session.result !== null,
    ...(status === 'out_of_sync' ? { stale: true } : {}),
  };
}

export const getOntologyContext = defineTool({
  name: 'get_ontology_context',
  description: 'Orientation: id, counts, imports, annotations, root classes, properties, reasoner, prefixes.',
  input: v.strictObject({ limit: Limit(50) }),
  output: v.object({
    active_ontology: AnyObject,
    counts: AnyObject,
    imports: AnyList,
    ontology_annotations: AnyList,
    root_classes: AnyObject,
    object_properties: AnyObject,
    data_properties: AnyObject,
    reasoner: AnyObject,
    prefixes: AnyObject,
    write_protection: v.string(),
    note: v.string(),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    const o = ctx.workspace.active;
    const view = new View(ctx);
    const perKind = new Map<EntityKind, number>();
    for (const e of scopeSignature([o])) perKind.set(e.kind, (perKind.get(e.kind) ?? 0) + 1);
    const count = (k: EntityKind) => perKind.get(k) ?? 0;
    return {
      active_ontology: { ontology_iri: o.id.iri, version_iri: o.id.versionIri, anonymous: o.id.iri === null },
      counts: {
        axioms: o.axiomCount,
        logical_axioms: logicalAxiomCount(o, ctx.workspace),
        classes: count('Class'),
        object_properties: count('ObjectProperty'),
        data_properties: count('DataProperty'),
        annotation_properties: count('AnnotationProperty'),
        individuals: count('NamedIndividual'),
        datatypes: count('Datatype'),
      },
      imports: [...o.imports].sort(),
      ontology_annotations: view.annotationRows([...o.annotations].map((a) => [a.property, a.value, a.annotations] as const)),
      root_classes: cappedOf(view.rows(rootClasses(ctx)), args.limit),
      object_properties: cappedOf(view.rows(o.entities('ObjectProperty')), args.limit),
      data_properties: cappedOf(view.rows(o.entities('DataProperty')), args.limit),
      reasoner: reasonerState(ctx),
      prefixes: prefixObject(o),
      write_protection: ctx.settings.read_only ? 'read-only' : 'writable',
      note: 'Asserted structure only. root_classes are the classes without an asserted named superclass other than owl:Thing; lists hold at most `limit` rows each (truncated = rows omitted).',
    };
  },
});

// ---------------------------------------------------------------- get_entity_context

const CHARACTERISTICS: ReadonlyArray<readonly [AxiomKind, string]> = [
  ['FunctionalObjectProperty', 'functional'],
  ['InverseFunctionalObjectProperty', 'inverse_functional'],
  ['TransitiveObjectProperty', 'transitive'],
  ['SymmetricObjectProperty', 'symmetric'],
  ['AsymmetricObjectProperty', 'asymmetric'],
  ['ReflexiveObjectProperty', 'reflexive'],
  ['IrreflexiveObjectProperty', 'irreflexive'],
];

/** Neighbour lists collected for one card. */
class Lists {
  private readonly lists = new Map<string, Neighbour[]>();

  add(name: string, n: Neighbour): void {
    let l = this.lists.get(name);
    if (l === undefined) this.lists.set(name, (l = []));
    l.push(n);
  }

  sorted(name: string): Neighbour[] {
    return sortNeighbours(this.lists.get(name) ?? []);
  }

  capped(names: readonly string[], limit: number): JsonObject {
    const out: JsonObject = {};
    for (const name of names) out[name] = cappedOf(this.sorted(name), limit);
    return out;
  }
}

function classLists(c: Entity, axioms: Iterable<Axiom>, view: View, limit: number): JsonObject {
  const l = new Lists();
  const others = (list: readonly ClassExpression[], name: string) => {
    if (list.includes(c as ClassExpression)) for (const x of list) if (x !== c) l.add(name, view.classNeighbour(x));
  };
  for (const a of axioms) {
    switch (a.kind) {
      case 'SubClassOf':
        if (a.sub === c) l.add('super_classes', view.classNeighbour(a.sup));
        if (a.sup === c) l.add('sub_classes', view.classNeighbour(a.sub));
        break;
      case 'EquivalentClasses':
        others(a.classes, 'equivalent_classes');
        break;
      case 'DisjointClasses':
      case 'DisjointUnion':
        others(a.classes, 'disjoint_classes');
        break;
      case 'ClassAssertion':
        if (a.cls === c) l.add('instances', view.individualNeighbour(a.individual));
        break;
      default:
        otherKinds(a, ANY_AXIOM);
        break;
    }
  }
  return l.capped(['super_classes', 'sub_classes', 'equivalent_classes', 'disjoint_classes', 'instances'], limit);
}

function objectPropertyLists(p: Entity, axioms: Iterable<Axiom>, view: View, limit: number): JsonObject {
  const l = new Lists();
  const characteristics = new Set<string>();
  for (const a of axioms) {
    switch (a.kind) {
      case 'ObjectPropertyDomain':
        if (a.property === p) l.add('domains', view.classNeighbour(a.domain));
        break;
      case 'ObjectPropertyRange':
        if (a.property === p) l.add('ranges', view.classNeighbour(a.range));
        break;
      case 'SubObjectPropertyOf':
        if (a.sub === p) l.add('super_properties', view.propertyNeighbour(a.sup));
        if (a.sup === p) l.add('sub_properties', view.propertyNeighbour(a.sub));
        break;
      case 'SubPropertyChainOf':
        if (a.sup === p)
          l.add('sub_properties', { expression: a.chain.map((x) => view.renderer.objectProperty(x)).join(' o '), anonymous: true });
        break;
      case 'InverseObjectProperties':
        if (a.first === p) l.add('inverses', view.propertyNeighbour(a.second));
        if (a.second === p) l.add('inverses', view.propertyNeighbour(a.first));
        break;
      case 'FunctionalObjectProperty':
      case 'InverseFunctionalObjectProperty':
      case 'ReflexiveObjectProperty':
      case 'IrreflexiveObjectProperty':
      case 'SymmetricObjectProperty':
      case 'AsymmetricObjectProperty':
      case 'TransitiveObjectProperty':
      case 'Declaration':
      case 'SubClassOf':
      case 'EquivalentClasses':
      case 'DisjointClasses':
      case 'DisjointUnion':
      case 'EquivalentObjectProperties':
      case 'DisjointObjectProperties':
      case 'SubDataPropertyOf':
      case 'EquivalentDataProperties':
      case 'DisjointDataProperties':
      case 'DataPropertyDomain':
      case 'DataPropertyRange':
      case 'FunctionalDataProperty':
      case 'DatatypeDefinition':
      case 'HasKey':
      case 'SameIndividual':
      case 'DifferentIndividuals':
      case 'ClassAssertion':
      case 'ObjectPropertyAssertion':
      case 'NegativeObjectPropertyAssertion':
      case 'DataPropertyAssertion':
      case 'NegativeDataPropertyAssertion':
      case 'AnnotationAssertion':
      case 'SubAnnotationPropertyOf':
      case 'AnnotationPropertyDomain':
      case 'AnnotationPropertyRange':
      case 'DLSafeRule': {
        const name = CHARACTERISTICS.find(([kind]) => kind === a.kind)?.[1];
        if (name !== undefined && (a as { property: unknown }).property === p) characteristics.add(name);
        break;
      }
      default:
        return unreachable(a);
    }
  }
  return {
    ...l.capped(['domains', 'ranges', 'super_properties', 'sub_properties', 'inverses'], limit),
    characteristics: CHARACTERISTICS.map(([, name]) => name).filter((name) => characteristics.has(name)),
  };
}

function dataPropertyLists(p: Entity, axioms: Iterable<Axiom>, view: View, limit: number): JsonObject {
  const l = new Lists();
  let functional = false;
  for (const a of axioms) {
    switch (a.kind) {
      case 'DataPropertyDomain':
        if (a.property === p) l.add('domains', view.classNeighbour(a.domain));
        break;
      case 'DataPropertyRange':
        if (a.property === p) l.add('ranges', view.rangeNeighbour(a.range));
        break;
      case 'SubDataPropertyOf':
        if (a.sub === p) l.add('super_properties', view.row(a.sup));
        if (a.sup === p) l.add('sub_properties', view.row(a.sub));
        break;
      case 'FunctionalDataProperty':
        if (a.property === p) functional = true;
        break;
      default:
        otherKinds(a, ANY_AXIOM);
        break;
    }
  }
  return { ...l.capped(['domains', 'ranges', 'super_properties', 'sub_properties'], limit), functional };
}

function annotationPropertyLists(p: Entity, axioms: Iterable<Axiom>, view: View, limit: number): JsonObject {
  const l = new Lists();
  const domains = new Set<IRI>();
  const ranges = new Set<IRI>();
  for (const a of axioms) {
    switch (a.kind) {
      case 'SubAnnotationPropertyOf':
        if (a.sub === p) l.add('super_properties', view.row(a.sup));
        if (a.sup === p) l.add('sub_properties', view.row(a.sub));
        break;
      case 'AnnotationPropertyDomain':
        if (a.property === p) domains.add(a.domain);
        break;
      case 'AnnotationPropertyRange':
        if (a.property === p) ranges.add(a.range);
        break;
      default:
        otherKinds(a, ANY_AXIOM);
        break;
    }
  }
  return { ...l.capped(['super_properties', 'sub_properties'], limit), domains: [...domains].sort(), ranges: [...ranges].sort() };
}

interface ValueRow {
  property: string;
  property_iri?: IRI;
  values: (Neighbour | string)[];
  values_truncated?: number;
}

/** Property-value rows grouped by property, sorted by property display then IRI; values sorted, ≤limit each. */
function valueRows<P>(
  groups: ReadonlyMap<P, (Neighbour | string)[]>,
  describe: (p: P) => { property: string; property_iri?: IRI },
  limit: number,
): Capped<ValueRow> {
  const rows: ValueRow[] = [];
  for (const [p, values] of groups) {
    const named = values.filter((x): x is Neighbour => typeof x !== 'string');
    const texts = [...new Set(values.filter((x): x is string => typeof x === 'string'))].sort();
    const all: (Neighbour | string)[] = [...sortNeighbours(named), ...texts];
    rows.push({ ...describe(p), values: all.slice(0, limit), ...(all.length > limit ? { values_truncated: all.length - limit } : {}) });
  }
  rows.sort((a, b) => cmp(a.property, b.property) || cmp(a.property_iri ?? '', b.property_iri ?? ''));
  return cappedOf(rows, limit);
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  let l = m.get(k);
  if (l === undefined) m.set(k, (l = []));
  l.push(v);
}

function individualLists(i: Entity, axioms: Iterable<Axiom>, view: View, limit: number): JsonObject {
  const l = new Lists();
  const objectValues = new Map<ObjectPropertyExpression, (Neighbour | string)[]>();
  const dataValues = new Map<Entity, (Neighbour | string)[]>();
  const others = (list: readonly Individual[], name: string) => {
    if (list.includes(i as Individual)) for (const x of list) if (x !== i) l.add(name, view.individualNeighbour(x));
  };
  for (const a of axioms) {
    switch (a.kind) {
      case 'ClassAssertion':
        if (a.individual === i) l.add('types', view.classNeighbour(a.cls));
        break;
      case 'ObjectPropertyAssertion':
        if (a.subject === i) push(objectValues, a.property, view.individualNeighbour(a.object));
        break;
      case 'DataPropertyAssertion':
        if (a.subject === i) push(dataValues, a.property, view.renderer.literal(a.value));
        break;
      case 'SameIndividual':
        others(a.individuals, 'same_as');
        break;
      case 'DifferentIndividuals':
        others(a.individuals, 'different_from');
        break;
      default:
        otherKinds(a, ANY_AXIOM);
        break;
    }
  }
  const describeObject = (p: ObjectPropertyExpression) =>
    p.kind === 'ObjectProperty' ? { property: view.display(p), property_iri: p.iri } : { property: view.renderer.objectProperty(p) };
  return {
    ...l.capped(['types'], limit),
    object_property_values: valueRows(objectValues, describeObject, limit),
    data_property_values: valueRows(dataValues, (p) => ({ property: view.display(p), property_iri: p.iri }), limit),
    ...l.capped(['same_as', 'different_from'], limit),
  };
}

function isDeprecated(annotations: Iterable<Axiom & { kind: 'AnnotationAssertion' }>): boolean {
  for (const a of annotations) {
    if (a.property.iri !== OWL_DEPRECATED || a.value.kind !== 'Literal') continue;
    const lex = a.value.lex.trim();
    if (lex === 'true' || (a.value.datatype === XSD_BOOLEAN && lex === '1')) return true;
  }
  return false;
}

function entityCard(e: Entity, scope: readonly Ontology[], view: View, limit: number): JsonObject {
  const annotations = annotationsOn(scope, e.iri);
  const axioms = referencingAxioms(scope, e);
  const usage = new Set<Axiom>([...axioms, ...annotations]);
  // bounded by `limit` like the neighbour lists: a well-annotated property (RO `part of`) has hundreds of rows
  const rows = view.annotationRows([...annotations].map((a) => [a.property, a.value, a.annotations] as const));
  const card: JsonObject = {
    ...view.row(e),
    deprecated: isDeprecated(annotations),
    annotations: rows.slice(0, limit),
    ...(rows.length > limit ? { annotation_count: rows.length, annotations_truncated: rows.length - limit } : {}),
    referencing_axioms: usage.size,
  };
  switch (e.kind) {
    case 'Class':
      return { ...card, ...classLists(e, axioms, view, limit) };
    case 'ObjectProperty':
      return { ...card, ...objectPropertyLists(e, axioms, view, limit) };
    case 'DataProperty':
      return { ...card, ...dataPropertyLists(e, axioms, view, limit) };
    case 'AnnotationProperty':
      return { ...card, ...annotationPropertyLists(e, axioms, view, limit) };
    case 'NamedIndividual':
      return { ...card, ...individualLists(e, axioms, view, limit) };
    case 'Datatype':
      return card;
    default:
      return unreachable(e);
  }
}

export const getEntityContext = defineTool({
  name: 'get_entity_context',
  description: 'Entity card per punned type: annotations, usage, asserted neighbours.',
  input: v.strictObject({
    entity: EntityRef,
    include_imports: v.optional(v.boolean(), true),
    limit: Limit(50),
  }),
  output: v.object({
    query: v.string(),
    count: v.number(),
    include_imports: v.boolean(),
    entities: AnyList,
    last_changes: v.optional(AnyList),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    const found = lookUpEntities(args.entity, ctx);
    if (found.length === 0) {
      throw new ToolFailure(`No entity found for '${args.entity}'. Use search_entities to find it by a name fragment.`, 'not_found');
    }
    const scope = scopeOf(ctx, args.include_imports);
    const view = new View(ctx);
    const entities = found.map((e) => entityCard(e, scope, view, args.limit));
    const iris = new Set(found.map((e) => e.iri)).size;
    return {
      query: args.entity,
      count: entities.length,
      include_imports: args.include_imports,
      entities,
      ...lastChangesField(
        found.map((e) => e.iri),
        ctx,
      ),
      ...(entities.length > 1
        ? {
            note:
              iris === 1
                ? 'The IRI is punned: one card per entity type.'
                : 'The name is shared by several IRIs: one card per candidate and type.',
          }
        : {}),
    };
  },
});
