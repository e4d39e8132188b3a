// The OWL 2 structural model: immutable, hash-consed nodes.
//
// Every node is built through the factory functions below, which intern it: structurally equal nodes are
// the same object, so `===`, Set and Map are exact and cheap. Each node carries a small integer `id`
// (unique per thread) used to build the intern keys of the nodes that contain it and to order set-like
// operand lists canonically.

import { randomBytes } from 'node:crypto';
import { OWL_THING, OWL_NOTHING, RDFS_LITERAL, XSD_STRING, RDF_LANG_STRING } from './vocab.js';
import { unreachable } from '../util/unreachable.js';

export type IRI = string;

interface NodeBase {
  readonly id: number;
}

// ---------------------------------------------------------------- entities and leaves

export interface Class extends NodeBase {
  readonly kind: 'Class';
  readonly iri: IRI;
}
export interface ObjectProperty extends NodeBase {
  readonly kind: 'ObjectProperty';
  readonly iri: IRI;
}
export interface DataProperty extends NodeBase {
  readonly kind: 'DataProperty';
  readonly iri: IRI;
}
export interface AnnotationProperty extends NodeBase {
  readonly kind: 'AnnotationProperty';
  readonly iri: IRI;
}
export interface NamedIndividual extends NodeBase {
  readonly kind: 'NamedIndividual';
  readonly iri: IRI;
}
export interface Datatype extends NodeBase {
  readonly kind: 'Datatype';
  readonly iri: IRI;
}

export type Entity = Class | ObjectProperty | DataProperty | AnnotationProperty | NamedIndividual | Datatype;
export type EntityKind = Entity['kind'];
export const ENTITY_KINDS: readonly EntityKind[] = [
  'Class',
  'ObjectProperty',
  'DataProperty',
  'AnnotationProperty',
  'NamedIndividual',
  'Datatype',
];

/** A blank node that OWL treats as an individual; `nodeId` is unique within its ontology document. */
export interface AnonymousIndividual extends NodeBase {
  readonly kind: 'AnonymousIndividual';
  readonly nodeId: string;
}
export type Individual = NamedIndividual | AnonymousIndividual;

/** A literal: `lang` is '' unless the datatype is rdf:langString. */
export interface Literal extends NodeBase {
  readonly kind: 'Literal';
  readonly lex: string;
  readonly datatype: IRI;
  readonly lang: string;
}

/** An IRI used as an annotation subject or value (not typed as an entity). */
export interface IRINode extends NodeBase {
  readonly kind: 'IRI';
  readonly iri: IRI;
}

// ---------------------------------------------------------------- property expressions

export interface ObjectInverseOf extends NodeBase {
  readonly kind: 'ObjectInverseOf';
  readonly property: ObjectProperty;
}
export type ObjectPropertyExpression = ObjectProperty | ObjectInverseOf;

// ---------------------------------------------------------------- data ranges

export interface DataIntersectionOf extends NodeBase {
  readonly kind: 'DataIntersectionOf';
  readonly operands: readonly DataRange[];
}
export interface DataUnionOf extends NodeBase {
  readonly kind: 'DataUnionOf';
  readonly operands: readonly DataRange[];
}
export interface DataComplementOf extends NodeBase {
  readonly kind: 'DataComplementOf';
  readonly operand: DataRange;
}
export interface DataOneOf extends NodeBase {
  readonly kind: 'DataOneOf';
  readonly literals: readonly Literal[];
}
export interface FacetRestriction extends NodeBase {
  readonly kind: 'FacetRestriction';
  readonly facet: IRI;
  readonly value: Literal;
}
export interface DatatypeRestriction extends NodeBase {
  readonly kind: 'DatatypeRestriction';
  readonly datatype: Datatype;
  readonly restrictions: readonly FacetRestriction[];
}
export type DataRange = Datatype | DataIntersectionOf | DataUnionOf | DataComplementOf | DataOneOf | DatatypeRestriction;

// ---------------------------------------------------------------- class expressions

export interface ObjectIntersectionOf extends NodeBase {
  readonly kind: 'ObjectIntersectionOf';
  readonly operands: readonly ClassExpression[];
}
export interface ObjectUnionOf extends NodeBase {
  readonly kind: 'ObjectUnionOf';
  readonly operands: readonly ClassExpression[];
}
export interface ObjectComplementOf extends NodeBase {
  readonly kind: 'ObjectComplementOf';
  readonly operand: ClassExpression;
}
export interface ObjectOneOf extends NodeBase {
  readonly kind: 'ObjectOneOf';
  readonly individuals: readonly Individual[];
}
export interface ObjectSomeValuesFrom extends NodeBase {
  readonly kind: 'ObjectSomeValuesFrom';
  readonly property: ObjectPropertyExpression;
  readonly filler: ClassExpression;
}
export interface ObjectAllValuesFrom extends NodeBase {
  readonly kind: 'ObjectAllValuesFrom';
  readonly property: ObjectPropertyExpression;
  readonly filler: ClassExpression;
}
export interface ObjectHasValue extends NodeBase {
  readonly kind: 'ObjectHasValue';
  readonly property: ObjectPropertyExpression;
  readonly individual: Individual;
}
export interface ObjectHasSelf extends NodeBase {
  readonly kind: 'ObjectHasSelf';
  readonly property: ObjectPropertyExpression;
}
/** Cardinality restrictions; an unqualified restriction has the filler owl:Thing. */
export interface ObjectCardinality<K extends string> extends NodeBase {
  readonly kind: K;
  readonly cardinality: number;
  readonly property: ObjectPropertyExpression;
  readonly filler: ClassExpression;
}
export type ObjectMinCardinality = ObjectCardinality<'ObjectMinCardinality'>;
export type ObjectMaxCardinality = ObjectCardinality<'ObjectMaxCardinality'>;
export type ObjectExactCardinality = ObjectCardinality<'ObjectExactCardinality'>;
export interface DataSomeValuesFrom extends NodeBase {
  readonly kind: 'DataSomeValuesFrom';
  readonly property: DataProperty;
  readonly filler: DataRange;
}
export interface DataAllValuesFrom extends NodeBase {
  readonly kind: 'DataAllValuesFrom';
  readonly property: DataProperty;
  readonly filler: DataRange;
}
export interface DataHasValue extends NodeBase {
  readonly kind: 'DataHasValue';
  readonly property: DataProperty;
  readonly value: Literal;
}
/** Data cardinality restrictions; an unqualified restriction has the filler rdfs:Literal. */
export interface DataCardinality<K extends string> extends NodeBase {
  readonly kind: K;
  readonly cardinality: number;
  readonly property: DataProperty;
  readonly filler: DataRange;
}
export type DataMinCardinality = DataCardinality<'DataMinCardinality'>;
export type DataMaxCardinality = DataCardinality<'DataMaxCardinality'>;
export type DataExactCardinality = DataCardinality<'DataExactCardinality'>;

