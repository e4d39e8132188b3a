// A compact, structured-clone-friendly encoding of a whole Ontology, so one parsed on a worker thread can
// be rebuilt on another: interned nodes (terms.ts) are per-thread objects and cannot cross threads.
//
// Layout: every distinct node once, in post-order, as a record in one Int32Array program:
//   kindCode, field...   where a node field is the index of an earlier record, a list field is its length
//   followed by that many record indexes, a string field is an index into the string table and a number
//   field is the number itself. The string table travels as one concatenated string plus an Int32Array of
//   lengths (one clone of a big string is far cheaper than cloning an array of many small ones).
// Decoding rebuilds each record once through the factory functions, so the result is interned on the
// decoding thread exactly as if it had been parsed there.

import * as t from './terms.js';
import type { Annotation, Axiom, IRI, Node } from './terms.js';
import { performance } from 'node:perf_hooks';
import { Ontology, type FormatId, type OntologyId, type UnmappedItem } from './ontology.js';

/** Encoded axioms: a program of records and the record indexes of the axioms, in order. */
export interface EncodedAxioms {
  readonly program: Int32Array;
  readonly strings: string;
  readonly stringLengths: Int32Array;
  readonly axioms: Int32Array;
}

/** The encoded ontology: plain data and typed arrays only. */
export interface EncodedOntology extends EncodedAxioms {
  /** Record indexes of the ontology annotations. */
  readonly annotations: Int32Array;
  readonly header: {
    readonly id: OntologyId;
    readonly imports: IRI[];
    readonly prefixes: [string, string][];
    readonly format: FormatId;
    readonly documentIri: string | null;
    readonly unmapped: UnmappedItem[];
  };
}

/** The buffers to pass as a transferList so postMessage moves rather than copies them. */
export function transferables(e: EncodedOntology): ArrayBuffer[] {
  return [e.program.buffer, e.stringLengths.buffer, e.axioms.buffer, e.annotations.buffer] as ArrayBuffer[];
}

// ---------------------------------------------------------------- record shapes
//
// Field types: n = node, l = list of nodes, s = string, k = short shared string, i = integer. `build` receives the decoded fields in
// order and calls the factory; annotations are the last field of every axiom, as the factories take them.

type Field = Node | readonly Node[] | string | number;
type Args = Field[];
interface Shape {
  readonly kind: Node['kind'];
  readonly fields: readonly string[];
  readonly types: string;
  readonly build: (a: Args) => Node;
}

/** Field `i`, typed by the factory parameter it is passed to (the table is checked by the round-trip test). */
const n = <T>(a: Args, i: number): T => a[i] as unknown as T;

