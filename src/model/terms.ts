// The OWL 2 structural model: immutable, hash-consed nodes.
//
// Every node is built through the factory functions below, which intern it: structurally equal nodes are
// the same object, so `===`, Set and Map are exact and cheap. Each node carries a small integer `id`
// (unique per thread) used to build the intern keys of the nodes that contain it and to order set-like
// operand lists canonically.

import { randomBytes } from 'node:crypto';
import { OWL_THING, OWL_NOTHING, RDFS_LITERAL, XSD_STRING, RDF_LANG_STRING } from './vocab.js';

export type IRI = string;

// ---------------------------------------------------------------- the constructs
//
// Each construct is declared once, in this table: its kind, its group and its fields in order. The rest is
// derived from it: the node types, the kind unions and lists, the interning shapes, the factories (which take
// the fields as parameters in this order), rebuilding an axiom with other annotations, and the records of the
// binary transfer (transfer.ts). The table's order is part of the transfer's wire format.
//
// A field's type is one of:
//   a sort (Sorts below)  one node of that sort
//   `set S`               nodes of sort S, sorted by id with duplicates dropped
//   `bag S`               nodes of sort S, sorted by id, repetitions kept (DisjointClasses(A B A) makes A unsatisfiable)
//   `list S`              nodes of sort S in the order given
//   `S?`                  optional: the top of the sort when left out (owl:Thing, rdfs:Literal)
//   `annotations`         optional set of annotations (always the last field)
//   `iri`, `string`       a string
//   `token`               a short string many nodes share (a datatype, a language tag, a facet)
//   `number`              an integer

const ANNOTATIONS = ['annotations', 'annotations'] as const;