export type ClassExpression =
  | Class
  | ObjectIntersectionOf
  | ObjectUnionOf
  | ObjectComplementOf
  | ObjectOneOf
  | ObjectSomeValuesFrom
  | ObjectAllValuesFrom
  | ObjectHasValue
  | ObjectHasSelf
  | ObjectMinCardinality
  | ObjectMaxCardinality
  | ObjectExactCardinality
  | DataSomeValuesFrom
  | DataAllValuesFrom
  | DataHasValue
  | DataMinCardinality
  | DataMaxCardinality
  | DataExactCardinality;

// ---------------------------------------------------------------- annotations

export type AnnotationSubject = IRINode | AnonymousIndividual;
export type AnnotationValue = IRINode | AnonymousIndividual | Literal;
export interface Annotation extends NodeBase {
  readonly kind: 'Annotation';
  readonly property: AnnotationProperty;
  readonly value: AnnotationValue;
  readonly annotations: readonly Annotation[];
}

// ---------------------------------------------------------------- SWRL

export interface Variable extends NodeBase {
  readonly kind: 'Variable';
  readonly iri: IRI;
}
export type IArg = Individual | Variable;
export type DArg = Literal | Variable;
export interface ClassAtom extends NodeBase {
  readonly kind: 'ClassAtom';
  readonly cls: ClassExpression;
  readonly arg: IArg;
}
export interface DataRangeAtom extends NodeBase {
  readonly kind: 'DataRangeAtom';
  readonly range: DataRange;
  readonly arg: DArg;
}
export interface ObjectPropertyAtom extends NodeBase {
  readonly kind: 'ObjectPropertyAtom';
  readonly property: ObjectPropertyExpression;
  readonly first: IArg;
  readonly second: IArg;
}
export interface DataPropertyAtom extends NodeBase {
  readonly kind: 'DataPropertyAtom';
  readonly property: DataProperty;
  readonly first: IArg;
  readonly second: DArg;
}
export interface BuiltInAtom extends NodeBase {
  readonly kind: 'BuiltInAtom';
  readonly iri: IRI;
  readonly args: readonly DArg[];
}
export interface SameIndividualAtom extends NodeBase {
  readonly kind: 'SameIndividualAtom';
  readonly first: IArg;
  readonly second: IArg;
}
export interface DifferentIndividualsAtom extends NodeBase {
  readonly kind: 'DifferentIndividualsAtom';
  readonly first: IArg;
  readonly second: IArg;
}
export type Atom =
  ClassAtom | DataRangeAtom | ObjectPropertyAtom | DataPropertyAtom | BuiltInAtom | SameIndividualAtom | DifferentIndividualsAtom;

// ---------------------------------------------------------------- axioms

interface AxiomBase extends NodeBase {
  readonly annotations: readonly Annotation[];
}

export interface Declaration extends AxiomBase {
  readonly kind: 'Declaration';
  readonly entity: Entity;
}

export interface SubClassOf extends AxiomBase {
  readonly kind: 'SubClassOf';
  readonly sub: ClassExpression;
  readonly sup: ClassExpression;
}
export interface EquivalentClasses extends AxiomBase {
  readonly kind: 'EquivalentClasses';
  readonly classes: readonly ClassExpression[];
}
export interface DisjointClasses extends AxiomBase {
  readonly kind: 'DisjointClasses';
  readonly classes: readonly ClassExpression[];
}
export interface DisjointUnion extends AxiomBase {
  readonly kind: 'DisjointUnion';
  readonly cls: Class;
  readonly classes: readonly ClassExpression[];
}

export interface SubObjectPropertyOf extends AxiomBase {
  readonly kind: 'SubObjectPropertyOf';
  readonly sub: ObjectPropertyExpression;
  readonly sup: ObjectPropertyExpression;
}
export interface SubPropertyChainOf extends AxiomBase {
  readonly kind: 'SubPropertyChainOf';
  readonly chain: readonly ObjectPropertyExpression[];
  readonly sup: ObjectPropertyExpression;
}
export interface EquivalentObjectProperties extends AxiomBase {
  readonly kind: 'EquivalentObjectProperties';
  readonly properties: readonly ObjectPropertyExpression[];
}
export interface DisjointObjectProperties extends AxiomBase {
  readonly kind: 'DisjointObjectProperties';
  readonly properties: readonly ObjectPropertyExpression[];
}
export interface InverseObjectProperties extends AxiomBase {
  readonly kind: 'InverseObjectProperties';
  readonly first: ObjectPropertyExpression;
  readonly second: ObjectPropertyExpression;
}
export interface ObjectPropertyDomain extends AxiomBase {
  readonly kind: 'ObjectPropertyDomain';
  readonly property: ObjectPropertyExpression;
  readonly domain: ClassExpression;
}
export interface ObjectPropertyRange extends AxiomBase {
  readonly kind: 'ObjectPropertyRange';
  readonly property: ObjectPropertyExpression;
  readonly range: ClassExpression;
}
export interface ObjectPropertyCharacteristic<K extends string> extends AxiomBase {
  readonly kind: K;
  readonly property: ObjectPropertyExpression;
}
export type FunctionalObjectProperty = ObjectPropertyCharacteristic<'FunctionalObjectProperty'>;
export type InverseFunctionalObjectProperty = ObjectPropertyCharacteristic<'InverseFunctionalObjectProperty'>;
export type ReflexiveObjectProperty = ObjectPropertyCharacteristic<'ReflexiveObjectProperty'>;
export type IrreflexiveObjectProperty = ObjectPropertyCharacteristic<'IrreflexiveObjectProperty'>;
export type SymmetricObjectProperty = ObjectPropertyCharacteristic<'SymmetricObjectProperty'>;
export type AsymmetricObjectProperty = ObjectPropertyCharacteristic<'AsymmetricObjectProperty'>;
export type TransitiveObjectProperty = ObjectPropertyCharacteristic<'TransitiveObjectProperty'>;

export interface SubDataPropertyOf extends AxiomBase {
  readonly kind: 'SubDataPropertyOf';
  readonly sub: DataProperty;
  readonly sup: DataProperty;
}
export interface EquivalentDataProperties extends AxiomBase {
  readonly kind: 'EquivalentDataProperties';
  readonly properties: readonly DataProperty[];
}
export interface DisjointDataProperties extends AxiomBase {
  readonly kind: 'DisjointDataProperties';
  readonly properties: readonly DataProperty[];
}
export interface DataPropertyDomain extends AxiomBase {
  readonly kind: 'DataPropertyDomain';
  readonly property: DataProperty;
  readonly domain: ClassExpression;
}
export interface DataPropertyRange extends AxiomBase {
  readonly kind: 'DataPropertyRange';
  readonly property: DataProperty;
  readonly range: DataRange;
}
export interface FunctionalDataProperty extends AxiomBase {
  readonly kind: 'FunctionalDataProperty';
  readonly property: DataProperty;
}

export interface DatatypeDefinition extends AxiomBase {
  readonly kind: 'DatatypeDefinition';
  readonly datatype: Datatype;
  readonly range: DataRange;
}
export interface HasKey extends AxiomBase {
  readonly kind: 'HasKey';
  readonly cls: ClassExpression;
  readonly objectProperties: readonly ObjectPropertyExpression[];
  readonly dataProperties: readonly DataProperty[];
}