const SHAPE_LIST: Shape[] = [
  ...t.ENTITY_KINDS.map((kind): Shape => ({ kind, fields: ['iri'], types: 's', build: (a) => t.entity(kind, a[0] as string) })),
  { kind: 'AnonymousIndividual', fields: ['nodeId'], types: 's', build: (a) => t.anonymousIndividual(a[0] as string) },
  { kind: 'IRI', fields: ['iri'], types: 's', build: (a) => t.iriNode(a[0] as string) },
  { kind: 'Variable', fields: ['iri'], types: 's', build: (a) => t.variable(a[0] as string) },
  {
    kind: 'Literal',
    fields: ['lex', 'datatype', 'lang'],
    types: 'skk',
    build: (a) => t.literal(a[0] as string, a[1] as string, a[2] as string),
  },
  { kind: 'ObjectInverseOf', fields: ['property'], types: 'n', build: (a) => t.objectInverseOf(n(a, 0)) },
  { kind: 'DataIntersectionOf', fields: ['operands'], types: 'l', build: (a) => t.dataIntersectionOf(n(a, 0)) },
  { kind: 'DataUnionOf', fields: ['operands'], types: 'l', build: (a) => t.dataUnionOf(n(a, 0)) },
  { kind: 'DataComplementOf', fields: ['operand'], types: 'n', build: (a) => t.dataComplementOf(n(a, 0)) },
  { kind: 'DataOneOf', fields: ['literals'], types: 'l', build: (a) => t.dataOneOf(n(a, 0)) },
  { kind: 'FacetRestriction', fields: ['facet', 'value'], types: 'kn', build: (a) => t.facetRestriction(n(a, 0), n(a, 1)) },
  { kind: 'DatatypeRestriction', fields: ['datatype', 'restrictions'], types: 'nl', build: (a) => t.datatypeRestriction(n(a, 0), n(a, 1)) },
  { kind: 'ObjectIntersectionOf', fields: ['operands'], types: 'l', build: (a) => t.objectIntersectionOf(n(a, 0)) },
  { kind: 'ObjectUnionOf', fields: ['operands'], types: 'l', build: (a) => t.objectUnionOf(n(a, 0)) },
  { kind: 'ObjectComplementOf', fields: ['operand'], types: 'n', build: (a) => t.objectComplementOf(n(a, 0)) },
  { kind: 'ObjectOneOf', fields: ['individuals'], types: 'l', build: (a) => t.objectOneOf(n(a, 0)) },
  { kind: 'ObjectSomeValuesFrom', fields: ['property', 'filler'], types: 'nn', build: (a) => t.objectSomeValuesFrom(n(a, 0), n(a, 1)) },
  { kind: 'ObjectAllValuesFrom', fields: ['property', 'filler'], types: 'nn', build: (a) => t.objectAllValuesFrom(n(a, 0), n(a, 1)) },
  { kind: 'ObjectHasValue', fields: ['property', 'individual'], types: 'nn', build: (a) => t.objectHasValue(n(a, 0), n(a, 1)) },
  { kind: 'ObjectHasSelf', fields: ['property'], types: 'n', build: (a) => t.objectHasSelf(n(a, 0)) },
  {
    kind: 'ObjectMinCardinality',
    fields: ['cardinality', 'property', 'filler'],
    types: 'inn',
    build: (a) => t.objectMinCardinality(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'ObjectMaxCardinality',
    fields: ['cardinality', 'property', 'filler'],
    types: 'inn',
    build: (a) => t.objectMaxCardinality(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'ObjectExactCardinality',
    fields: ['cardinality', 'property', 'filler'],
    types: 'inn',
    build: (a) => t.objectExactCardinality(n(a, 0), n(a, 1), n(a, 2)),
  },
  { kind: 'DataSomeValuesFrom', fields: ['property', 'filler'], types: 'nn', build: (a) => t.dataSomeValuesFrom(n(a, 0), n(a, 1)) },
  { kind: 'DataAllValuesFrom', fields: ['property', 'filler'], types: 'nn', build: (a) => t.dataAllValuesFrom(n(a, 0), n(a, 1)) },
  { kind: 'DataHasValue', fields: ['property', 'value'], types: 'nn', build: (a) => t.dataHasValue(n(a, 0), n(a, 1)) },
  {
    kind: 'DataMinCardinality',
    fields: ['cardinality', 'property', 'filler'],
    types: 'inn',
    build: (a) => t.dataMinCardinality(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'DataMaxCardinality',
    fields: ['cardinality', 'property', 'filler'],
    types: 'inn',
    build: (a) => t.dataMaxCardinality(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'DataExactCardinality',
    fields: ['cardinality', 'property', 'filler'],
    types: 'inn',
    build: (a) => t.dataExactCardinality(n(a, 0), n(a, 1), n(a, 2)),
  },
  { kind: 'Annotation', fields: ['property', 'value', 'annotations'], types: 'nnl', build: (a) => t.annotation(n(a, 0), n(a, 1), n(a, 2)) },
  { kind: 'ClassAtom', fields: ['cls', 'arg'], types: 'nn', build: (a) => t.classAtom(n(a, 0), n(a, 1)) },
  { kind: 'DataRangeAtom', fields: ['range', 'arg'], types: 'nn', build: (a) => t.dataRangeAtom(n(a, 0), n(a, 1)) },
  {
    kind: 'ObjectPropertyAtom',
    fields: ['property', 'first', 'second'],
    types: 'nnn',
    build: (a) => t.objectPropertyAtom(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'DataPropertyAtom',
    fields: ['property', 'first', 'second'],
    types: 'nnn',
    build: (a) => t.dataPropertyAtom(n(a, 0), n(a, 1), n(a, 2)),
  },
  { kind: 'BuiltInAtom', fields: ['iri', 'args'], types: 'sl', build: (a) => t.builtInAtom(n(a, 0), n(a, 1)) },
  { kind: 'SameIndividualAtom', fields: ['first', 'second'], types: 'nn', build: (a) => t.sameIndividualAtom(n(a, 0), n(a, 1)) },
  {
    kind: 'DifferentIndividualsAtom',
    fields: ['first', 'second'],
    types: 'nn',
    build: (a) => t.differentIndividualsAtom(n(a, 0), n(a, 1)),
  },
  // axioms
  { kind: 'Declaration', fields: ['entity', 'annotations'], types: 'nl', build: (a) => t.declaration(n(a, 0), n(a, 1)) },
  { kind: 'SubClassOf', fields: ['sub', 'sup', 'annotations'], types: 'nnl', build: (a) => t.subClassOf(n(a, 0), n(a, 1), n(a, 2)) },
  { kind: 'EquivalentClasses', fields: ['classes', 'annotations'], types: 'll', build: (a) => t.equivalentClasses(n(a, 0), n(a, 1)) },
  { kind: 'DisjointClasses', fields: ['classes', 'annotations'], types: 'll', build: (a) => t.disjointClasses(n(a, 0), n(a, 1)) },
  {
    kind: 'DisjointUnion',
    fields: ['cls', 'classes', 'annotations'],
    types: 'nll',
    build: (a) => t.disjointUnion(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'SubObjectPropertyOf',
    fields: ['sub', 'sup', 'annotations'],
    types: 'nnl',
    build: (a) => t.subObjectPropertyOf(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'SubPropertyChainOf',
    fields: ['chain', 'sup', 'annotations'],
    types: 'lnl',
    build: (a) => t.subPropertyChainOf(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'EquivalentObjectProperties',
    fields: ['properties', 'annotations'],
    types: 'll',
    build: (a) => t.equivalentObjectProperties(n(a, 0), n(a, 1)),
  },
  {
    kind: 'DisjointObjectProperties',
    fields: ['properties', 'annotations'],
    types: 'll',
    build: (a) => t.disjointObjectProperties(n(a, 0), n(a, 1)),
  },
  {
    kind: 'InverseObjectProperties',
    fields: ['first', 'second', 'annotations'],
    types: 'nnl',
    build: (a) => t.inverseObjectProperties(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'ObjectPropertyDomain',
    fields: ['property', 'domain', 'annotations'],
    types: 'nnl',
    build: (a) => t.objectPropertyDomain(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'ObjectPropertyRange',
    fields: ['property', 'range', 'annotations'],
    types: 'nnl',
    build: (a) => t.objectPropertyRange(n(a, 0), n(a, 1), n(a, 2)),
  },
  ...(
    [
      'FunctionalObjectProperty',
      'InverseFunctionalObjectProperty',
      'ReflexiveObjectProperty',
      'IrreflexiveObjectProperty',
      'SymmetricObjectProperty',
      'AsymmetricObjectProperty',
      'TransitiveObjectProperty',
    ] as const
  ).map((kind): Shape => ({
    kind,
    fields: ['property', 'annotations'],
    types: 'nl',
    build: (a) => t.objectPropertyCharacteristic(kind, n(a, 0), n(a, 1)),
  })),
  {
    kind: 'SubDataPropertyOf',
    fields: ['sub', 'sup', 'annotations'],
    types: 'nnl',
    build: (a) => t.subDataPropertyOf(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'EquivalentDataProperties',
    fields: ['properties', 'annotations'],
    types: 'll',
    build: (a) => t.equivalentDataProperties(n(a, 0), n(a, 1)),
  },
  {
    kind: 'DisjointDataProperties',
    fields: ['properties', 'annotations'],
    types: 'll',
    build: (a) => t.disjointDataProperties(n(a, 0), n(a, 1)),
  },
  {
    kind: 'DataPropertyDomain',
    fields: ['property', 'domain', 'annotations'],
    types: 'nnl',
    build: (a) => t.dataPropertyDomain(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'DataPropertyRange',
    fields: ['property', 'range', 'annotations'],
    types: 'nnl',
    build: (a) => t.dataPropertyRange(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'FunctionalDataProperty',
    fields: ['property', 'annotations'],
    types: 'nl',
    build: (a) => t.functionalDataProperty(n(a, 0), n(a, 1)),
  },
  {
    kind: 'DatatypeDefinition',
    fields: ['datatype', 'range', 'annotations'],
    types: 'nnl',
    build: (a) => t.datatypeDefinition(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'HasKey',
    fields: ['cls', 'objectProperties', 'dataProperties', 'annotations'],
    types: 'nlll',
    build: (a) => t.hasKey(n(a, 0), n(a, 1), n(a, 2), n(a, 3)),
  },
  { kind: 'SameIndividual', fields: ['individuals', 'annotations'], types: 'll', build: (a) => t.sameIndividual(n(a, 0), n(a, 1)) },
  {
    kind: 'DifferentIndividuals',
    fields: ['individuals', 'annotations'],
    types: 'll',
    build: (a) => t.differentIndividuals(n(a, 0), n(a, 1)),
  },
  {
    kind: 'ClassAssertion',
    fields: ['cls', 'individual', 'annotations'],
    types: 'nnl',
    build: (a) => t.classAssertion(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'ObjectPropertyAssertion',
    fields: ['property', 'subject', 'object', 'annotations'],
    types: 'nnnl',
    build: (a) => t.objectPropertyAssertion(n(a, 0), n(a, 1), n(a, 2), n(a, 3)),
  },
  {
    kind: 'NegativeObjectPropertyAssertion',
    fields: ['property', 'subject', 'object', 'annotations'],
    types: 'nnnl',
    build: (a) => t.negativeObjectPropertyAssertion(n(a, 0), n(a, 1), n(a, 2), n(a, 3)),
  },
  {
    kind: 'DataPropertyAssertion',
    fields: ['property', 'subject', 'value', 'annotations'],
    types: 'nnnl',
    build: (a) => t.dataPropertyAssertion(n(a, 0), n(a, 1), n(a, 2), n(a, 3)),
  },
  {
    kind: 'NegativeDataPropertyAssertion',
    fields: ['property', 'subject', 'value', 'annotations'],
    types: 'nnnl',
    build: (a) => t.negativeDataPropertyAssertion(n(a, 0), n(a, 1), n(a, 2), n(a, 3)),
  },
  {
    kind: 'AnnotationAssertion',
    fields: ['property', 'subject', 'value', 'annotations'],
    types: 'nnnl',
    build: (a) => t.annotationAssertion(n(a, 0), n(a, 1), n(a, 2), n(a, 3)),
  },
  {
    kind: 'SubAnnotationPropertyOf',
    fields: ['sub', 'sup', 'annotations'],
    types: 'nnl',
    build: (a) => t.subAnnotationPropertyOf(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'AnnotationPropertyDomain',
    fields: ['property', 'domain', 'annotations'],
    types: 'nsl',
    build: (a) => t.annotationPropertyDomain(n(a, 0), n(a, 1), n(a, 2)),
  },
  {
    kind: 'AnnotationPropertyRange',
    fields: ['property', 'range', 'annotations'],
    types: 'nsl',
    build: (a) => t.annotationPropertyRange(n(a, 0), n(a, 1), n(a, 2)),
  },
  { kind: 'DLSafeRule', fields: ['body', 'head', 'annotations'], types: 'lll', build: (a) => t.dlSafeRule(n(a, 0), n(a, 1), n(a, 2)) },
];

const CODE_BY_KIND = new Map<string, number>(SHAPE_LIST.map((s, i) => [s.kind, i]));

// ---------------------------------------------------------------- encoding

/** A growable Int32 buffer (the program's final size is unknown until the walk ends). */
class IntBuffer {
  data = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  /** A view of the filled part; transferring its buffer moves the whole allocation without a copy. */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

class Encoder {
  /** Record index + 1 by node id (ids are small per-thread integers; 0 = not yet encoded). */
  private recordById = new Int32Array(1024);
  private recordCount = 0;
  readonly program = new IntBuffer();
  /** Only short repeated strings (datatypes, language tags, facets) are shared; IRIs and lexical forms
   *  already occur once per distinct leaf record, so looking them up would cost more than it saves. */
  private readonly sharedIndex = new Map<string, number>();
  private readonly stringParts: string[] = [];
  readonly stringLengths = new IntBuffer();

  private record(x: Node): number {
    return x.id < this.recordById.length ? this.recordById[x.id] - 1 : -1;
  }

  private remember(x: Node, index: number): void {
    if (x.id >= this.recordById.length) {
      const bigger = new Int32Array(Math.max(x.id + 1, this.recordById.length * 2));
      bigger.set(this.recordById);
      this.recordById = bigger;
    }
    this.recordById[x.id] = index + 1;
  }

  /** The record index of a node, emitting it (after its children: post-order) on first sight. */
  node(x: Node): number {
    const known = this.record(x);
    if (known >= 0) return known;
    const code = CODE_BY_KIND.get(x.kind)!;
    const shape = SHAPE_LIST[code];
    const fields = x as unknown as Record<string, Field>;
    for (let f = 0; f < shape.fields.length; f++) {
      const type = shape.types.charCodeAt(f);
      const value = fields[shape.fields[f]];
      if (type === N) this.node(value as Node);
      else if (type === L) for (const c of value as readonly Node[]) this.node(c);
    }
    const p = this.program;
    p.push(code);
    for (let f = 0; f < shape.fields.length; f++) {
      const type = shape.types.charCodeAt(f);
      const value = fields[shape.fields[f]];
      if (type === N) p.push(this.record(value as Node));
      else if (type === S) p.push(this.string(value as string));
      else if (type === K) p.push(this.shared(value as string));
      else if (type === I) p.push(value as number);
      else {
        const list = value as readonly Node[];
        p.push(list.length);
        for (const c of list) p.push(this.record(c));
      }
    }
    const index = this.recordCount++;
    this.remember(x, index);
    return index;
  }

  private string(s: string): number {
    this.stringParts.push(s);
    this.stringLengths.push(s.length);
    return this.stringParts.length - 1;
  }

  private shared(s: string): number {
    let i = this.sharedIndex.get(s);
    if (i === undefined) {
      i = this.string(s);
      this.sharedIndex.set(s, i);
    }
    return i;
  }

  strings(): string {
    return this.stringParts.join('');
  }
}

const N = 'n'.charCodeAt(0);
const L = 'l'.charCodeAt(0);
const S = 's'.charCodeAt(0);
const I = 'i'.charCodeAt(0);
const K = 'k'.charCodeAt(0);

function nodeIndexes(e: Encoder, nodes: Iterable<Node>, count: number): Int32Array {
  const out = new Int32Array(count);
  let i = 0;
  for (const x of nodes) out[i++] = e.node(x);
  return out;
}

/** Encodes a list of axioms (a reasoner's input, or a batch of changes to it). */
export function encodeAxioms(axioms: readonly Axiom[]): EncodedAxioms {
  const e = new Encoder();
  const indexes = nodeIndexes(e, axioms, axioms.length);
  return { program: e.program.view(), strings: e.strings(), stringLengths: e.stringLengths.view(), axioms: indexes };
}

/** Encodes the ontology's axioms and whole header. */
export function encodeOntology(o: Ontology): EncodedOntology {
  const e = new Encoder();
  const axioms = nodeIndexes(e, o.axioms(), o.axiomCount);
  const annotations = nodeIndexes(e, o.annotations, o.annotations.size);
  return {
    program: e.program.view(),
    strings: e.strings(),
    stringLengths: e.stringLengths.view(),
    axioms,
    annotations,
    header: {
      id: { iri: o.id.iri, versionIri: o.id.versionIri },
      imports: [...o.imports],
      prefixes: [...o.prefixes],
      format: o.format,
      documentIri: o.documentIri,
      unmapped: o.unmapped.map((u) => ({ text: u.text, reason: u.reason })),
    },
  };
}

// ---------------------------------------------------------------- decoding

function splitStrings(all: string, lengths: Int32Array): string[] {
  const out = new Array<string>(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    out[i] = all.slice(at, at + lengths[i]);
    at += lengths[i];
  }
  return out;
}

/** Rebuilds records through the factories, a slice at a time, so a caller can yield between slices. */
class Decoder {
  readonly nodes: Node[] = [];
  private pc = 0;
  private readonly strings: string[];

  constructor(private readonly e: EncodedAxioms) {
    this.strings = splitStrings(e.strings, e.stringLengths);
  }

  get done(): boolean {
    return this.pc >= this.e.program.length;
  }

  /** Decodes up to `records` more records. */
  step(records: number): void {
    const { program } = this.e;
    const { nodes, strings } = this;
    let pc = this.pc;
    for (let r = 0; r < records && pc < program.length; r++) {
      const shape = SHAPE_LIST[program[pc++]];
      if (shape === undefined) throw new Error(`corrupt ontology encoding at ${pc - 1}`);
      const types = shape.types;
      const args: Args = new Array(types.length);
      for (let f = 0; f < types.length; f++) {
        const type = types.charCodeAt(f);
        const v = program[pc++];
        if (type === N) args[f] = nodes[v];
        else if (type === S || type === K) args[f] = strings[v];
        else if (type === I) args[f] = v;
        else {
          const list = new Array<Node>(v);
          for (let k = 0; k < v; k++) list[k] = nodes[program[pc++]];
          args[f] = list;
        }
      }
      nodes.push(shape.build(args));
    }
    this.pc = pc;
  }

  axioms(): Axiom[] {
    return Array.from(this.e.axioms, (i) => this.nodes[i] as Axiom);
  }

  ontology(e: EncodedOntology): Ontology {
    const { nodes } = this;
    const o = new Ontology();
    const h = e.header;
    o.id = h.id.iri === null && h.id.versionIri === null ? o.id : { iri: h.id.iri, versionIri: h.id.versionIri };
    for (const iri of h.imports) o.imports.add(iri);
    for (const i of e.annotations) o.annotations.add(nodes[i] as Annotation);
    for (const [prefix, ns] of h.prefixes) o.prefixes.set(prefix, ns);
    o.format = h.format;
    o.documentIri = h.documentIri;
    o.unmapped = h.unmapped;
    for (const i of e.axioms) o.add(nodes[i] as Axiom);
    return o;
  }
}

/** Rebuilds the ontology on the calling thread (its nodes interned here). */
export function decodeOntology(e: EncodedOntology): Ontology {
  const d = new Decoder(e);
  d.step(Infinity);
  return d.ontology(e);
}

/** Rebuilds encoded axioms on the calling thread (interned here: equal axioms are the same objects). */
export function decodeAxioms(e: EncodedAxioms): Axiom[] {
  const d = new Decoder(e);
  d.step(Infinity);
  return d.axioms();
}

/** Records decoded between clock checks. */
const SLICE_RECORDS = 2048;

/**
 * decodeOntology, yielding to the event loop whenever a slice has run `sliceMs`, so a thread that serves
 * other requests is never blocked for long by a large document.
 */
export async function decodeOntologyYielding(e: EncodedOntology, sliceMs = 10): Promise<Ontology> {
  const d = new Decoder(e);
  let sliceStart = performance.now();
  while (!d.done) {
    d.step(SLICE_RECORDS);
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return d.ontology(e);
}