const CONSTRUCTS = {
  Class: { group: 'entity', fields: [['iri', 'iri']] },
  ObjectProperty: { group: 'entity', fields: [['iri', 'iri']] },
  DataProperty: { group: 'entity', fields: [['iri', 'iri']] },
  AnnotationProperty: { group: 'entity', fields: [['iri', 'iri']] },
  NamedIndividual: { group: 'entity', fields: [['iri', 'iri']] },
  Datatype: { group: 'entity', fields: [['iri', 'iri']] },
  /** A blank node that OWL treats as an individual; `nodeId` is unique within its ontology document. */
  AnonymousIndividual: { group: 'term', fields: [['nodeId', 'string']] },
  /** An IRI used as an annotation subject or value (not typed as an entity). */
  IRI: { group: 'term', fields: [['iri', 'iri']] },
  Variable: { group: 'term', fields: [['iri', 'iri']] },
  /** A literal: `lang` is '' unless the datatype is rdf:langString. */
  Literal: {
    group: 'term',
    fields: [
      ['lex', 'string'],
      ['datatype', 'token'],
      ['lang', 'token'],
    ],
  },

  ObjectInverseOf: { group: 'objectPropertyExpression', fields: [['property', 'ObjectProperty']] },

  DataIntersectionOf: { group: 'dataRange', fields: [['operands', 'set DataRange']] },
  DataUnionOf: { group: 'dataRange', fields: [['operands', 'set DataRange']] },
  DataComplementOf: { group: 'dataRange', fields: [['operand', 'DataRange']] },
  DataOneOf: { group: 'dataRange', fields: [['literals', 'set Literal']] },
  FacetRestriction: {
    group: 'facetRestriction',
    fields: [
      ['facet', 'token'],
      ['value', 'Literal'],
    ],
  },
  DatatypeRestriction: {
    group: 'dataRange',
    fields: [
      ['datatype', 'Datatype'],
      ['restrictions', 'set FacetRestriction'],
    ],
  },

  ObjectIntersectionOf: { group: 'classExpression', fields: [['operands', 'set ClassExpression']] },
  ObjectUnionOf: { group: 'classExpression', fields: [['operands', 'set ClassExpression']] },
  ObjectComplementOf: { group: 'classExpression', fields: [['operand', 'ClassExpression']] },
  ObjectOneOf: { group: 'classExpression', fields: [['individuals', 'set Individual']] },
  ObjectSomeValuesFrom: {
    group: 'classExpression',
    fields: [
      ['property', 'ObjectPropertyExpression'],
      ['filler', 'ClassExpression'],
    ],
  },
  ObjectAllValuesFrom: {
    group: 'classExpression',
    fields: [
      ['property', 'ObjectPropertyExpression'],
      ['filler', 'ClassExpression'],
    ],
  },
  ObjectHasValue: {
    group: 'classExpression',
    fields: [
      ['property', 'ObjectPropertyExpression'],
      ['individual', 'Individual'],
    ],
  },
  ObjectHasSelf: { group: 'classExpression', fields: [['property', 'ObjectPropertyExpression']] },
  /** Cardinality restrictions; an unqualified restriction has the filler owl:Thing. */
  ObjectMinCardinality: {
    group: 'classExpression',
    fields: [
      ['cardinality', 'number'],
      ['property', 'ObjectPropertyExpression'],
      ['filler', 'ClassExpression?'],
    ],
  },
  ObjectMaxCardinality: {
    group: 'classExpression',
    fields: [
      ['cardinality', 'number'],
      ['property', 'ObjectPropertyExpression'],
      ['filler', 'ClassExpression?'],
    ],
  },
  ObjectExactCardinality: {
    group: 'classExpression',
    fields: [
      ['cardinality', 'number'],
      ['property', 'ObjectPropertyExpression'],
      ['filler', 'ClassExpression?'],
    ],
  },
  DataSomeValuesFrom: {
    group: 'classExpression',
    fields: [
      ['property', 'DataProperty'],
      ['filler', 'DataRange'],
    ],
  },
  DataAllValuesFrom: {
    group: 'classExpression',
    fields: [
      ['property', 'DataProperty'],
      ['filler', 'DataRange'],
    ],
  },
  DataHasValue: {
    group: 'classExpression',
    fields: [
      ['property', 'DataProperty'],
      ['value', 'Literal'],
    ],
  },
  /** Data cardinality restrictions; an unqualified restriction has the filler rdfs:Literal. */
  DataMinCardinality: {
    group: 'classExpression',
    fields: [
      ['cardinality', 'number'],
      ['property', 'DataProperty'],
      ['filler', 'DataRange?'],
    ],
  },
  DataMaxCardinality: {
    group: 'classExpression',
    fields: [
      ['cardinality', 'number'],
      ['property', 'DataProperty'],
      ['filler', 'DataRange?'],
    ],
  },
  DataExactCardinality: {
    group: 'classExpression',
    fields: [
      ['cardinality', 'number'],
      ['property', 'DataProperty'],
      ['filler', 'DataRange?'],
    ],
  },

  Annotation: {
    group: 'annotation',
    fields: [['property', 'AnnotationProperty'], ['value', 'AnnotationValue'], ANNOTATIONS],
  },

  ClassAtom: {
    group: 'atom',
    fields: [
      ['cls', 'ClassExpression'],
      ['arg', 'IArg'],
    ],
  },
  DataRangeAtom: {
    group: 'atom',
    fields: [
      ['range', 'DataRange'],
      ['arg', 'DArg'],
    ],
  },
  ObjectPropertyAtom: {
    group: 'atom',
    fields: [
      ['property', 'ObjectPropertyExpression'],
      ['first', 'IArg'],
      ['second', 'IArg'],
    ],
  },
  DataPropertyAtom: {
    group: 'atom',
    fields: [
      ['property', 'DataProperty'],
      ['first', 'IArg'],
      ['second', 'DArg'],
    ],
  },
  BuiltInAtom: {
    group: 'atom',
    fields: [
      ['iri', 'iri'],
      ['args', 'list DArg'],
    ],
  },
  SameIndividualAtom: {
    group: 'atom',
    fields: [
      ['first', 'IArg'],
      ['second', 'IArg'],
    ],
  },
  DifferentIndividualsAtom: {
    group: 'atom',
    fields: [
      ['first', 'IArg'],
      ['second', 'IArg'],
    ],
  },

  Declaration: { group: 'declaration', fields: [['entity', 'Entity'], ANNOTATIONS] },

  SubClassOf: { group: 'classAxiom', fields: [['sub', 'ClassExpression'], ['sup', 'ClassExpression'], ANNOTATIONS] },
  EquivalentClasses: { group: 'classAxiom', fields: [['classes', 'set ClassExpression'], ANNOTATIONS] },
  DisjointClasses: { group: 'classAxiom', fields: [['classes', 'bag ClassExpression'], ANNOTATIONS] },
  DisjointUnion: { group: 'classAxiom', fields: [['cls', 'Class'], ['classes', 'bag ClassExpression'], ANNOTATIONS] },

  SubObjectPropertyOf: {
    group: 'objectPropertyAxiom',
    fields: [['sub', 'ObjectPropertyExpression'], ['sup', 'ObjectPropertyExpression'], ANNOTATIONS],
  },
  /** A property chain: the OWL 2 SubObjectPropertyOf(ObjectPropertyChain(...) P), its own kind as in the OWL API. */
  SubPropertyChainOf: {
    group: 'objectPropertyAxiom',
    fields: [['chain', 'list ObjectPropertyExpression'], ['sup', 'ObjectPropertyExpression'], ANNOTATIONS],
  },
  EquivalentObjectProperties: { group: 'objectPropertyAxiom', fields: [['properties', 'set ObjectPropertyExpression'], ANNOTATIONS] },
  DisjointObjectProperties: { group: 'objectPropertyAxiom', fields: [['properties', 'bag ObjectPropertyExpression'], ANNOTATIONS] },
  /** Symmetric: (P, Q) and (Q, P) are one axiom, its two properties kept in id order. */
  InverseObjectProperties: {
    group: 'objectPropertyAxiom',
    symmetric: true,
    fields: [['first', 'ObjectPropertyExpression'], ['second', 'ObjectPropertyExpression'], ANNOTATIONS],
  },
  ObjectPropertyDomain: {
    group: 'objectPropertyAxiom',
    fields: [['property', 'ObjectPropertyExpression'], ['domain', 'ClassExpression'], ANNOTATIONS],
  },
  ObjectPropertyRange: {
    group: 'objectPropertyAxiom',
    fields: [['property', 'ObjectPropertyExpression'], ['range', 'ClassExpression'], ANNOTATIONS],
  },
  FunctionalObjectProperty: { group: 'characteristic', fields: [['property', 'ObjectPropertyExpression'], ANNOTATIONS] },
  InverseFunctionalObjectProperty: { group: 'characteristic', fields: [['property', 'ObjectPropertyExpression'], ANNOTATIONS] },
  ReflexiveObjectProperty: { group: 'characteristic', fields: [['property', 'ObjectPropertyExpression'], ANNOTATIONS] },
  IrreflexiveObjectProperty: { group: 'characteristic', fields: [['property', 'ObjectPropertyExpression'], ANNOTATIONS] },
  SymmetricObjectProperty: { group: 'characteristic', fields: [['property', 'ObjectPropertyExpression'], ANNOTATIONS] },
  AsymmetricObjectProperty: { group: 'characteristic', fields: [['property', 'ObjectPropertyExpression'], ANNOTATIONS] },
  TransitiveObjectProperty: { group: 'characteristic', fields: [['property', 'ObjectPropertyExpression'], ANNOTATIONS] },

  SubDataPropertyOf: { group: 'dataPropertyAxiom', fields: [['sub', 'DataProperty'], ['sup', 'DataProperty'], ANNOTATIONS] },
  EquivalentDataProperties: { group: 'dataPropertyAxiom', fields: [['properties', 'set DataProperty'], ANNOTATIONS] },
  DisjointDataProperties: { group: 'dataPropertyAxiom', fields: [['properties', 'bag DataProperty'], ANNOTATIONS] },
  DataPropertyDomain: { group: 'dataPropertyAxiom', fields: [['property', 'DataProperty'], ['domain', 'ClassExpression'], ANNOTATIONS] },
  DataPropertyRange: { group: 'dataPropertyAxiom', fields: [['property', 'DataProperty'], ['range', 'DataRange'], ANNOTATIONS] },
  FunctionalDataProperty: { group: 'dataPropertyAxiom', fields: [['property', 'DataProperty'], ANNOTATIONS] },

  DatatypeDefinition: { group: 'datatypeDefinition', fields: [['datatype', 'Datatype'], ['range', 'DataRange'], ANNOTATIONS] },
  HasKey: {
    group: 'hasKey',
    fields: [
      ['cls', 'ClassExpression'],
      ['objectProperties', 'set ObjectPropertyExpression'],
      ['dataProperties', 'set DataProperty'],
      ANNOTATIONS,
    ],
  },

  SameIndividual: { group: 'assertion', fields: [['individuals', 'set Individual'], ANNOTATIONS] },
  DifferentIndividuals: { group: 'assertion', fields: [['individuals', 'bag Individual'], ANNOTATIONS] },
  ClassAssertion: { group: 'assertion', fields: [['cls', 'ClassExpression'], ['individual', 'Individual'], ANNOTATIONS] },
  ObjectPropertyAssertion: {
    group: 'assertion',
    fields: [['property', 'ObjectPropertyExpression'], ['subject', 'Individual'], ['object', 'Individual'], ANNOTATIONS],
  },
  NegativeObjectPropertyAssertion: {
    group: 'assertion',
    fields: [['property', 'ObjectPropertyExpression'], ['subject', 'Individual'], ['object', 'Individual'], ANNOTATIONS],
  },
  DataPropertyAssertion: {
    group: 'assertion',
    fields: [['property', 'DataProperty'], ['subject', 'Individual'], ['value', 'Literal'], ANNOTATIONS],
  },
  NegativeDataPropertyAssertion: {
    group: 'assertion',
    fields: [['property', 'DataProperty'], ['subject', 'Individual'], ['value', 'Literal'], ANNOTATIONS],
  },

  AnnotationAssertion: {
    group: 'annotationAxiom',
    fields: [['property', 'AnnotationProperty'], ['subject', 'AnnotationSubject'], ['value', 'AnnotationValue'], ANNOTATIONS],
  },
  SubAnnotationPropertyOf: {
    group: 'annotationAxiom',
    fields: [['sub', 'AnnotationProperty'], ['sup', 'AnnotationProperty'], ANNOTATIONS],
  },
  AnnotationPropertyDomain: { group: 'annotationAxiom', fields: [['property', 'AnnotationProperty'], ['domain', 'iri'], ANNOTATIONS] },
  AnnotationPropertyRange: { group: 'annotationAxiom', fields: [['property', 'AnnotationProperty'], ['range', 'iri'], ANNOTATIONS] },

  DLSafeRule: { group: 'rule', fields: [['body', 'set Atom'], ['head', 'set Atom'], ANNOTATIONS] },
} as const satisfies Record<string, ConstructSpec>;