export interface SameIndividual extends AxiomBase {
  readonly kind: 'SameIndividual';
  readonly individuals: readonly Individual[];
}
export interface DifferentIndividuals extends AxiomBase {
  readonly kind: 'DifferentIndividuals';
  readonly individuals: readonly Individual[];
}
export interface ClassAssertion extends AxiomBase {
  readonly kind: 'ClassAssertion';
  readonly cls: ClassExpression;
  readonly individual: Individual;
}
export interface ObjectPropertyAssertion extends AxiomBase {
  readonly kind: 'ObjectPropertyAssertion';
  readonly property: ObjectPropertyExpression;
  readonly subject: Individual;
  readonly object: Individual;
}
export interface NegativeObjectPropertyAssertion extends AxiomBase {
  readonly kind: 'NegativeObjectPropertyAssertion';
  readonly property: ObjectPropertyExpression;
  readonly subject: Individual;
  readonly object: Individual;
}
export interface DataPropertyAssertion extends AxiomBase {
  readonly kind: 'DataPropertyAssertion';
  readonly property: DataProperty;
  readonly subject: Individual;
  readonly value: Literal;
}
export interface NegativeDataPropertyAssertion extends AxiomBase {
  readonly kind: 'NegativeDataPropertyAssertion';
  readonly property: DataProperty;
  readonly subject: Individual;
  readonly value: Literal;
}

export interface AnnotationAssertion extends AxiomBase {
  readonly kind: 'AnnotationAssertion';
  readonly property: AnnotationProperty;
  readonly subject: AnnotationSubject;
  readonly value: AnnotationValue;
}
export interface SubAnnotationPropertyOf extends AxiomBase {
  readonly kind: 'SubAnnotationPropertyOf';
  readonly sub: AnnotationProperty;
  readonly sup: AnnotationProperty;
}
export interface AnnotationPropertyDomain extends AxiomBase {
  readonly kind: 'AnnotationPropertyDomain';
  readonly property: AnnotationProperty;
  readonly domain: IRI;
}
export interface AnnotationPropertyRange extends AxiomBase {
  readonly kind: 'AnnotationPropertyRange';
  readonly property: AnnotationProperty;
  readonly range: IRI;
}

export interface DLSafeRule extends AxiomBase {
  readonly kind: 'DLSafeRule';
  readonly body: readonly Atom[];
  readonly head: readonly Atom[];
}

export type Axiom =
  | Declaration
  | SubClassOf
  | EquivalentClasses
  | DisjointClasses
  | DisjointUnion
  | SubObjectPropertyOf
  | SubPropertyChainOf
  | EquivalentObjectProperties
  | DisjointObjectProperties
  | InverseObjectProperties
  | ObjectPropertyDomain
  | ObjectPropertyRange
  | FunctionalObjectProperty
  | InverseFunctionalObjectProperty
  | ReflexiveObjectProperty
  | IrreflexiveObjectProperty
  | SymmetricObjectProperty
  | AsymmetricObjectProperty
  | TransitiveObjectProperty
  | SubDataPropertyOf
  | EquivalentDataProperties
  | DisjointDataProperties
  | DataPropertyDomain
  | DataPropertyRange
  | FunctionalDataProperty
  | DatatypeDefinition
  | HasKey
  | SameIndividual
  | DifferentIndividuals
  | ClassAssertion
  | ObjectPropertyAssertion
  | NegativeObjectPropertyAssertion
  | DataPropertyAssertion
  | NegativeDataPropertyAssertion
  | AnnotationAssertion
  | SubAnnotationPropertyOf
  | AnnotationPropertyDomain
  | AnnotationPropertyRange
  | DLSafeRule;
export type AxiomKind = Axiom['kind'];

/**
 * The OWL 2 functional-syntax name of an axiom's type: a property chain is a SubObjectPropertyOf whose
 * sub-property is an ObjectPropertyChain (the model keeps it as its own kind, as the OWL API does).
 */
export function axiomTypeName(a: Axiom): string {
  return a.kind === 'SubPropertyChainOf' ? 'SubObjectPropertyOf' : a.kind;
}

export const AXIOM_KINDS: readonly AxiomKind[] = [
  'Declaration',
  'SubClassOf',
  'EquivalentClasses',
  'DisjointClasses',
  'DisjointUnion',
  'SubObjectPropertyOf',
  'SubPropertyChainOf',
  'EquivalentObjectProperties',
  'DisjointObjectProperties',
  'InverseObjectProperties',
  'ObjectPropertyDomain',
  'ObjectPropertyRange',
  'FunctionalObjectProperty',
  'InverseFunctionalObjectProperty',
  'ReflexiveObjectProperty',
  'IrreflexiveObjectProperty',
  'SymmetricObjectProperty',
  'AsymmetricObjectProperty',
  'TransitiveObjectProperty',
  'SubDataPropertyOf',
  'EquivalentDataProperties',
  'DisjointDataProperties',
  'DataPropertyDomain',
  'DataPropertyRange',
  'FunctionalDataProperty',
  'DatatypeDefinition',
  'HasKey',
  'SameIndividual',
  'DifferentIndividuals',
  'ClassAssertion',
  'ObjectPropertyAssertion',
  'NegativeObjectPropertyAssertion',
  'DataPropertyAssertion',
  'NegativeDataPropertyAssertion',
  'AnnotationAssertion',
  'SubAnnotationPropertyOf',
  'AnnotationPropertyDomain',
  'AnnotationPropertyRange',
  'DLSafeRule',
];

/** Axioms that carry no logical meaning (OWL 2: declarations and annotation axioms). */
export function isLogicalAxiom(a: Axiom): boolean {
  switch (a.kind) {
    case 'Declaration':
    case 'AnnotationAssertion':
    case 'SubAnnotationPropertyOf':
    case 'AnnotationPropertyDomain':
    case 'AnnotationPropertyRange':
      return false;
    case 'FunctionalObjectProperty':
    case 'InverseFunctionalObjectProperty':
    case 'ReflexiveObjectProperty':
    case 'IrreflexiveObjectProperty':
    case 'SymmetricObjectProperty':
    case 'AsymmetricObjectProperty':
    case 'TransitiveObjectProperty':
    case 'SubClassOf':
    case 'EquivalentClasses':
    case 'DisjointClasses':
    case 'DisjointUnion':
    case 'SubObjectPropertyOf':
    case 'SubPropertyChainOf':
    case 'EquivalentObjectProperties':
    case 'DisjointObjectProperties':
    case 'InverseObjectProperties':
    case 'ObjectPropertyDomain':
    case 'ObjectPropertyRange':
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
    case 'DLSafeRule':
      return true;
    default:
      return unreachable(a);
  }
}

