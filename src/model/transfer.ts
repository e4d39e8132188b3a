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
import type { Annotation, Axiom, FieldType, IRI, Kind, Node } from './terms.js';
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
// One record shape per kind, derived from the construct table (terms.ts), whose order gives the kind codes.
// Field types: n = node, l = list of nodes, s = string, k = short shared string, i = integer. A record's
// fields are decoded in table order and passed to the kind's factory.

type Field = Node | readonly Node[] | string | number;
interface Shape {
  readonly kind: Kind;
  readonly fields: readonly string[];
  readonly types: string;
}

function typeLetter(type: FieldType): string {
  switch (type) {
    case 'number':
      return 'i';
    case 'token':
      return 'k';
    case 'iri':
    case 'string':
      return 's';
    case 'annotations':
      return 'l';
    default:
      return type.includes(' ') ? 'l' : 'n';
  }
}

const SHAPE_LIST: readonly Shape[] = t.KINDS.map((kind) => ({
  kind,
  fields: t.fieldsOf(kind).map(([name]) => name),
  types: t
    .fieldsOf(kind)
    .map(([, type]) => typeLetter(type))
    .join(''),
}));

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
    return x.id < this.recordById.length ? this.recordById[x.id]! - 1 : -1;
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
    // code is the shape's index in SHAPE_LIST, and a node has every field of its shape.
    const shape = SHAPE_LIST[code]!;
    const fields = x as unknown as Record<string, Field>;
    for (let f = 0; f < shape.fields.length; f++) {
      const type = shape.types.charCodeAt(f);
      const value = fields[shape.fields[f]!]!;
      if (type === N) this.node(value as Node);
      else if (type === L) for (const c of value as readonly Node[]) this.node(c);
    }
    const p = this.program;
    p.push(code);
    for (let f = 0; f < shape.fields.length; f++) {
      const type = shape.types.charCodeAt(f);
      const value = fields[shape.fields[f]!]!;
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
  for (const [i, length] of lengths.entries()) {
    out[i] = all.slice(at, at + length);
    at += length;
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
      const shape = SHAPE_LIST[program[pc++]!];
      if (shape === undefined) throw new Error(`corrupt ontology encoding at ${pc - 1}`);
      const types = shape.types;
      const args = new Array<Field>(types.length);
      // The encoder wrote every field of the record, each node before the records that use it, and the
      // string table the indexes read.
      for (let f = 0; f < types.length; f++) {
        const type = types.charCodeAt(f);
        const v = program[pc++]!;
        if (type === N) args[f] = nodes[v]!;
        else if (type === S || type === K) args[f] = strings[v]!;
        else if (type === I) args[f] = v;
        else {
          const list = new Array<Node>(v);
          for (let k = 0; k < v; k++) list[k] = nodes[program[pc++]!]!;
          args[f] = list;
        }
      }
      nodes.push(t.build(shape.kind, args));
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