/** The groups of axioms, in the order their kinds are listed. */
export const AXIOM_GROUPS = [
  'declaration',
  'classAxiom',
  'objectPropertyAxiom',
  'characteristic',
  'dataPropertyAxiom',
  'datatypeDefinition',
  'hasKey',
  'assertion',
  'annotationAxiom',
  'rule',
] as const;
export type AxiomGroup = (typeof AXIOM_GROUPS)[number];
/** The groups of the nodes inside axioms that hold other nodes. */
export const EXPRESSION_GROUPS = [
  'objectPropertyExpression',
  'dataRange',
  'facetRestriction',
  'classExpression',
  'annotation',
  'atom',
] as const;
/** `term`: the leaves that are not entities (anonymous individuals, IRIs, SWRL variables, literals). */
export type Group =
  | 'entity'
  | 'term'
  | 'objectPropertyExpression'
  | 'dataRange'
  | 'facetRestriction'
  | 'classExpression'
  | 'annotation'
  | 'atom'
  | AxiomGroup;

/** The sorts a field can hold: the node types and unions the OWL 2 structural specification names. */
interface Sorts {
  Class: Class;
  ObjectProperty: ObjectProperty;
  DataProperty: DataProperty;
  AnnotationProperty: AnnotationProperty;
  Datatype: Datatype;
  Literal: Literal;
  FacetRestriction: FacetRestriction;
  Annotation: Annotation;
  Entity: Entity;
  Individual: Individual;
  ObjectPropertyExpression: ObjectPropertyExpression;
  DataRange: DataRange;
  ClassExpression: ClassExpression;
  AnnotationSubject: AnnotationSubject;
  AnnotationValue: AnnotationValue;
  IArg: IArg;
  DArg: DArg;
  Atom: Atom;
}
type Sort = keyof Sorts;
/** The sorts an optional field may have, with the node it takes when left out. */
type TopSort = 'ClassExpression' | 'DataRange';
export type FieldType = Sort | `${'set' | 'bag' | 'list'} ${Sort}` | `${TopSort}?` | 'annotations' | 'iri' | 'string' | 'token' | 'number';
interface ConstructSpec {
  readonly group: Group;
  readonly fields: readonly (readonly [name: string, type: FieldType])[];
  readonly symmetric?: true;
}

type Table = typeof CONSTRUCTS;
export type Kind = keyof Table;
type FieldsOf<K extends Kind> = Table[K]['fields'];

/** The value a field of type T holds. */
type ValueOf<T> = T extends 'iri' | 'string' | 'token'
  ? string
  : T extends 'number'
    ? number
    : T extends 'annotations'
      ? readonly Annotation[]
      : T extends `${'set' | 'bag' | 'list'} ${infer S extends Sort}`
        ? readonly Sorts[S][]
        : T extends `${infer S extends TopSort}?`
          ? Sorts[S]
          : T extends Sort
            ? Sorts[T]
            : never;

interface NodeBase<K extends Kind> {
  readonly id: number;
  readonly kind: K;
}
/** The node of one kind: `id`, `kind` and the kind's fields. */
export type NodeOf<K extends Kind> = NodeBase<K> & { readonly [F in FieldsOf<K>[number] as F[0]]: ValueOf<F[1]> };
/** Any node of the given kinds (a union with one member per kind, so `kind` narrows it). */
type NodeOfEach<K extends Kind> = { [P in K]: NodeOf<P> }[K];

/** The kinds of a group. */
export type KindIn<G extends Group> = { [K in Kind]: Table[K]['group'] extends G ? K : never }[Kind];
/** The nodes of a group. */
export type NodeIn<G extends Group> = NodeOfEach<KindIn<G>>;

/** A factory's parameters: the fields in order, optional ones (and annotations) at the end. */
type Params<F> = F extends readonly [readonly [string, infer T], ...infer Rest]
  ? T extends 'annotations' | `${string}?`
    ? [(ValueOf<T> | undefined)?, ...Params<Rest>]
    : [ValueOf<T>, ...Params<Rest>]
  : [];
export type Factory<K extends Kind> = (...fields: Params<FieldsOf<K>>) => NodeOf<K>;

// ---------------------------------------------------------------- node types

export type Class = NodeOf<'Class'>;
export type ObjectProperty = NodeOf<'ObjectProperty'>;
export type DataProperty = NodeOf<'DataProperty'>;
export type AnnotationProperty = NodeOf<'AnnotationProperty'>;
export type NamedIndividual = NodeOf<'NamedIndividual'>;
export type Datatype = NodeOf<'Datatype'>;
export type Entity = NodeIn<'entity'>;
export type EntityKind = KindIn<'entity'>;

export type AnonymousIndividual = NodeOf<'AnonymousIndividual'>;
export type Individual = NamedIndividual | AnonymousIndividual;
export type Literal = NodeOf<'Literal'>;
export type IRINode = NodeOf<'IRI'>;

export type ObjectInverseOf = NodeOf<'ObjectInverseOf'>;
export type ObjectPropertyExpression = ObjectProperty | NodeIn<'objectPropertyExpression'>;

export type DataIntersectionOf = NodeOf<'DataIntersectionOf'>;
export type DataUnionOf = NodeOf<'DataUnionOf'>;
export type DataComplementOf = NodeOf<'DataComplementOf'>;
export type DataOneOf = NodeOf<'DataOneOf'>;
export type FacetRestriction = NodeOf<'FacetRestriction'>;
export type DatatypeRestriction = NodeOf<'DatatypeRestriction'>;
export type DataRange = Datatype | NodeIn<'dataRange'>;