export type Node =
  | Entity
  | AnonymousIndividual
  | Literal
  | IRINode
  | ObjectInverseOf
  | DataRange
  | FacetRestriction
  | ClassExpression
  | Annotation
  | Variable
  | Atom
  | Axiom;

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
  return at > 0 ? nodes[at - 1] : weakNodes[-at - 1].deref();
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
  for (let i = 1; i < old.length; i += 2) {
    let at = old[i];
    if (at === 0) continue;
    if (at < 0) {
      const ref = oldWeak[-at - 1];
      if (ref.deref() === undefined) continue;
      at = -weakNodes.push(ref);
    } else if (demote) {
      at = -weakNodes.push(new WeakRef(nodes[at - 1]));
    }
    const h = old[i - 1];
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
interface Shape {
  readonly code: number;
  readonly fields: readonly string[];
  /** The shape's hash of a candidate's fields (before `finish`). */
  readonly hash: (candidate: FieldRecord) => number;
  /** Whether two nodes of this kind have equal fields. */
  readonly same: (a: FieldRecord, b: FieldRecord) => boolean;
  /** The same hash of the fields given as arguments, in field order. */
  readonly hashFields: (...fields: FieldValue[]) => number;
  /** Whether a node is of this kind with exactly these fields. */
  readonly sameFields: (n: Node, ...fields: FieldValue[]) => boolean;
  /** A new node of this kind (properties in the order the factories write them, so all share one hidden class). */
  readonly make: (...fields: FieldValue[]) => Node;
}

const SHAPES: Record<string, Shape> = {};
[
  ['ObjectInverseOf', 'property'],
  ['DataIntersectionOf', 'operands'],
  ['DataUnionOf', 'operands'],
  ['DataComplementOf', 'operand'],
  ['DataOneOf', 'literals'],
  ['FacetRestriction', 'facet', 'value'],
  ['DatatypeRestriction', 'datatype', 'restrictions'],
  ['ObjectIntersectionOf', 'operands'],
  ['ObjectUnionOf', 'operands'],
  ['ObjectComplementOf', 'operand'],
  ['ObjectOneOf', 'individuals'],
  ['ObjectSomeValuesFrom', 'property', 'filler'],
  ['ObjectAllValuesFrom', 'property', 'filler'],
  ['ObjectHasValue', 'property', 'individual'],
  ['ObjectHasSelf', 'property'],
  ['ObjectMinCardinality', 'cardinality', 'property', 'filler'],
  ['ObjectMaxCardinality', 'cardinality', 'property', 'filler'],
  ['ObjectExactCardinality', 'cardinality', 'property', 'filler'],
  ['DataSomeValuesFrom', 'property', 'filler'],
  ['DataAllValuesFrom', 'property', 'filler'],
  ['DataHasValue', 'property', 'value'],
  ['DataMinCardinality', 'cardinality', 'property', 'filler'],
  ['DataMaxCardinality', 'cardinality', 'property', 'filler'],
  ['DataExactCardinality', 'cardinality', 'property', 'filler'],
  ['Annotation', 'property', 'value', 'annotations'],
  ['ClassAtom', 'cls', 'arg'],
  ['DataRangeAtom', 'range', 'arg'],
  ['ObjectPropertyAtom', 'property', 'first', 'second'],
  ['DataPropertyAtom', 'property', 'first', 'second'],
  ['BuiltInAtom', 'iri', 'args'],
  ['SameIndividualAtom', 'first', 'second'],
  ['DifferentIndividualsAtom', 'first', 'second'],
  ['Declaration', 'entity', 'annotations'],
  ['SubClassOf', 'sub', 'sup', 'annotations'],
  ['EquivalentClasses', 'classes', 'annotations'],
  ['DisjointClasses', 'classes', 'annotations'],
  ['DisjointUnion', 'cls', 'classes', 'annotations'],
  ['SubObjectPropertyOf', 'sub', 'sup', 'annotations'],
  ['SubPropertyChainOf', 'chain', 'sup', 'annotations'],
  ['EquivalentObjectProperties', 'properties', 'annotations'],
  ['DisjointObjectProperties', 'properties', 'annotations'],
  ['InverseObjectProperties', 'first', 'second', 'annotations'],
  ['ObjectPropertyDomain', 'property', 'domain', 'annotations'],
  ['ObjectPropertyRange', 'property', 'range', 'annotations'],
  ['FunctionalObjectProperty', 'property', 'annotations'],
  ['InverseFunctionalObjectProperty', 'property', 'annotations'],
  ['ReflexiveObjectProperty', 'property', 'annotations'],
  ['IrreflexiveObjectProperty', 'property', 'annotations'],
  ['SymmetricObjectProperty', 'property', 'annotations'],
  ['AsymmetricObjectProperty', 'property', 'annotations'],
  ['TransitiveObjectProperty', 'property', 'annotations'],
  ['SubDataPropertyOf', 'sub', 'sup', 'annotations'],
  ['EquivalentDataProperties', 'properties', 'annotations'],
  ['DisjointDataProperties', 'properties', 'annotations'],
  ['DataPropertyDomain', 'property', 'domain', 'annotations'],
  ['DataPropertyRange', 'property', 'range', 'annotations'],
  ['FunctionalDataProperty', 'property', 'annotations'],
  ['DatatypeDefinition', 'datatype', 'range', 'annotations'],
  ['HasKey', 'cls', 'objectProperties', 'dataProperties', 'annotations'],
  ['SameIndividual', 'individuals', 'annotations'],
  ['DifferentIndividuals', 'individuals', 'annotations'],
  ['ClassAssertion', 'cls', 'individual', 'annotations'],
  ['ObjectPropertyAssertion', 'property', 'subject', 'object', 'annotations'],
  ['NegativeObjectPropertyAssertion', 'property', 'subject', 'object', 'annotations'],
  ['DataPropertyAssertion', 'property', 'subject', 'value', 'annotations'],
  ['NegativeDataPropertyAssertion', 'property', 'subject', 'value', 'annotations'],
  ['AnnotationAssertion', 'property', 'subject', 'value', 'annotations'],
  ['SubAnnotationPropertyOf', 'sub', 'sup', 'annotations'],
  ['AnnotationPropertyDomain', 'property', 'domain', 'annotations'],
  ['AnnotationPropertyRange', 'property', 'range', 'annotations'],
  ['DLSafeRule', 'body', 'head', 'annotations'],
].forEach(([kind, ...fields], code) => {
  SHAPES[kind] = shape(code + 1, kind, fields);
});

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
    for (let i = 0; i < v.length; i++) h = mix(h, (v as readonly Node[])[i].id);
    return h;
  }
  return mix(h, (v as Node).id);
}

function sameValue(a: FieldValue, b: FieldValue): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A shape's hash and equality, compiled for its fields. One generic loop over field names would read
 * every field of every kind through one megamorphic access site; a function per shape reads each field at
 * a site that only ever sees that shape, which makes interning several times faster.
 */