export type ObjectIntersectionOf = NodeOf<'ObjectIntersectionOf'>;
export type ObjectUnionOf = NodeOf<'ObjectUnionOf'>;
export type ObjectComplementOf = NodeOf<'ObjectComplementOf'>;
export type ObjectOneOf = NodeOf<'ObjectOneOf'>;
export type ObjectSomeValuesFrom = NodeOf<'ObjectSomeValuesFrom'>;
export type ObjectAllValuesFrom = NodeOf<'ObjectAllValuesFrom'>;
export type ObjectHasValue = NodeOf<'ObjectHasValue'>;
export type ObjectHasSelf = NodeOf<'ObjectHasSelf'>;
export type ObjectMinCardinality = NodeOf<'ObjectMinCardinality'>;
export type ObjectMaxCardinality = NodeOf<'ObjectMaxCardinality'>;
export type ObjectExactCardinality = NodeOf<'ObjectExactCardinality'>;
export type DataSomeValuesFrom = NodeOf<'DataSomeValuesFrom'>;
export type DataAllValuesFrom = NodeOf<'DataAllValuesFrom'>;
export type DataHasValue = NodeOf<'DataHasValue'>;
export type DataMinCardinality = NodeOf<'DataMinCardinality'>;
export type DataMaxCardinality = NodeOf<'DataMaxCardinality'>;
export type DataExactCardinality = NodeOf<'DataExactCardinality'>;
export type ClassExpression = Class | NodeIn<'classExpression'>;

export type AnnotationSubject = IRINode | AnonymousIndividual;
export type AnnotationValue = IRINode | AnonymousIndividual | Literal;
export type Annotation = NodeOf<'Annotation'>;

export type Variable = NodeOf<'Variable'>;
export type IArg = Individual | Variable;
export type DArg = Literal | Variable;
export type ClassAtom = NodeOf<'ClassAtom'>;
export type DataRangeAtom = NodeOf<'DataRangeAtom'>;
export type ObjectPropertyAtom = NodeOf<'ObjectPropertyAtom'>;
export type DataPropertyAtom = NodeOf<'DataPropertyAtom'>;
export type BuiltInAtom = NodeOf<'BuiltInAtom'>;
export type SameIndividualAtom = NodeOf<'SameIndividualAtom'>;
export type DifferentIndividualsAtom = NodeOf<'DifferentIndividualsAtom'>;
export type Atom = NodeIn<'atom'>;

export type Declaration = NodeOf<'Declaration'>;
export type SubClassOf = NodeOf<'SubClassOf'>;
export type EquivalentClasses = NodeOf<'EquivalentClasses'>;
export type DisjointClasses = NodeOf<'DisjointClasses'>;
export type DisjointUnion = NodeOf<'DisjointUnion'>;
export type SubObjectPropertyOf = NodeOf<'SubObjectPropertyOf'>;
export type SubPropertyChainOf = NodeOf<'SubPropertyChainOf'>;
export type EquivalentObjectProperties = NodeOf<'EquivalentObjectProperties'>;
export type DisjointObjectProperties = NodeOf<'DisjointObjectProperties'>;
export type InverseObjectProperties = NodeOf<'InverseObjectProperties'>;
export type ObjectPropertyDomain = NodeOf<'ObjectPropertyDomain'>;
export type ObjectPropertyRange = NodeOf<'ObjectPropertyRange'>;
export type CharacteristicKind = KindIn<'characteristic'>;
export type ObjectPropertyCharacteristic<K extends CharacteristicKind = CharacteristicKind> = NodeOfEach<K>;
export type FunctionalObjectProperty = NodeOf<'FunctionalObjectProperty'>;
export type InverseFunctionalObjectProperty = NodeOf<'InverseFunctionalObjectProperty'>;
export type ReflexiveObjectProperty = NodeOf<'ReflexiveObjectProperty'>;
export type IrreflexiveObjectProperty = NodeOf<'IrreflexiveObjectProperty'>;
export type SymmetricObjectProperty = NodeOf<'SymmetricObjectProperty'>;
export type AsymmetricObjectProperty = NodeOf<'AsymmetricObjectProperty'>;
export type TransitiveObjectProperty = NodeOf<'TransitiveObjectProperty'>;
export type SubDataPropertyOf = NodeOf<'SubDataPropertyOf'>;
export type EquivalentDataProperties = NodeOf<'EquivalentDataProperties'>;
export type DisjointDataProperties = NodeOf<'DisjointDataProperties'>;
export type DataPropertyDomain = NodeOf<'DataPropertyDomain'>;
export type DataPropertyRange = NodeOf<'DataPropertyRange'>;
export type FunctionalDataProperty = NodeOf<'FunctionalDataProperty'>;
export type DatatypeDefinition = NodeOf<'DatatypeDefinition'>;
export type HasKey = NodeOf<'HasKey'>;
export type SameIndividual = NodeOf<'SameIndividual'>;
export type DifferentIndividuals = NodeOf<'DifferentIndividuals'>;
export type ClassAssertion = NodeOf<'ClassAssertion'>;
export type ObjectPropertyAssertion = NodeOf<'ObjectPropertyAssertion'>;
export type NegativeObjectPropertyAssertion = NodeOf<'NegativeObjectPropertyAssertion'>;
export type DataPropertyAssertion = NodeOf<'DataPropertyAssertion'>;
export type NegativeDataPropertyAssertion = NodeOf<'NegativeDataPropertyAssertion'>;
export type AnnotationAssertion = NodeOf<'AnnotationAssertion'>;
export type SubAnnotationPropertyOf = NodeOf<'SubAnnotationPropertyOf'>;
export type AnnotationPropertyDomain = NodeOf<'AnnotationPropertyDomain'>;
export type AnnotationPropertyRange = NodeOf<'AnnotationPropertyRange'>;
export type DLSafeRule = NodeOf<'DLSafeRule'>;
export type Axiom = NodeIn<AxiomGroup>;
export type AxiomKind = Axiom['kind'];

export type Node = NodeOfEach<Kind>;

// ---------------------------------------------------------------- kinds and groups

/** Every kind, in table order. */
export const KINDS = Object.keys(CONSTRUCTS) as Kind[];

/** The group of a kind. */
export const groupOf = (kind: Kind): Group => CONSTRUCTS[kind].group;

/** The kinds of the given groups, in table order. */
export function kindsIn<G extends Group>(...groups: readonly G[]): readonly KindIn<G>[] {
  return Object.freeze(KINDS.filter((k) => (groups as readonly Group[]).includes(groupOf(k))) as KindIn<G>[]);
}

/** Whether a node belongs to one of the given groups (narrowing it, so a switch after it lists only those kinds). */
export function isIn<G extends Group>(n: Node, ...groups: readonly G[]): n is Extract<Node, { kind: KindIn<G> }> {
  return (groups as readonly Group[]).includes(groupOf(n.kind));
}

export const ENTITY_KINDS: readonly EntityKind[] = kindsIn('entity');
export const AXIOM_KINDS: readonly AxiomKind[] = kindsIn(...AXIOM_GROUPS);

export const isEntity = (n: Node): n is Entity => groupOf(n.kind) === 'entity';
export const isAxiom = (n: Node): n is Axiom => (AXIOM_GROUPS as readonly Group[]).includes(groupOf(n.kind));

/** Axioms that carry no logical meaning (OWL 2: declarations and annotation axioms). */
export function isLogicalAxiom(a: Axiom): boolean {
  const g = groupOf(a.kind);
  return g !== 'declaration' && g !== 'annotationAxiom';
}

/**
 * The OWL 2 functional-syntax name of an axiom's type: a property chain is a SubObjectPropertyOf whose
 * sub-property is an ObjectPropertyChain (the model keeps it as its own kind, as the OWL API does).
 */
export function axiomTypeName(a: Axiom): string {
  return a.kind === 'SubPropertyChainOf' ? 'SubObjectPropertyOf' : a.kind;
}

/** The kind's fields: name and type, in order. */
export const fieldsOf = (kind: Kind): ConstructSpec['fields'] => CONSTRUCTS[kind].fields;

// ---------------------------------------------------------------- interning
//
// Every node is interned in one open-addressing table (linear probing). A slot is a pair of int32s, the
// node's hash and its position in `nodes` plus one (0: free), so a probe reads one cache line and touches
// a node only when the hash matches. Compound nodes hash their fields (child ids, numbers, strings),
// leaves their key string: no key strings are built, a lookup is one probe sequence that also finds the
// free slot for an insert, and a hit leaves a compound candidate to the young-generation collector. One
// table costs far less memory per node than a Map per kind of leaf.
//
// The table holds nodes in two generations. Nodes interned since the last release are held strongly (the
// fast path: a bulk load only ever meets these). A release (an ontology was unloaded) hands them all to the
// weak generation, reached through WeakRefs: a node that nothing else references is collected, and one
// still referenced (by a loaded ontology, an undo entry, a snapshot) is found again, so structurally equal
// nodes stay the same object for as long as one of them is alive. Dead weak entries are dropped when the
// unloaded ontology has been collected, and whenever the table is rebuilt.

let nextId = 1;
/** The strong generation: every node interned since the last release, in the order interned. */
const nodes: Node[] = [];
/** The weak generation: nodes interned before the last release; a collected one derefs to undefined. */
let weakNodes: WeakRef<Node>[] = [];
/**
 * The slots, kept at most three quarters full: `table[2i]` the hash, `table[2i + 1]` the node's position +
 * 1 in `nodes`, or minus its position + 1 in `weakNodes` (0: free). A probe run of a few slots reads one or
 * two cache lines, so the smaller table (which stays in cache longer) outweighs the longer runs.
 */
const INITIAL_SLOTS = 2 << 12;
let table = new Int32Array(INITIAL_SLOTS);
/** While true (keepInterned), a release does nothing: every node lives as long as the thread. */
let keepAll = false;

/** The node of a slot's position, or undefined when a weak one was collected. */
function nodeAt(at: number): Node | undefined {
  // A slot's position names an entry of its generation (see table).
  return at > 0 ? nodes[at - 1] : weakNodes[-at - 1]!.deref();
}

/**
 * Places every live node again by its stored hash in a table of `size` int32s; with `demote`, strong nodes
 * join the weak generation. Dead weak entries are left out, so the weak list is renumbered.
 */
function rebuild(size: number, demote: boolean): void {
  const old = table,
    oldWeak = weakNodes,
    mask = (size >> 1) - 1;
  table = new Int32Array(size);
  weakNodes = [];
  // i < old.length over (hash, position) pairs, and a position names an entry of its generation.
  for (let i = 1; i < old.length; i += 2) {
    let at = old[i]!;
    if (at === 0) continue;
    if (at < 0) {
      const ref = oldWeak[-at - 1]!;
      if (ref.deref() === undefined) continue;
      at = -weakNodes.push(ref);
    } else if (demote) {
      at = -weakNodes.push(new WeakRef(nodes[at - 1]!));
    }
    const h = old[i - 1]!;
    let j = h & mask;
    while (table[2 * j + 1] !== 0) j = (j + 1) & mask;
    table[2 * j] = h;
    table[2 * j + 1] = at;
  }
  if (demote) nodes.length = 0;
}

/** Entries the table holds, dead weak ones included: what its load factor counts. */
const entries = () => nodes.length + weakNodes.length;

/** The smallest table (at least the initial one) in which `n` entries fill at most three eighths. */
function slotsFor(n: number): number {
  let size = INITIAL_SLOTS;
  while (n * 16 > size * 3) size *= 2;
  return size;
}

/** Doubles the table, placing every node again by its stored hash (dropping collected weak ones). */
function growTable(): void {
  rebuild(table.length * 2, false);
}

/** Entries the table still needs: strong nodes and weak ones not collected. */
function liveEntries(): number {
  let n = nodes.length;
  for (const ref of weakNodes) if (ref.deref() !== undefined) n++;
  return n;
}

/** Drops the collected nodes of the weak generation, shrinking the table to what is left. */
function sweepWeak(): void {
  rebuild(slotsFor(liveEntries()), false);
}

/** An unloaded ontology was collected: its nodes were too, unless something else still holds them. */
const unloadedCollected = new FinalizationRegistry<null>(() => sweepWeak());

/**
 * Lets go of every node interned so far: from now on each lives only as long as something else references
 * it (`unloaded`, an ontology just unloaded, tells when to sweep the dead ones: once it is collected).
 * Identity holds throughout: interning a structure whose node is still alive returns that node.
 */
export function releaseInterned(unloaded?: object): void {
  if (keepAll) return;
  rebuild(slotsFor(liveEntries()), true);
  if (unloaded !== undefined) unloadedCollected.register(unloaded, null);
}

/** Holds every node strongly for as long as the thread lives (releases do nothing), to measure what release gives back. */
export function keepInterned(keep: boolean): void {
  keepAll = keep;
}

/** The first slot of hash h's probe sequence, and the slot after slot i. */
const firstSlot = (h: number) => h & ((table.length >> 1) - 1);
const nextSlot = (i: number) => (i + 1) & ((table.length >> 1) - 1);

type FieldValue = Node | number | string | readonly Node[];
type FieldRecord = Record<string, FieldValue>;
type Maker = (a: FieldValue, b?: FieldValue, c?: FieldValue, d?: FieldValue) => Node;

/**
 * A kind's interning shape: its code (mixed into every hash), its field names and the maker of its nodes.
 * The factories pass fields as arguments, so hashing a candidate reads no property and a lookup that finds
 * the node allocates nothing; only a hash match reads a stored node's fields.
 */
interface Shape {
  readonly code: number;
  readonly kind: Kind;
  readonly fields: readonly string[];
  readonly make: Maker;
}

/** The most fields a construct has (HasKey and the property assertions, annotations included). */
const MAX_FIELDS = 4;

/**
 * New nodes of one kind. Each kind has its own constructor, so its nodes share one hidden class with their
 * fields in-object, in table order after `id` and `kind`; the prototype stays Object.prototype, so nodes
 * remain plain objects (as deepStrictEqual and structured clone see them).
 */