function shape(code: number, kind: string, fields: readonly string[]): Shape {
  const names = fields.map((f) => JSON.stringify(f));
  const args = fields.map((_, i) => 'f' + i);
  const hash = new Function(
    'hashValue',
    `return (c) => { let h = ${code}; ${names.map((f) => `h = hashValue(h, c[${f}]);`).join(' ')} return h; };`,
  );
  const same = new Function(
    'sameValue',
    `return (a, b) => a.kind === b.kind${names.map((f) => ` && sameValue(a[${f}], b[${f}])`).join('')};`,
  );
  const hashFields = new Function(
    'hashValue',
    `return (${args}) => { let h = ${code}; ${args.map((a) => `h = hashValue(h, ${a});`).join(' ')} return h; };`,
  );
  const sameFields = new Function(
    'sameValue',
    `return (n, ${args}) => n.kind === ${JSON.stringify(kind)}${names.map((f, i) => ` && sameValue(n[${f}], ${args[i]})`).join('')};`,
  );
  const make = new Function(
    `return (${args}) => ({ id: 0, kind: ${JSON.stringify(kind)}${names.map((f, i) => `, ${f}: ${args[i]}`).join('')} });`,
  );
  return {
    code,
    fields,
    hash: hash(hashValue),
    same: same(sameValue),
    hashFields: hashFields(hashValue),
    sameFields: sameFields(sameValue),
    make: make(),
  };
}

/** The canonical node structurally equal to `candidate` (which gets an id and is frozen if it is new). */
function intern<T extends Node>(candidate: T): T {
  const shape = SHAPES[candidate.kind];
  const c = candidate as unknown as FieldRecord;
  const h = finish(shape.hash(c));
  let i = firstSlot(h);
  for (let at = table[2 * i + 1]; at !== 0; at = table[2 * i + 1]) {
    if (table[2 * i] === h) {
      const n = nodeAt(at);
      if (n !== undefined && shape.same(n as unknown as FieldRecord, c)) return n as T;
    }
    i = nextSlot(i);
  }
  return place(i, h, candidate);
}

/**
 * `intern` for fields given as arguments: the node is allocated only when it is new, so the common case of
 * a bulk load that meets nodes it already has makes no garbage. Used by the factories of frequent axioms.
 */
function internFields<T extends Node>(shape: Shape, a: FieldValue, b: FieldValue, c?: FieldValue, d?: FieldValue): T {
  const h = finish(shape.hashFields(a, b, c!, d!));
  let i = firstSlot(h);
  for (let at = table[2 * i + 1]; at !== 0; at = table[2 * i + 1]) {
    if (table[2 * i] === h) {
      const n = nodeAt(at);
      if (n !== undefined && shape.sameFields(n, a, b, c!, d!)) return n as T;
    }
    i = nextSlot(i);
  }
  return place(i, h, shape.make(a, b, c!, d!) as T);
}

/** Codes of the leaf tables, after the compound shapes' codes. */
let nextLeafCode = 1000;

/**
 * Interns leaves keyed by one string; `same` tells whether a node of the table has that key. With `own`,
 * a new leaf keeps its own copy of the string (see ownString); entities and IRIs share their strings
 * between roles, so for them the readers own the strings.
 */