function maker(kind: Kind, fields: readonly string[]): Maker {
  if (fields.length > MAX_FIELDS) throw new Error(`${kind} has more than ${MAX_FIELDS} fields`);
  const [f0 = '', f1 = '', f2 = '', f3 = ''] = fields;
  const arity = fields.length;
  // Each field name is read only where arity says the kind has it.
  function KindNode(this: Record<string, unknown>, a: FieldValue, b?: FieldValue, c?: FieldValue, d?: FieldValue) {
    this.id = 0;
    this.kind = kind;
    this[f0] = a;
    if (arity > 1) {
      this[f1] = b;
      if (arity > 2) {
        this[f2] = c;
        if (arity > 3) this[f3] = d;
      }
    }
  }
  KindNode.prototype = Object.prototype;
  const Construct = KindNode as unknown as new (a: FieldValue, b?: FieldValue, c?: FieldValue, d?: FieldValue) => Node;
  return (a, b, c, d) => new Construct(a, b, c, d);
}

const SHAPES = Object.fromEntries(
  KINDS.map((kind, i) => {
    const fields = fieldsOf(kind).map(([name]) => name);
    return [kind, { code: i + 1, kind, fields, make: maker(kind, fields) }];
  }),
) as unknown as Record<Kind, Shape>;

const mix = (h: number, v: number) => {
  const x = Math.imul(h ^ v, 0x5bd1e995);
  return x ^ (x >>> 15);
};

function hashString(s: string): number {
  let h = s.length;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** Final avalanche: linear probing uses the low bits. */
function finish(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return h ^ (h >>> 16);
}

/** Stores a new node in free slot i (found by the probe that missed it), growing the table when half full. */
function place<T extends Node>(i: number, h: number, node: T): T {
  (node as { id: number }).id = nextId++;
  Object.freeze(node);
  table[2 * i] = h;
  table[2 * i + 1] = nodes.push(node);
  if (entries() * 8 > table.length * 3) growTable();
  return node;
}

function hashValue(h: number, v: FieldValue): number {
  if (typeof v === 'number') return mix(h, v);
  if (typeof v === 'string') return mix(h, hashString(v));
  if (Array.isArray(v)) {
    h = mix(h, v.length);
    for (const n of v as readonly Node[]) h = mix(h, n.id);
    return h;
  }
  return mix(h, (v as Node).id);
}

function sameValue(a: FieldValue | undefined, b: FieldValue): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A shape's hash and equality, compiled for its fields. One generic loop over field names would read
 * every field of every kind through one megamorphic access site; a function per shape reads each field at
 * a site that only ever sees that shape, which makes interning several times faster.

/** Whether node n is of the shape's kind with exactly these fields. */
function sameFields(s: Shape, n: Node, a: FieldValue, b?: FieldValue, c?: FieldValue, d?: FieldValue): boolean {
  if (n.kind !== s.kind) return false;
  const r = n as unknown as FieldRecord;
  const f = s.fields;
  // f.length (1 to 4) is checked before each further field.
  if (!sameValue(r[f[0]!], a)) return false;
  if (f.length < 2) return true;
  if (!sameValue(r[f[1]!], b!)) return false;
  if (f.length < 3) return true;
  if (!sameValue(r[f[2]!], c!)) return false;
  return f.length < 4 || sameValue(r[f[3]!], d!);
}

/** The canonical node of the shape's kind with these fields (made, given an id and frozen if it is new). */
function intern(s: Shape, a: FieldValue, b?: FieldValue, c?: FieldValue, d?: FieldValue): Node {
  const arity = s.fields.length;
  let h = hashValue(s.code, a);
  if (arity > 1) {
    h = hashValue(h, b!);
    if (arity > 2) {
      h = hashValue(h, c!);
      if (arity > 3) h = hashValue(h, d!);
    }
  }
  h = finish(h);
  let i = firstSlot(h);
  // Slot indexes are masked to the table: 2i + 1 < table.length.
  for (let at = table[2 * i + 1]!; at !== 0; at = table[2 * i + 1]!) {
    if (table[2 * i] === h) {
      const n = nodeAt(at);
      if (n !== undefined && sameFields(s, n, a, b, c, d)) return n;
    }
    i = nextSlot(i);
  }
  return place(i, h, s.make(a, b, c, d));
}

/** Codes of the literal tables, after the kinds' codes. */
let nextLiteralCode = 1000;

/**
 * Interns leaves keyed by one string; `same` tells whether a node of the table has that key. With `own`,
 * a new leaf keeps its own copy of the string (see ownString); entities and IRIs share their strings
 * between roles, so for them the readers own the strings.
 */
function stringKeyed<T extends Node>(
  code: number,
  make: (key: string) => T,
  same: (n: Node, key: string) => boolean,
  own = false,
): (key: string) => T {
  return (key) => {
    const h = finish(mix(code, hashString(key)));
    let i = firstSlot(h);
    // Slot indexes are masked to the table: 2i + 1 < table.length.
    for (let at = table[2 * i + 1]!; at !== 0; at = table[2 * i + 1]!) {
      if (table[2 * i] === h) {
        const n = nodeAt(at);
        if (n !== undefined && same(n, key)) return n as T;
      }
      i = nextSlot(i);
    }
    return place(i, h, make(own ? ownString(key) : key));
  };
}

/**
 * A flat copy of a string. V8 keeps a substring of 13 or more characters as a view into its parent, and a
 * concatenation as a pair of parts: a literal or IRI sliced from a parsed document would keep the whole
 * document text alive for as long as the model holds it. Joining two parts builds one new flat string.
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : [s.slice(0, 1), s.slice(1)].join('');
}

/** Number of distinct nodes interned in this thread and still alive (for diagnostics and benchmarks). */
export function internedCount(): number {
  return liveEntries();
}

const byId = (a: Node, b: Node) => a.id - b.id;

/** Canonical order for set-like operands: sorted by id, duplicates removed. */
function asSet<T extends Node>(items: readonly T[]): readonly T[] {
  if (items.length <= 1) return Object.freeze(items.slice());
  const sorted = items.slice().sort(byId);
  const out: T[] = [];
  let previous: T | undefined;
  for (const item of sorted) {
    if (item !== previous) out.push(item);
    previous = item;
  }
  return Object.freeze(out);
}

/** Canonical order for lists whose repetitions matter (DisjointClasses(A B A) makes A unsatisfiable). */
function asBag<T extends Node>(items: readonly T[]): readonly T[] {
  return Object.freeze(items.slice().sort(byId));
}

function asList<T extends Node>(items: readonly T[]): readonly T[] {
  return Object.freeze(items.slice());
}

const NO_ANNOTATIONS: readonly Annotation[] = Object.freeze([]);
const annotationSet = (anns: readonly Annotation[] | undefined) => (anns === undefined || anns.length === 0 ? NO_ANNOTATIONS : asSet(anns));

// ---------------------------------------------------------------- factories

const threadScope = randomBytes(4).toString('hex');
let documentScopes = 0;

/**
 * A label prefix unique to one parsed document in this process, whatever thread parses it: blank-node
 * labels are local to their document, so readers prefix them with this before making anonymous individuals.
 */
export function documentScope(): string {
  return threadScope + '.' + ++documentScopes;
}

/** Literal tables by datatype, and by language tag as written (tags differing in case share one table). */
const typedLiterals = new Map<string, (lex: string) => Literal>();
const taggedLiterals = new Map<string, (lex: string) => Literal>();

function literalTable(dt: IRI, lang: string): (lex: string) => Literal {
  return stringKeyed(
    nextLiteralCode++,
    (text) => SHAPES.Literal.make(text, dt, lang) as Literal,
    (n, text) => n.kind === 'Literal' && n.lex === text && n.datatype === dt && n.lang === lang,
    true,
  );
}

/**
 * A literal. A language tag makes it rdf:langString (tags are compared lower-cased, as RDF 1.1 says);
 * without datatype or language it is an xsd:string.
 */
export function literal(lex: string, datatypeIri?: IRI, lang?: string): Literal {
  let table: ((lex: string) => Literal) | undefined;
  if (lang) {
    table = taggedLiterals.get(lang);
    if (table === undefined) {
      // The tables live as long as the thread: they keep their own copies of the strings.
      const lower = ownString(lang.toLowerCase());
      table = taggedLiterals.get(lower) ?? literalTable(RDF_LANG_STRING, lower);
      taggedLiterals.set(lower, table);
      taggedLiterals.set(ownString(lang), table);
    }
  } else {
    table = typedLiterals.get(datatypeIri || XSD_STRING);
    if (table === undefined) {
      const dt = ownString(datatypeIri || XSD_STRING);
      typedLiterals.set(dt, (table = literalTable(dt, '')));
    }
  }
  return table(lex);
}

type Normalize = (v: FieldValue | undefined) => FieldValue;

/** The node an optional field of each sort takes when left out. */
const TOPS: Record<TopSort, () => Node> = {
  ClassExpression: () => FACTORIES.Class(OWL_THING),
  DataRange: () => FACTORIES.Datatype(RDFS_LITERAL),
};
const LIST_FORMS: Record<string, Normalize> = {
  set: (v) => asSet(v as readonly Node[]),
  bag: (v) => asBag(v as readonly Node[]),
  list: (v) => asList(v as readonly Node[]),
};

/** What a factory does to a field's argument before interning (undefined: nothing). */
function normalizer(type: FieldType): Normalize | undefined {
  if (type === 'annotations') return (v) => annotationSet(v as readonly Annotation[] | undefined);
  if (type.endsWith('?')) {
    const top = TOPS[type.slice(0, -1) as TopSort];
    return (v) => v ?? top();
  }
  const space = type.indexOf(' ');
  return space < 0 ? undefined : LIST_FORMS[type.slice(0, space)];
}

/**
 * The factory of a kind, derived from its declaration: a leaf keyed by one string gets a table of its own
 * hash code; any other kind normalizes its arguments (list forms, defaults, annotation sets, the order of a
 * symmetric pair) and interns them.
 */
function factory(kind: Kind): (...fields: FieldValue[]) => Node {
  const spec: ConstructSpec = CONSTRUCTS[kind];
  const s = SHAPES[kind];
  const [first] = spec.fields;
  if (first !== undefined && spec.fields.length === 1 && (first[1] === 'iri' || first[1] === 'string')) {
    const field = first[0];
    // Every string-keyed leaf but the anonymous individual is keyed by `iri`: reading that name at a site
    // that sees no other keeps entity lookups (the hottest of a load) fast; a read of a varying name is not.
    const same =
      field === 'iri'
        ? (n: Node, key: string) => n.kind === kind && (n as { readonly iri?: string }).iri === key
        : (n: Node, key: string) => n.kind === kind && (n as unknown as FieldRecord)[field] === key;
    return stringKeyed(s.code, (key) => s.make(key), same) as (...fields: FieldValue[]) => Node;
  }
  const [n0, n1, n2, n3] = spec.fields.map(([, type]) => normalizer(type));
  const symmetric = spec.symmetric === true;
  return (a?: FieldValue, b?: FieldValue, c?: FieldValue, d?: FieldValue) => {
    if (n0 !== undefined) a = n0(a);
    if (n1 !== undefined) b = n1(b);
    if (n2 !== undefined) c = n2(c);
    if (n3 !== undefined) d = n3(d);
    if (symmetric && (b as Node).id < (a as Node).id) [a, b] = [b, a];
    return intern(s, a!, b, c, d);
  };
}

/** Every kind's factory (a literal's is `literal`, which keeps a table per datatype and language tag). */
const FACTORIES = Object.fromEntries(KINDS.map((kind) => [kind, kind === 'Literal' ? literal : factory(kind)])) as unknown as {
  readonly [K in Kind]: Factory<K>;
};

/** A node of the given kind from its fields in table order (as the kind's factory takes them). */
export function build(kind: Kind, fields: readonly FieldValue[]): Node {
  return (FACTORIES[kind] as unknown as (...f: readonly FieldValue[]) => Node)(...fields);
}

/** A node's fields in table order. */
export function fieldValues(n: Node): FieldValue[] {
  const r = n as unknown as FieldRecord;
  return SHAPES[n.kind].fields.map((f) => r[f]!); // a node has every field of its shape
}

export const cls = FACTORIES.Class;
export const objectProperty = FACTORIES.ObjectProperty;
export const dataProperty = FACTORIES.DataProperty;
export const annotationProperty = FACTORIES.AnnotationProperty;
export const namedIndividual = FACTORIES.NamedIndividual;
export const datatype = FACTORIES.Datatype;
export const entity = (kind: EntityKind, iri: IRI): Entity => FACTORIES[kind](iri);
export const thing = () => cls(OWL_THING);
export const nothing = () => cls(OWL_NOTHING);
export const rdfsLiteral = () => datatype(RDFS_LITERAL);

export const anonymousIndividual = FACTORIES.AnonymousIndividual;
export const iriNode = FACTORIES.IRI;
export const variable = FACTORIES.Variable;

export const objectInverseOf = FACTORIES.ObjectInverseOf;
export const dataIntersectionOf = FACTORIES.DataIntersectionOf;
export const dataUnionOf = FACTORIES.DataUnionOf;
export const dataComplementOf = FACTORIES.DataComplementOf;
export const dataOneOf = FACTORIES.DataOneOf;
export const facetRestriction = FACTORIES.FacetRestriction;
export const datatypeRestriction = FACTORIES.DatatypeRestriction;

export const objectIntersectionOf = FACTORIES.ObjectIntersectionOf;
export const objectUnionOf = FACTORIES.ObjectUnionOf;
export const objectComplementOf = FACTORIES.ObjectComplementOf;
export const objectOneOf = FACTORIES.ObjectOneOf;
export const objectSomeValuesFrom = FACTORIES.ObjectSomeValuesFrom;
export const objectAllValuesFrom = FACTORIES.ObjectAllValuesFrom;
export const objectHasValue = FACTORIES.ObjectHasValue;
export const objectHasSelf = FACTORIES.ObjectHasSelf;
export const objectMinCardinality = FACTORIES.ObjectMinCardinality;
export const objectMaxCardinality = FACTORIES.ObjectMaxCardinality;
export const objectExactCardinality = FACTORIES.ObjectExactCardinality;
export const dataSomeValuesFrom = FACTORIES.DataSomeValuesFrom;
export const dataAllValuesFrom = FACTORIES.DataAllValuesFrom;
export const dataHasValue = FACTORIES.DataHasValue;
export const dataMinCardinality = FACTORIES.DataMinCardinality;
export const dataMaxCardinality = FACTORIES.DataMaxCardinality;
export const dataExactCardinality = FACTORIES.DataExactCardinality;

export const annotation = FACTORIES.Annotation;

export const classAtom = FACTORIES.ClassAtom;
export const dataRangeAtom = FACTORIES.DataRangeAtom;
export const objectPropertyAtom = FACTORIES.ObjectPropertyAtom;
export const dataPropertyAtom = FACTORIES.DataPropertyAtom;
export const builtInAtom = FACTORIES.BuiltInAtom;
export const sameIndividualAtom = FACTORIES.SameIndividualAtom;
export const differentIndividualsAtom = FACTORIES.DifferentIndividualsAtom;

export const declaration = FACTORIES.Declaration;
export const subClassOf = FACTORIES.SubClassOf;
export const equivalentClasses = FACTORIES.EquivalentClasses;
export const disjointClasses = FACTORIES.DisjointClasses;
export const disjointUnion = FACTORIES.DisjointUnion;
export const subObjectPropertyOf = FACTORIES.SubObjectPropertyOf;
export const subPropertyChainOf = FACTORIES.SubPropertyChainOf;
export const equivalentObjectProperties = FACTORIES.EquivalentObjectProperties;
export const disjointObjectProperties = FACTORIES.DisjointObjectProperties;
export const inverseObjectProperties = FACTORIES.InverseObjectProperties;
export const objectPropertyDomain = FACTORIES.ObjectPropertyDomain;
export const objectPropertyRange = FACTORIES.ObjectPropertyRange;
export const objectPropertyCharacteristic = <K extends CharacteristicKind>(
  kind: K,
  property: ObjectPropertyExpression,
  anns?: readonly Annotation[],
): NodeOf<K> => FACTORIES[kind as CharacteristicKind](property, anns) as unknown as NodeOf<K>;
export const subDataPropertyOf = FACTORIES.SubDataPropertyOf;
export const equivalentDataProperties = FACTORIES.EquivalentDataProperties;
export const disjointDataProperties = FACTORIES.DisjointDataProperties;
export const dataPropertyDomain = FACTORIES.DataPropertyDomain;
export const dataPropertyRange = FACTORIES.DataPropertyRange;
export const functionalDataProperty = FACTORIES.FunctionalDataProperty;
export const datatypeDefinition = FACTORIES.DatatypeDefinition;
export const hasKey = FACTORIES.HasKey;
export const sameIndividual = FACTORIES.SameIndividual;
export const differentIndividuals = FACTORIES.DifferentIndividuals;
export const classAssertion = FACTORIES.ClassAssertion;
export const objectPropertyAssertion = FACTORIES.ObjectPropertyAssertion;
export const negativeObjectPropertyAssertion = FACTORIES.NegativeObjectPropertyAssertion;
export const dataPropertyAssertion = FACTORIES.DataPropertyAssertion;
export const negativeDataPropertyAssertion = FACTORIES.NegativeDataPropertyAssertion;
export const annotationAssertion = FACTORIES.AnnotationAssertion;
export const subAnnotationPropertyOf = FACTORIES.SubAnnotationPropertyOf;
export const annotationPropertyDomain = FACTORIES.AnnotationPropertyDomain;
export const annotationPropertyRange = FACTORIES.AnnotationPropertyRange;
export const dlSafeRule = FACTORIES.DLSafeRule;

// ---------------------------------------------------------------- structural helpers

/** The same axiom with other annotations (its fields, the annotations last, through its factory). */
export function withAnnotations<A extends Axiom>(a: A, anns: readonly Annotation[]): A {
  const fields = fieldValues(a);
  fields[fields.length - 1] = anns;
  return build(a.kind, fields) as A;
}
/** The same axiom without its annotations (the logical core used to match annotated and plain forms). */
export function axiomWithoutAnnotations<A extends Axiom>(a: A): A {
  return a.annotations.length === 0 ? a : withAnnotations(a, NO_ANNOTATIONS);
}

/**
 * The node with every node it holds directly (in node and list fields, annotations included) replaced by
 * `f`'s result, rebuilt through its factory; a node without node fields is returned as it is.
 */
export function mapChildren<N extends Node>(n: N, f: (child: Node) => Node): N {
  const specs = fieldsOf(n.kind);
  const values = fieldValues(n);
  let changed = false;
  for (const [i, [, type]] of specs.entries()) {
    if (type === 'iri' || type === 'string' || type === 'token' || type === 'number') continue;
    const v = values[i]!; // values has a value per field
    const mapped = Array.isArray(v) ? (v as readonly Node[]).map(f) : f(v as Node);
    changed ||= Array.isArray(v) ? (mapped as Node[]).some((x, k) => x !== (v as readonly Node[])[k]) : mapped !== v;
    values[i] = mapped;
  }
  return changed ? (build(n.kind, values) as N) : n;
}

/** A set of groups, made once per switch that closes with `otherKinds`. */
export const groupSet = <G extends Group>(...groups: readonly G[]): ReadonlySet<G> => new Set(groups);
/** The axioms' groups; the groups of the nodes that hold other nodes; every group. */
export const ANY_AXIOM = groupSet(...AXIOM_GROUPS);
export const ANY_COMPOUND = groupSet(...EXPRESSION_GROUPS, ...AXIOM_GROUPS);
export const ANY_NODE = groupSet('entity', 'term', ...EXPRESSION_GROUPS, ...AXIOM_GROUPS);

/**
 * Closes a switch over node kinds that names some kinds and treats the others alike: it compiles only when
 * the groups given cover every kind the switch left over (so a new kind is either named in the switch or
 * falls in one of these groups), and it throws on a node of any other group, as `unreachable` does.
 */
export function otherKinds<G extends Group>(n: NoInfer<NodeIn<G>>, groups: ReadonlySet<G>): void {
  if (!(groups as ReadonlySet<Group>).has(groupOf(n.kind))) throw new Error(`Unexpected node kind: ${JSON.stringify(n.kind)}`);
}