function stringKeyed<T extends Node>(make: (key: string) => T, same: (n: Node, key: string) => boolean, own = false): (key: string) => T {
  const code = nextLeafCode++;
  return (key) => {
    const h = finish(mix(code, hashString(key)));
    let i = firstSlot(h);
    for (let at = table[2 * i + 1]; at !== 0; at = table[2 * i + 1]) {
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

const byId = (a: NodeBase, b: NodeBase) => a.id - b.id;

/** Canonical order for set-like operands: sorted by id, duplicates removed. */
function asSet<T extends NodeBase>(items: readonly T[]): readonly T[] {
  if (items.length <= 1) return Object.freeze(items.slice());
  const sorted = items.slice().sort(byId);
  const out: T[] = [sorted[0]];
  for (let i = 1; i < sorted.length; i++) if (sorted[i] !== sorted[i - 1]) out.push(sorted[i]);
  return Object.freeze(out);
}

/** Canonical order for lists whose repetitions matter (DisjointClasses(A B A) makes A unsatisfiable). */
function asBag<T extends NodeBase>(items: readonly T[]): readonly T[] {
  return Object.freeze(items.slice().sort(byId));
}

function asList<T extends NodeBase>(items: readonly T[]): readonly T[] {
  return Object.freeze(items.slice());
}

const NO_ANNOTATIONS: readonly Annotation[] = Object.freeze([]);
const annotationSet = (anns: readonly Annotation[] | undefined) => (anns === undefined || anns.length === 0 ? NO_ANNOTATIONS : asSet(anns));

// ---------------------------------------------------------------- factory: leaves

function entityFactory<K extends EntityKind>(kind: K): (iri: IRI) => Extract<Entity, { kind: K }> {
  return stringKeyed(
    (iri) => ({ id: 0, kind, iri }) as unknown as Extract<Entity, { kind: K }>,
    (n, iri) => n.kind === kind && (n as Entity).iri === iri,
  );
}

export const cls = entityFactory('Class');
export const objectProperty = entityFactory('ObjectProperty');
export const dataProperty = entityFactory('DataProperty');
export const annotationProperty = entityFactory('AnnotationProperty');
export const namedIndividual = entityFactory('NamedIndividual');
export const datatype = entityFactory('Datatype');

const entityMakers: Record<EntityKind, (iri: IRI) => Entity> = {
  Class: cls,
  ObjectProperty: objectProperty,
  DataProperty: dataProperty,
  AnnotationProperty: annotationProperty,
  NamedIndividual: namedIndividual,
  Datatype: datatype,
};
export function entity(kind: EntityKind, iri: IRI): Entity {
  return entityMakers[kind](iri);
}

export const thing = () => cls(OWL_THING);
export const nothing = () => cls(OWL_NOTHING);
export const rdfsLiteral = () => datatype(RDFS_LITERAL);

const threadScope = randomBytes(4).toString('hex');
let documentScopes = 0;

/**
 * A label prefix unique to one parsed document in this process, whatever thread parses it: blank-node
 * labels are local to their document, so readers prefix them with this before making anonymous individuals.
 */
export function documentScope(): string {
  return threadScope + '.' + ++documentScopes;
}

export const anonymousIndividual: (nodeId: string) => AnonymousIndividual = stringKeyed(
  (nodeId) => ({ id: 0, kind: 'AnonymousIndividual', nodeId }),
  (n, nodeId) => n.kind === 'AnonymousIndividual' && n.nodeId === nodeId,
);

export const iriNode: (iri: IRI) => IRINode = stringKeyed(
  (iri) => ({ id: 0, kind: 'IRI', iri }),
  (n, iri) => n.kind === 'IRI' && n.iri === iri,
);

export const variable: (iri: IRI) => Variable = stringKeyed(
  (iri) => ({ id: 0, kind: 'Variable', iri }),
  (n, iri) => n.kind === 'Variable' && n.iri === iri,
);

/** Literal tables by datatype, and by language tag as written (tags differing in case share one table). */
const typedLiterals = new Map<string, (lex: string) => Literal>();
const taggedLiterals = new Map<string, (lex: string) => Literal>();

function literalTable(dt: IRI, lang: string): (lex: string) => Literal {
  return stringKeyed(
    (text) => ({ id: 0, kind: 'Literal', lex: text, datatype: dt, lang }),
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

// ---------------------------------------------------------------- factory: expressions

export const objectInverseOf = (property: ObjectProperty): ObjectInverseOf => intern({ id: 0, kind: 'ObjectInverseOf', property });

export function dataIntersectionOf(operands: readonly DataRange[]): DataIntersectionOf {
  const ops = asSet(operands);
  return intern({ id: 0, kind: 'DataIntersectionOf', operands: ops });
}
export function dataUnionOf(operands: readonly DataRange[]): DataUnionOf {
  const ops = asSet(operands);
  return intern({ id: 0, kind: 'DataUnionOf', operands: ops });
}
export const dataComplementOf = (operand: DataRange): DataComplementOf => intern({ id: 0, kind: 'DataComplementOf', operand });
export function dataOneOf(literals: readonly Literal[]): DataOneOf {
  const ls = asSet(literals);
  return intern({ id: 0, kind: 'DataOneOf', literals: ls });
}
export const facetRestriction = (facet: IRI, value: Literal): FacetRestriction => intern({ id: 0, kind: 'FacetRestriction', facet, value });
export function datatypeRestriction(dt: Datatype, restrictions: readonly FacetRestriction[]): DatatypeRestriction {
  const rs = asSet(restrictions);
  return intern({ id: 0, kind: 'DatatypeRestriction', datatype: dt, restrictions: rs });
}

export function objectIntersectionOf(operands: readonly ClassExpression[]): ObjectIntersectionOf {
  const ops = asSet(operands);
  return intern({ id: 0, kind: 'ObjectIntersectionOf', operands: ops });
}
export function objectUnionOf(operands: readonly ClassExpression[]): ObjectUnionOf {
  const ops = asSet(operands);
  return intern({ id: 0, kind: 'ObjectUnionOf', operands: ops });
}
export const objectComplementOf = (operand: ClassExpression): ObjectComplementOf => intern({ id: 0, kind: 'ObjectComplementOf', operand });
export function objectOneOf(individuals: readonly Individual[]): ObjectOneOf {
  const is = asSet(individuals);
  return intern({ id: 0, kind: 'ObjectOneOf', individuals: is });
}
export const objectSomeValuesFrom = (property: ObjectPropertyExpression, filler: ClassExpression): ObjectSomeValuesFrom =>
  intern({ id: 0, kind: 'ObjectSomeValuesFrom', property, filler });
export const objectAllValuesFrom = (property: ObjectPropertyExpression, filler: ClassExpression): ObjectAllValuesFrom =>
  intern({ id: 0, kind: 'ObjectAllValuesFrom', property, filler });
export const objectHasValue = (property: ObjectPropertyExpression, individual: Individual): ObjectHasValue =>
  intern({ id: 0, kind: 'ObjectHasValue', property, individual });
export const objectHasSelf = (property: ObjectPropertyExpression): ObjectHasSelf => intern({ id: 0, kind: 'ObjectHasSelf', property });

function objectCardinality<K extends 'ObjectMinCardinality' | 'ObjectMaxCardinality' | 'ObjectExactCardinality'>(kind: K) {
  return (cardinality: number, property: ObjectPropertyExpression, filler: ClassExpression = thing()): ObjectCardinality<K> =>
    intern({ id: 0, kind, cardinality, property, filler } as ObjectCardinality<K> as never);
}
export const objectMinCardinality = objectCardinality('ObjectMinCardinality');
export const objectMaxCardinality = objectCardinality('ObjectMaxCardinality');
export const objectExactCardinality = objectCardinality('ObjectExactCardinality');

export const dataSomeValuesFrom = (property: DataProperty, filler: DataRange): DataSomeValuesFrom =>
  intern({ id: 0, kind: 'DataSomeValuesFrom', property, filler });
export const dataAllValuesFrom = (property: DataProperty, filler: DataRange): DataAllValuesFrom =>
  intern({ id: 0, kind: 'DataAllValuesFrom', property, filler });
export const dataHasValue = (property: DataProperty, value: Literal): DataHasValue =>
  intern({ id: 0, kind: 'DataHasValue', property, value });

function dataCardinality<K extends 'DataMinCardinality' | 'DataMaxCardinality' | 'DataExactCardinality'>(kind: K) {
  return (cardinality: number, property: DataProperty, filler: DataRange = rdfsLiteral()): DataCardinality<K> =>
    intern({ id: 0, kind, cardinality, property, filler } as DataCardinality<K> as never);
}
export const dataMinCardinality = dataCardinality('DataMinCardinality');
export const dataMaxCardinality = dataCardinality('DataMaxCardinality');
export const dataExactCardinality = dataCardinality('DataExactCardinality');

// ---------------------------------------------------------------- factory: annotations and SWRL

export function annotation(property: AnnotationProperty, value: AnnotationValue, annotations?: readonly Annotation[]): Annotation {
  const anns = annotationSet(annotations);
  return intern({ id: 0, kind: 'Annotation', property, value, annotations: anns });
}

export const classAtom = (c: ClassExpression, arg: IArg): ClassAtom => intern({ id: 0, kind: 'ClassAtom', cls: c, arg });
export const dataRangeAtom = (range: DataRange, arg: DArg): DataRangeAtom => intern({ id: 0, kind: 'DataRangeAtom', range, arg });
export const objectPropertyAtom = (property: ObjectPropertyExpression, first: IArg, second: IArg): ObjectPropertyAtom =>
  intern({ id: 0, kind: 'ObjectPropertyAtom', property, first, second });
export const dataPropertyAtom = (property: DataProperty, first: IArg, second: DArg): DataPropertyAtom =>
  intern({ id: 0, kind: 'DataPropertyAtom', property, first, second });
export function builtInAtom(iri: IRI, args: readonly DArg[]): BuiltInAtom {
  const as = asList(args);
  return intern({ id: 0, kind: 'BuiltInAtom', iri, args: as });
}
export const sameIndividualAtom = (first: IArg, second: IArg): SameIndividualAtom =>
  intern({ id: 0, kind: 'SameIndividualAtom', first, second });
export const differentIndividualsAtom = (first: IArg, second: IArg): DifferentIndividualsAtom =>
  intern({ id: 0, kind: 'DifferentIndividualsAtom', first, second });

// ---------------------------------------------------------------- factory: axioms

type Anns = readonly Annotation[] | undefined;

export const declaration = (e: Entity, anns?: Anns): Declaration => internFields(SHAPES.Declaration, e, annotationSet(anns));

export const subClassOf = (sub: ClassExpression, sup: ClassExpression, anns?: Anns): SubClassOf =>
  internFields(SHAPES.SubClassOf, sub, sup, annotationSet(anns));
export function equivalentClasses(classes: readonly ClassExpression[], anns?: Anns): EquivalentClasses {
  const cs = asSet(classes);
  return intern({ id: 0, kind: 'EquivalentClasses', classes: cs, annotations: annotationSet(anns) });
}
export function disjointClasses(classes: readonly ClassExpression[], anns?: Anns): DisjointClasses {
  const cs = asBag(classes);
  return intern({ id: 0, kind: 'DisjointClasses', classes: cs, annotations: annotationSet(anns) });
}
export function disjointUnion(c: Class, classes: readonly ClassExpression[], anns?: Anns): DisjointUnion {
  const cs = asBag(classes);
  return intern({ id: 0, kind: 'DisjointUnion', cls: c, classes: cs, annotations: annotationSet(anns) });
}

export const subObjectPropertyOf = (sub: ObjectPropertyExpression, sup: ObjectPropertyExpression, anns?: Anns): SubObjectPropertyOf =>
  intern({ id: 0, kind: 'SubObjectPropertyOf', sub, sup, annotations: annotationSet(anns) });
export function subPropertyChainOf(
  chain: readonly ObjectPropertyExpression[],
  sup: ObjectPropertyExpression,
  anns?: Anns,
): SubPropertyChainOf {
  const ch = asList(chain);
  return intern({ id: 0, kind: 'SubPropertyChainOf', chain: ch, sup, annotations: annotationSet(anns) });
}
export function equivalentObjectProperties(properties: readonly ObjectPropertyExpression[], anns?: Anns): EquivalentObjectProperties {
  const ps = asSet(properties);
  return intern({ id: 0, kind: 'EquivalentObjectProperties', properties: ps, annotations: annotationSet(anns) });
}
export function disjointObjectProperties(properties: readonly ObjectPropertyExpression[], anns?: Anns): DisjointObjectProperties {
  const ps = asBag(properties);
  return intern({ id: 0, kind: 'DisjointObjectProperties', properties: ps, annotations: annotationSet(anns) });
}
/** InverseObjectProperties is symmetric: (P, Q) and (Q, P) are one axiom, kept in id order. */
export function inverseObjectProperties(p: ObjectPropertyExpression, q: ObjectPropertyExpression, anns?: Anns): InverseObjectProperties {
  const [first, second] = p.id <= q.id ? [p, q] : [q, p];
  return intern({ id: 0, kind: 'InverseObjectProperties', first, second, annotations: annotationSet(anns) });
}
export const objectPropertyDomain = (property: ObjectPropertyExpression, domain: ClassExpression, anns?: Anns): ObjectPropertyDomain =>
  intern({ id: 0, kind: 'ObjectPropertyDomain', property, domain, annotations: annotationSet(anns) });
export const objectPropertyRange = (property: ObjectPropertyExpression, range: ClassExpression, anns?: Anns): ObjectPropertyRange =>
  intern({ id: 0, kind: 'ObjectPropertyRange', property, range, annotations: annotationSet(anns) });

export type CharacteristicKind =
  | 'FunctionalObjectProperty'
  | 'InverseFunctionalObjectProperty'
  | 'ReflexiveObjectProperty'
  | 'IrreflexiveObjectProperty'
  | 'SymmetricObjectProperty'
  | 'AsymmetricObjectProperty'
  | 'TransitiveObjectProperty';
export function objectPropertyCharacteristic<K extends CharacteristicKind>(
  kind: K,
  property: ObjectPropertyExpression,
  anns?: Anns,
): ObjectPropertyCharacteristic<K> {
  return intern({ id: 0, kind, property, annotations: annotationSet(anns) } as ObjectPropertyCharacteristic<K> as never);
}

export const subDataPropertyOf = (sub: DataProperty, sup: DataProperty, anns?: Anns): SubDataPropertyOf =>
  intern({ id: 0, kind: 'SubDataPropertyOf', sub, sup, annotations: annotationSet(anns) });
export function equivalentDataProperties(properties: readonly DataProperty[], anns?: Anns): EquivalentDataProperties {
  const ps = asSet(properties);
  return intern({ id: 0, kind: 'EquivalentDataProperties', properties: ps, annotations: annotationSet(anns) });
}
export function disjointDataProperties(properties: readonly DataProperty[], anns?: Anns): DisjointDataProperties {
  const ps = asBag(properties);
  return intern({ id: 0, kind: 'DisjointDataProperties', properties: ps, annotations: annotationSet(anns) });
}
export const dataPropertyDomain = (property: DataProperty, domain: ClassExpression, anns?: Anns): DataPropertyDomain =>
  intern({ id: 0, kind: 'DataPropertyDomain', property, domain, annotations: annotationSet(anns) });
export const dataPropertyRange = (property: DataProperty, range: DataRange, anns?: Anns): DataPropertyRange =>
  intern({ id: 0, kind: 'DataPropertyRange', property, range, annotations: annotationSet(anns) });
export const functionalDataProperty = (property: DataProperty, anns?: Anns): FunctionalDataProperty =>
  intern({ id: 0, kind: 'FunctionalDataProperty', property, annotations: annotationSet(anns) });

export const datatypeDefinition = (dt: Datatype, range: DataRange, anns?: Anns): DatatypeDefinition =>
  intern({ id: 0, kind: 'DatatypeDefinition', datatype: dt, range, annotations: annotationSet(anns) });
export function hasKey(
  c: ClassExpression,
  objectProperties: readonly ObjectPropertyExpression[],
  dataProperties: readonly DataProperty[],
  anns?: Anns,
): HasKey {
  const ops = asSet(objectProperties);
  const dps = asSet(dataProperties);
  return intern({ id: 0, kind: 'HasKey', cls: c, objectProperties: ops, dataProperties: dps, annotations: annotationSet(anns) });
}

export function sameIndividual(individuals: readonly Individual[], anns?: Anns): SameIndividual {
  const is = asSet(individuals);
  return intern({ id: 0, kind: 'SameIndividual', individuals: is, annotations: annotationSet(anns) });
}
export function differentIndividuals(individuals: readonly Individual[], anns?: Anns): DifferentIndividuals {
  const is = asBag(individuals);
  return intern({ id: 0, kind: 'DifferentIndividuals', individuals: is, annotations: annotationSet(anns) });
}
export const classAssertion = (c: ClassExpression, individual: Individual, anns?: Anns): ClassAssertion =>
  internFields(SHAPES.ClassAssertion, c, individual, annotationSet(anns));
export const objectPropertyAssertion = (
  property: ObjectPropertyExpression,
  subject: Individual,
  object: Individual,
  anns?: Anns,
): ObjectPropertyAssertion => internFields(SHAPES.ObjectPropertyAssertion, property, subject, object, annotationSet(anns));
export const negativeObjectPropertyAssertion = (
  property: ObjectPropertyExpression,
  subject: Individual,
  object: Individual,
  anns?: Anns,
): NegativeObjectPropertyAssertion =>
  intern({ id: 0, kind: 'NegativeObjectPropertyAssertion', property, subject, object, annotations: annotationSet(anns) });
export const dataPropertyAssertion = (property: DataProperty, subject: Individual, value: Literal, anns?: Anns): DataPropertyAssertion =>
  internFields(SHAPES.DataPropertyAssertion, property, subject, value, annotationSet(anns));
export const negativeDataPropertyAssertion = (
  property: DataProperty,
  subject: Individual,
  value: Literal,
  anns?: Anns,
): NegativeDataPropertyAssertion =>
  intern({ id: 0, kind: 'NegativeDataPropertyAssertion', property, subject, value, annotations: annotationSet(anns) });

export const annotationAssertion = (
  property: AnnotationProperty,
  subject: AnnotationSubject,
  value: AnnotationValue,
  anns?: Anns,
): AnnotationAssertion => internFields(SHAPES.AnnotationAssertion, property, subject, value, annotationSet(anns));
export const subAnnotationPropertyOf = (sub: AnnotationProperty, sup: AnnotationProperty, anns?: Anns): SubAnnotationPropertyOf =>
  intern({ id: 0, kind: 'SubAnnotationPropertyOf', sub, sup, annotations: annotationSet(anns) });
export const annotationPropertyDomain = (property: AnnotationProperty, domain: IRI, anns?: Anns): AnnotationPropertyDomain =>
  intern({ id: 0, kind: 'AnnotationPropertyDomain', property, domain, annotations: annotationSet(anns) });
export const annotationPropertyRange = (property: AnnotationProperty, range: IRI, anns?: Anns): AnnotationPropertyRange =>
  intern({ id: 0, kind: 'AnnotationPropertyRange', property, range, annotations: annotationSet(anns) });

export function dlSafeRule(body: readonly Atom[], head: readonly Atom[], anns?: Anns): DLSafeRule {
  const b = asSet(body);
  const h = asSet(head);
  return intern({ id: 0, kind: 'DLSafeRule', body: b, head: h, annotations: annotationSet(anns) });
}

// ---------------------------------------------------------------- structural helpers

/** The same axiom without its annotations (the logical core used to match annotated and plain forms). */
export function withAnnotations<A extends Axiom>(a: A, anns: readonly Annotation[]): A {
  return rebuildAxiom(a, anns) as A;
}
export function axiomWithoutAnnotations<A extends Axiom>(a: A): A {
  return a.annotations.length === 0 ? a : withAnnotations(a, NO_ANNOTATIONS);
}

function rebuildAxiom(a: Axiom, anns: readonly Annotation[]): Axiom {
  switch (a.kind) {
    case 'Declaration':
      return declaration(a.entity, anns);
    case 'SubClassOf':
      return subClassOf(a.sub, a.sup, anns);
    case 'EquivalentClasses':
      return equivalentClasses(a.classes, anns);
    case 'DisjointClasses':
      return disjointClasses(a.classes, anns);
    case 'DisjointUnion':
      return disjointUnion(a.cls, a.classes, anns);
    case 'SubObjectPropertyOf':
      return subObjectPropertyOf(a.sub, a.sup, anns);
    case 'SubPropertyChainOf':
      return subPropertyChainOf(a.chain, a.sup, anns);
    case 'EquivalentObjectProperties':
      return equivalentObjectProperties(a.properties, anns);
    case 'DisjointObjectProperties':
      return disjointObjectProperties(a.properties, anns);
    case 'InverseObjectProperties':
      return inverseObjectProperties(a.first, a.second, anns);
    case 'ObjectPropertyDomain':
      return objectPropertyDomain(a.property, a.domain, anns);
    case 'ObjectPropertyRange':
      return objectPropertyRange(a.property, a.range, anns);
    case 'FunctionalObjectProperty':
    case 'InverseFunctionalObjectProperty':
    case 'ReflexiveObjectProperty':
    case 'IrreflexiveObjectProperty':
    case 'SymmetricObjectProperty':
    case 'AsymmetricObjectProperty':
    case 'TransitiveObjectProperty':
      return objectPropertyCharacteristic(a.kind, a.property, anns);
    case 'SubDataPropertyOf':
      return subDataPropertyOf(a.sub, a.sup, anns);
    case 'EquivalentDataProperties':
      return equivalentDataProperties(a.properties, anns);
    case 'DisjointDataProperties':
      return disjointDataProperties(a.properties, anns);
    case 'DataPropertyDomain':
      return dataPropertyDomain(a.property, a.domain, anns);
    case 'DataPropertyRange':
      return dataPropertyRange(a.property, a.range, anns);
    case 'FunctionalDataProperty':
      return functionalDataProperty(a.property, anns);
    case 'DatatypeDefinition':
      return datatypeDefinition(a.datatype, a.range, anns);
    case 'HasKey':
      return hasKey(a.cls, a.objectProperties, a.dataProperties, anns);
    case 'SameIndividual':
      return sameIndividual(a.individuals, anns);
    case 'DifferentIndividuals':
      return differentIndividuals(a.individuals, anns);
    case 'ClassAssertion':
      return classAssertion(a.cls, a.individual, anns);
    case 'ObjectPropertyAssertion':
      return objectPropertyAssertion(a.property, a.subject, a.object, anns);
    case 'NegativeObjectPropertyAssertion':
      return negativeObjectPropertyAssertion(a.property, a.subject, a.object, anns);
    case 'DataPropertyAssertion':
      return dataPropertyAssertion(a.property, a.subject, a.value, anns);
    case 'NegativeDataPropertyAssertion':
      return negativeDataPropertyAssertion(a.property, a.subject, a.value, anns);
    case 'AnnotationAssertion':
      return annotationAssertion(a.property, a.subject, a.value, anns);
    case 'SubAnnotationPropertyOf':
      return subAnnotationPropertyOf(a.sub, a.sup, anns);
    case 'AnnotationPropertyDomain':
      return annotationPropertyDomain(a.property, a.domain, anns);
    case 'AnnotationPropertyRange':
      return annotationPropertyRange(a.property, a.range, anns);
    case 'DLSafeRule':
      return dlSafeRule(a.body, a.head, anns);
    default:
      return unreachable(a);
  }
}

export function isEntity(n: Node): n is Entity {
  switch (n.kind) {
    case 'Class':
    case 'ObjectProperty':
    case 'DataProperty':
    case 'AnnotationProperty':
    case 'NamedIndividual':
    case 'Datatype':
      return true;
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
    case 'SubObjectPropertyOf':
    case 'SubPropertyChainOf':
    case 'EquivalentObjectProperties':
    case 'DisjointObjectProperties':
    case 'InverseObjectProperties':
    case 'ObjectPropertyDomain':
    case 'ObjectPropertyRange':
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
    case 'DLSafeRule':
    case 'ObjectMinCardinality':
    case 'ObjectMaxCardinality':
    case 'ObjectExactCardinality':
    case 'DataMinCardinality':
    case 'DataMaxCardinality':
    case 'DataExactCardinality':
    case 'AnonymousIndividual':
    case 'Literal':
    case 'IRI':
    case 'ObjectInverseOf':
    case 'DataIntersectionOf':
    case 'DataUnionOf':
    case 'DataComplementOf':
    case 'DataOneOf':
    case 'DatatypeRestriction':
    case 'FacetRestriction':
    case 'ObjectIntersectionOf':
    case 'ObjectUnionOf':
    case 'ObjectComplementOf':
    case 'ObjectOneOf':
    case 'ObjectSomeValuesFrom':
    case 'ObjectAllValuesFrom':
    case 'ObjectHasValue':
    case 'ObjectHasSelf':
    case 'DataSomeValuesFrom':
    case 'DataAllValuesFrom':
    case 'DataHasValue':
    case 'Annotation':
    case 'Variable':
    case 'ClassAtom':
    case 'DataRangeAtom':
    case 'ObjectPropertyAtom':
    case 'DataPropertyAtom':
    case 'BuiltInAtom':
    case 'SameIndividualAtom':
    case 'DifferentIndividualsAtom':
      return false;
    default:
      return unreachable(n);
  }
}
