// OWL/XML reader (W3C "OWL 2 Web Ontology Language XML Serialization"), streaming through saxes.
//
// Elements are built bottom-up: each open tag pushes a frame, each close tag turns the frame and the
// values of its children into a model node, which goes to the parent frame (or, for axioms and
// annotations directly under <Ontology>, into the ontology). Only the open path is held in memory.

import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { Ontology } from '../../ontology.js';
import { ParseError } from '../errors.js';
import { OWL, RDF_PLAIN_LITERAL, STANDARD_PREFIXES, XSD_STRING } from '../../vocab.js';
import {
  type Annotation,
  type AnnotationProperty,
  type AnnotationSubject,
  type AnnotationValue,
  type Atom,
  type Axiom,
  type Class,
  type ClassExpression,
  type DArg,
  type DataProperty,
  type DataRange,
  type Datatype,
  type Entity,
  type FacetRestriction,
  type IArg,
  type Individual,
  type Literal,
  type Node,
  type ObjectProperty,
  type ObjectPropertyExpression,
  AXIOM_KINDS,
  annotation,
  annotationAssertion,
  annotationProperty,
  annotationPropertyDomain,
  annotationPropertyRange,
  anonymousIndividual,
  builtInAtom,
  classAssertion,
  classAtom,
  cls,
  dataAllValuesFrom,
  dataComplementOf,
  dataExactCardinality,
  dataHasValue,
  dataIntersectionOf,
  dataMaxCardinality,
  dataMinCardinality,
  dataOneOf,
  dataProperty,
  dataPropertyAssertion,
  dataPropertyAtom,
  dataPropertyDomain,
  dataPropertyRange,
  dataRangeAtom,
  dataSomeValuesFrom,
  dataUnionOf,
  datatype,
  datatypeDefinition,
  datatypeRestriction,
  declaration,
  differentIndividuals,
  differentIndividualsAtom,
  disjointClasses,
  disjointDataProperties,
  disjointObjectProperties,
  disjointUnion,
  dlSafeRule,
  equivalentClasses,
  equivalentDataProperties,
  equivalentObjectProperties,
  facetRestriction,
  functionalDataProperty,
  hasKey,
  inverseObjectProperties,
  iriNode,
  literal,
  namedIndividual,
  negativeDataPropertyAssertion,
  negativeObjectPropertyAssertion,
  objectAllValuesFrom,
  objectComplementOf,
  objectExactCardinality,
  objectHasSelf,
  objectHasValue,
  objectIntersectionOf,
  objectInverseOf,
  objectMaxCardinality,
  objectMinCardinality,
  objectOneOf,
  objectProperty,
  objectPropertyAssertion,
  objectPropertyAtom,
  objectPropertyCharacteristic,
  objectPropertyDomain,
  objectPropertyRange,
  objectSomeValuesFrom,
  objectUnionOf,
  sameIndividual,
  sameIndividualAtom,
  subAnnotationPropertyOf,
  subClassOf,
  subDataPropertyOf,
  subObjectPropertyOf,
  subPropertyChainOf,
  variable,
  documentScope,
  type CharacteristicKind,
} from '../../terms.js';
import { resolveIri } from './resolve-iri.js';
import { declareBoundedEntities } from '../xml-entities.js';
import { MAX_EXPRESSION_NESTING, nestingLimitDetail } from '../nesting.js';

export interface ReadOwlXmlOptions {
  /** Document base IRI, used when the document has no xml:base. */
  base?: string | undefined;
}

/** Values children hand to their parent: model nodes, plus the few purely syntactic groupings. */
type Value = Node | { readonly kind: 'Chain'; readonly chain: readonly ObjectPropertyExpression[] } | RuleGroup;
interface RuleGroup {
  readonly kind: 'Body' | 'Head';
  readonly atoms: readonly Atom[];
}

interface Frame {
  readonly name: string;
  readonly attrs: Record<string, string>;
  /** Namespace bindings in scope (prefix → IRI; '' is the default namespace). */
  readonly ns: ReadonlyMap<string, string>;
  readonly kids: Value[];
  readonly base: string | null;
  readonly line: number;
  readonly column: number;
  text: string;
}

const TEXT_ELEMENTS = new Set(['IRI', 'AbbreviatedIRI', 'Literal', 'Import']);

const CE_KINDS = new Set<string>([
  'Class',
  'ObjectIntersectionOf',
  'ObjectUnionOf',
  'ObjectComplementOf',
  'ObjectOneOf',
  'ObjectSomeValuesFrom',
  'ObjectAllValuesFrom',
  'ObjectHasValue',
  'ObjectHasSelf',
  'ObjectMinCardinality',
  'ObjectMaxCardinality',
  'ObjectExactCardinality',
  'DataSomeValuesFrom',
  'DataAllValuesFrom',
  'DataHasValue',
  'DataMinCardinality',
  'DataMaxCardinality',
  'DataExactCardinality',
]);
const DR_KINDS = new Set<string>(['Datatype', 'DataIntersectionOf', 'DataUnionOf', 'DataComplementOf', 'DataOneOf', 'DatatypeRestriction']);
const OPE_KINDS = new Set<string>(['ObjectProperty', 'ObjectInverseOf']);
const INDIVIDUAL_KINDS = new Set<string>(['NamedIndividual', 'AnonymousIndividual']);
const ENTITY_KINDS = new Set<string>(['Class', 'ObjectProperty', 'DataProperty', 'AnnotationProperty', 'NamedIndividual', 'Datatype']);
const ANN_SUBJECT_KINDS = new Set<string>(['IRI', 'AnonymousIndividual']);
const ANN_VALUE_KINDS = new Set<string>(['IRI', 'AnonymousIndividual', 'Literal']);
const IARG_KINDS = new Set<string>(['Variable', 'NamedIndividual', 'AnonymousIndividual']);
const DARG_KINDS = new Set<string>(['Variable', 'Literal']);
const ATOM_KINDS = new Set<string>([
  'ClassAtom',
  'DataRangeAtom',
  'ObjectPropertyAtom',
  'DataPropertyAtom',
  'BuiltInAtom',
  'SameIndividualAtom',
  'DifferentIndividualsAtom',
]);
const AXIOM_KIND_SET = new Set<string>(AXIOM_KINDS);

const CHARACTERISTICS = new Set<string>([
  'FunctionalObjectProperty',
  'InverseFunctionalObjectProperty',
  'ReflexiveObjectProperty',
  'IrreflexiveObjectProperty',
  'SymmetricObjectProperty',
  'AsymmetricObjectProperty',
  'TransitiveObjectProperty',
]);

/** Parses an OWL/XML document. Throws ParseError (with line and column) for malformed or non-OWL/XML input. */
export function readOwlXml(text: string, options: ReadOwlXmlOptions = {}): Ontology {
  return new OwlXmlReader(options.base ?? null).parse(text);
}

class OwlXmlReader {
  private readonly o = new Ontology();
  private readonly stack: Frame[] = [];
  // namespaces are resolved here rather than by saxes: its namespace mode costs a sixth of the parse
  private readonly parser = new SaxesParser({ position: true });
  /** Prefix elements only: XML namespace declarations are not OWL prefixes (the OWL API maps xmlns to ':'). */
  private readonly declaredPrefixes = new Map<string, string>();
  private sawRoot = false;

  /** Prefix of this document's blank-node labels (nodeIDs are local to their document). */
  readonly scope = 'owx' + documentScope() + '_';

  constructor(private readonly documentBase: string | null) {}

  parse(text: string): Ontology {
    const p = this.parser;
    p.on('error', (e) => {
      throw new ParseError('owlxml', e.message.replace(/^(?:[^:]*:)?\d+:\d+: /, ''), p.line, p.column + 1);
    });
    p.on('doctype', (dt) => this.declareEntities(dt, text.length));
    p.on('opentag', (tag) => this.open(tag as SaxesTagPlain));
    p.on('closetag', () => this.close());
    p.on('text', (t) => this.text(t));
    p.on('cdata', (t) => this.text(t));
    p.write(text).close();
    if (!this.sawRoot) throw new ParseError('owlxml', 'no Ontology element');
    this.o.format = 'owlxml';
    for (const [k, v] of STANDARD_PREFIXES) this.o.prefixes.set(k, v);
    for (const [k, v] of this.declaredPrefixes) this.o.prefixes.set(k, v);
    return this.o;
  }

  /** Internal DTD subset entities (`<!ENTITY xsd "...">`), which OWL/XML documents use in IRIs. */
  private declareEntities(doctype: string, documentLength: number): void {
    declareBoundedEntities(doctype, this.parser.ENTITIES, documentLength, (detail) => this.fail(detail));
  }

  private fail(detail: string, f?: { line: number; column: number }): never {
    throw new ParseError('owlxml', detail, f?.line ?? this.parser.line, f?.column ?? this.parser.column + 1);
  }

  private open(tag: SaxesTagPlain): void {
    // saxes reports the position after the tag; the start line is close enough for large documents
    const line = this.parser.line;
    const column = this.parser.column + 1;
    const parent = this.stack.length ? this.stack[this.stack.length - 1] : null;
    if (this.stack.length === MAX_EXPRESSION_NESTING) this.fail(nestingLimitDetail('elements'), { line, column });
    const ns = scope(parent ? parent.ns : ROOT_SCOPE, tag.attributes);
    const colon = tag.name.indexOf(':');
    const local = colon < 0 ? tag.name : tag.name.slice(colon + 1);
    if (ns.get(colon < 0 ? '' : tag.name.slice(0, colon)) !== OWL) {
      this.fail(`element <${tag.name}> is not in the OWL namespace ${OWL}`, { line, column });
    }
    const xmlBase = tag.attributes['xml:base'];
    const outer = parent ? parent.base : this.documentBase;
    const base = xmlBase !== undefined ? resolveIri(xmlBase, outer) : outer;
    const frame: Frame = { name: local, attrs: tag.attributes, ns, kids: [], base, line, column, text: '' };
    if (parent === null) {
      if (local !== 'Ontology') this.fail(`root element must be Ontology, found ${local}`, frame);
      this.openOntology(frame);
    } else if (!BUILDERS.has(local) && !CONTEXT_ONLY.has(local)) {
      this.fail(`unknown OWL/XML element <${local}>`, frame);
    }
    this.stack.push(frame);
  }

  private openOntology(f: Frame): void {
    this.sawRoot = true;
    const iri = f.attrs.ontologyIRI;
    const version = f.attrs.versionIRI;
    this.o.id = {
      iri: iri ? resolveIri(iri, f.base) : null,
      versionIri: version ? resolveIri(version, f.base) : null,
    };
  }

  private text(t: string): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) return;
    if (TEXT_ELEMENTS.has(top.name)) top.text += t;
    else if (!isBlank(t)) this.fail(`unexpected text inside <${top.name}>`);
  }

  private close(): void {
    const f = this.stack.pop()!;
    const parent = this.stack[this.stack.length - 1];
    if (parent === undefined) return; // </Ontology>
    if (parent.name === 'Ontology') {
      this.ontologyChild(f);
      return;
    }
    const build = BUILDERS.get(f.name);
    if (build === undefined) this.fail(`<${f.name}> is not allowed inside <${parent.name}>`, f);
    parent.kids.push(build(this, f));
  }

  private ontologyChild(f: Frame): void {
    switch (f.name) {
      case 'Prefix': {
        const name = f.attrs.name;
        const iri = f.attrs.IRI;
        if (name === undefined || iri === undefined) this.fail('Prefix needs the attributes name and IRI', f);
        this.declaredPrefixes.set(name + ':', iri);
        return;
      }
      case 'Import':
        this.o.imports.add(resolveIri(f.text.trim(), f.base));
        return;
      case 'Annotation':
        this.o.annotations.add(buildAnnotation(this, f));
        return;
    }
    const build = BUILDERS.get(f.name);
    if (build === undefined) this.fail(`<${f.name}> is not allowed directly inside <Ontology>`, f);
    const v = build(this, f);
    if (!AXIOM_KIND_SET.has(v.kind)) this.fail(`<${f.name}> is not an axiom`, f);
    this.o.add(v as Axiom);
  }

  /** The IRI named by an element's `IRI` or `abbreviatedIRI` attribute. */
  attrIri(f: Frame, attr = 'IRI'): string {
    const full = f.attrs[attr];
    if (full !== undefined) return resolveIri(full, f.base);
    const abbreviated = f.attrs.abbreviatedIRI;
    if (abbreviated !== undefined) return this.expand(abbreviated, f);
    this.fail(`<${f.name}> needs an ${attr} or abbreviatedIRI attribute`, f);
  }

  expand(curie: string, f: Frame): string {
    const colon = curie.indexOf(':');
    if (colon < 0) this.fail(`abbreviated IRI "${curie}" has no prefix`, f);
    const key = curie.slice(0, colon + 1);
    const ns = this.declaredPrefixes.get(key) ?? STANDARD.get(key);
    if (ns === undefined) this.fail(`unknown prefix "${key}" in abbreviated IRI "${curie}"`, f);
    return ns + curie.slice(colon + 1);
  }

  resolve(ref: string, f: Frame): string {
    return resolveIri(ref, f.base);
  }

  error(detail: string, f: Frame): never {
    this.fail(detail, f);
  }
}

const STANDARD = new Map(STANDARD_PREFIXES);
const ROOT_SCOPE: ReadonlyMap<string, string> = new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]);

/** The namespace scope of an element: the parent's, extended by its own xmlns attributes if it has any. */
function scope(outer: ReadonlyMap<string, string>, attrs: Record<string, string>): ReadonlyMap<string, string> {
  let inner: Map<string, string> | null = null;
  for (const name in attrs) {
    if (!name.startsWith('xmlns')) continue;
    if (name.length > 5 && name.charCodeAt(5) !== 58) continue;
    inner ??= new Map(outer);
    inner.set(name.length === 5 ? '' : name.slice(6), attrs[name]!); // name is a key of attrs
  }
  return inner ?? outer;
}
/** Elements only meaningful directly under <Ontology>. */
const CONTEXT_ONLY = new Set(['Prefix', 'Import']);

function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}

// ---------------------------------------------------------------- child checking

type R = OwlXmlReader;

function expectKind<T>(r: R, f: Frame, v: Value | undefined, kinds: ReadonlySet<string>, what: string): T {
  if (v === undefined) r.error(`<${f.name}>: missing ${what}`, f);
  if (!kinds.has(v.kind)) r.error(`<${f.name}>: expected ${what}, found ${v.kind}`, f);
  return v as T;
}
const ce = (r: R, f: Frame, v: Value | undefined) => expectKind<ClassExpression>(r, f, v, CE_KINDS, 'a class expression');
const dr = (r: R, f: Frame, v: Value | undefined) => expectKind<DataRange>(r, f, v, DR_KINDS, 'a data range');
const ope = (r: R, f: Frame, v: Value | undefined) =>
  expectKind<ObjectPropertyExpression>(r, f, v, OPE_KINDS, 'an object property expression');
const ind = (r: R, f: Frame, v: Value | undefined) => expectKind<Individual>(r, f, v, INDIVIDUAL_KINDS, 'an individual');
const one = <T>(kind: string, what: string) => {
  const kinds = new Set([kind]);
  return (r: R, f: Frame, v: Value | undefined) => expectKind<T>(r, f, v, kinds, what);
};
const dp = one<DataProperty>('DataProperty', 'a data property');
const ap = one<AnnotationProperty>('AnnotationProperty', 'an annotation property');
const lit = one<Literal>('Literal', 'a literal');
const klass = one<Class>('Class', 'a class');
const dtype = one<Datatype>('Datatype', 'a datatype');
const iriValue = one<{ iri: string }>('IRI', 'an IRI');
const facet = one<FacetRestriction>('FacetRestriction', 'a facet restriction');
const iarg = (r: R, f: Frame, v: Value | undefined) => expectKind<IArg>(r, f, v, IARG_KINDS, 'an individual or variable');
const darg = (r: R, f: Frame, v: Value | undefined) => expectKind<DArg>(r, f, v, DARG_KINDS, 'a literal or variable');

/** Splits leading <Annotation> children (axiom annotations) from the operands. */
function split(f: Frame): { anns: Annotation[]; ops: Value[] } {
  let i = 0;
  while (i < f.kids.length && f.kids[i]!.kind === 'Annotation') i++;
  return { anns: f.kids.slice(0, i) as Annotation[], ops: i === 0 ? f.kids : f.kids.slice(i) };
}

function arity(r: R, f: Frame, ops: Value[], min: number, max = min): void {
  if (ops.length < min || ops.length > max) {
    const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    r.error(`<${f.name}> expects ${expected} operands, found ${ops.length}`, f);
  }
}

function list<T>(r: R, f: Frame, ops: Value[], min: number, check: (r: R, f: Frame, v: Value) => T): T[] {
  arity(r, f, ops, min, Infinity);
  const out: T[] = new Array(ops.length);
  for (const [i, op] of ops.entries()) out[i] = check(r, f, op);
  return out;
}

function cardinality(r: R, f: Frame): number {
  const s = f.attrs.cardinality;
  if (s === undefined) r.error(`<${f.name}> needs a cardinality attribute`, f);
  const t = s.trim();
  if (!/^\d+$/.test(t)) r.error(`<${f.name}>: cardinality "${s}" is not a non-negative integer`, f);
  return Number(t);
}

// ---------------------------------------------------------------- builders

// OWL 2 asks for two or more operands in n-ary constructs, but the model collapses duplicates
// (EquivalentClasses(A A) is EquivalentClasses(A)), so one operand is accepted to read back what was written.

type Builder = (r: R, f: Frame) => Value;

function buildAnnotation(r: R, f: Frame): Annotation {
  const { anns, ops } = split(f);
  arity(r, f, ops, 2);
  return annotation(ap(r, f, ops[0]), expectKind<AnnotationValue>(r, f, ops[1], ANN_VALUE_KINDS, 'an annotation value'), anns);
}

function buildLiteral(r: R, f: Frame): Literal {
  const lang = f.attrs['xml:lang'];
  if (lang) return literal(f.text, undefined, lang);
  const dt = f.attrs.datatypeIRI;
  if (dt === undefined) return literal(f.text, XSD_STRING);
  const iri = r.resolve(dt, f);
  // rdf:PlainLiteral without a language tag is an xsd:string (OWL 2 datatype map)
  return literal(f.text, iri === RDF_PLAIN_LITERAL ? XSD_STRING : iri);
}

const entityBuilder =
  (make: (iri: string) => Entity): Builder =>
  (r, f) =>
    make(r.attrIri(f));

const characteristic: Builder = (r, f) => {
  const { anns, ops } = split(f);
  arity(r, f, ops, 1);
  return objectPropertyCharacteristic(f.name as CharacteristicKind, ope(r, f, ops[0]), anns);
};

type ObjectCardinalityMaker = (n: number, p: ObjectPropertyExpression, filler?: ClassExpression) => ClassExpression;
function objectCardinalityBuilder(make: ObjectCardinalityMaker): Builder {
  return (r, f) => {
    arity(r, f, f.kids, 1, 2);
    const p = ope(r, f, f.kids[0]);
    return f.kids.length === 2 ? make(cardinality(r, f), p, ce(r, f, f.kids[1])) : make(cardinality(r, f), p);
  };
}

type DataCardinalityMaker = (n: number, p: DataProperty, filler?: DataRange) => ClassExpression;
function dataCardinalityBuilder(make: DataCardinalityMaker): Builder {
  return (r, f) => {
    arity(r, f, f.kids, 1, 2);
    const p = dp(r, f, f.kids[0]);
    return f.kids.length === 2 ? make(cardinality(r, f), p, dr(r, f, f.kids[1])) : make(cardinality(r, f), p);
  };
}

function naryAxiom<T>(check: (r: R, f: Frame, v: Value) => T, make: (items: T[], anns: Annotation[]) => Axiom, min = 1): Builder {
  return (r, f) => {
    const { anns, ops } = split(f);
    return make(list(r, f, ops, min, check), anns);
  };
}

function binaryAxiom<A, B>(
  first: (r: R, f: Frame, v: Value | undefined) => A,
  second: (r: R, f: Frame, v: Value | undefined) => B,
  make: (a: A, b: B, anns: Annotation[]) => Axiom,
): Builder {
  return (r, f) => {
    const { anns, ops } = split(f);
    arity(r, f, ops, 2);
    return make(first(r, f, ops[0]), second(r, f, ops[1]), anns);
  };
}

function ternaryAxiom<A, B, C>(
  a: (r: R, f: Frame, v: Value | undefined) => A,
  b: (r: R, f: Frame, v: Value | undefined) => B,
  c: (r: R, f: Frame, v: Value | undefined) => C,
  make: (a: A, b: B, c: C, anns: Annotation[]) => Axiom,
): Builder {
  return (r, f) => {
    const { anns, ops } = split(f);
    arity(r, f, ops, 3);
    return make(a(r, f, ops[0]), b(r, f, ops[1]), c(r, f, ops[2]), anns);
  };
}

const BUILDERS = new Map<string, Builder>([
  // entities, IRIs, literals, individuals
  ['Class', entityBuilder(cls)],
  ['ObjectProperty', entityBuilder(objectProperty)],
  ['DataProperty', entityBuilder(dataProperty)],
  ['AnnotationProperty', entityBuilder(annotationProperty)],
  ['NamedIndividual', entityBuilder(namedIndividual)],
  ['Datatype', entityBuilder(datatype)],
  ['IRI', (r, f) => iriNode(r.resolve(f.text.trim(), f))],
  ['AbbreviatedIRI', (r, f) => iriNode(r.expand(f.text.trim(), f))],
  [
    'AnonymousIndividual',
    (r, f) => {
      const id = f.attrs.nodeID;
      if (!id) r.error('<AnonymousIndividual> needs a nodeID attribute', f);
      return anonymousIndividual(r.scope + id);
    },
  ],
  ['Literal', buildLiteral],
  ['Annotation', buildAnnotation],

  // property expressions
  [
    'ObjectInverseOf',
    (r, f) => {
      arity(r, f, f.kids, 1);
      return objectInverseOf(one<ObjectProperty>('ObjectProperty', 'an object property')(r, f, f.kids[0]));
    },
  ],
  ['ObjectPropertyChain', (r, f) => ({ kind: 'Chain', chain: list(r, f, f.kids, 2, ope) })],

  // data ranges
  ['DataIntersectionOf', (r, f) => dataIntersectionOf(list(r, f, f.kids, 1, dr))],
  ['DataUnionOf', (r, f) => dataUnionOf(list(r, f, f.kids, 1, dr))],
  [
    'DataComplementOf',
    (r, f) => {
      arity(r, f, f.kids, 1);
      return dataComplementOf(dr(r, f, f.kids[0]));
    },
  ],
  ['DataOneOf', (r, f) => dataOneOf(list(r, f, f.kids, 1, lit))],
  [
    'FacetRestriction',
    (r, f) => {
      arity(r, f, f.kids, 1);
      return facetRestriction(r.attrIri(f, 'facet'), lit(r, f, f.kids[0]));
    },
  ],
  [
    'DatatypeRestriction',
    (r, f) => {
      arity(r, f, f.kids, 2, Infinity);
      return datatypeRestriction(dtype(r, f, f.kids[0]), list(r, f, f.kids.slice(1), 1, facet));
    },
  ],

  // class expressions
  ['ObjectIntersectionOf', (r, f) => objectIntersectionOf(list(r, f, f.kids, 1, ce))],
  ['ObjectUnionOf', (r, f) => objectUnionOf(list(r, f, f.kids, 1, ce))],
  [
    'ObjectComplementOf',
    (r, f) => {
      arity(r, f, f.kids, 1);
      return objectComplementOf(ce(r, f, f.kids[0]));
    },
  ],
  ['ObjectOneOf', (r, f) => objectOneOf(list(r, f, f.kids, 1, ind))],
  [
    'ObjectSomeValuesFrom',
    (r, f) => {
      arity(r, f, f.kids, 2);
      return objectSomeValuesFrom(ope(r, f, f.kids[0]), ce(r, f, f.kids[1]));
    },
  ],
  [
    'ObjectAllValuesFrom',
    (r, f) => {
      arity(r, f, f.kids, 2);
      return objectAllValuesFrom(ope(r, f, f.kids[0]), ce(r, f, f.kids[1]));
    },
  ],
  [
    'ObjectHasValue',
    (r, f) => {
      arity(r, f, f.kids, 2);
      return objectHasValue(ope(r, f, f.kids[0]), ind(r, f, f.kids[1]));
    },
  ],
  [
    'ObjectHasSelf',
    (r, f) => {
      arity(r, f, f.kids, 1);
      return objectHasSelf(ope(r, f, f.kids[0]));
    },
  ],
  ['ObjectMinCardinality', objectCardinalityBuilder(objectMinCardinality)],
  ['ObjectMaxCardinality', objectCardinalityBuilder(objectMaxCardinality)],
  ['ObjectExactCardinality', objectCardinalityBuilder(objectExactCardinality)],
  [
    'DataSomeValuesFrom',
    (r, f) => {
      // OWL 2 allows several data properties with an n-ary data range; the model (like the OWL API) has one
      arity(r, f, f.kids, 2);
      return dataSomeValuesFrom(dp(r, f, f.kids[0]), dr(r, f, f.kids[1]));
    },
  ],
  [
    'DataAllValuesFrom',
    (r, f) => {
      arity(r, f, f.kids, 2);
      return dataAllValuesFrom(dp(r, f, f.kids[0]), dr(r, f, f.kids[1]));
    },
  ],
  [
    'DataHasValue',
    (r, f) => {
      arity(r, f, f.kids, 2);
      return dataHasValue(dp(r, f, f.kids[0]), lit(r, f, f.kids[1]));
    },
  ],
  ['DataMinCardinality', dataCardinalityBuilder(dataMinCardinality)],
  ['DataMaxCardinality', dataCardinalityBuilder(dataMaxCardinality)],
  ['DataExactCardinality', dataCardinalityBuilder(dataExactCardinality)],

  // axioms
  [
    'Declaration',
    (r, f) => {
      const { anns, ops } = split(f);
      arity(r, f, ops, 1);
      return declaration(expectKind<Entity>(r, f, ops[0], ENTITY_KINDS, 'an entity'), anns);
    },
  ],
  ['SubClassOf', binaryAxiom(ce, ce, subClassOf)],
  ['EquivalentClasses', naryAxiom(ce, equivalentClasses)],
  ['DisjointClasses', naryAxiom(ce, disjointClasses)],
  [
    'DisjointUnion',
    (r, f) => {
      const { anns, ops } = split(f);
      arity(r, f, ops, 2, Infinity);
      return disjointUnion(klass(r, f, ops[0]), list(r, f, ops.slice(1), 1, ce), anns);
    },
  ],
  [
    'SubObjectPropertyOf',
    (r, f) => {
      const { anns, ops } = split(f);
      arity(r, f, ops, 2);
      const sup = ope(r, f, ops[1]);
      const sub = ops[0];
      if (sub?.kind === 'Chain') return subPropertyChainOf(sub.chain, sup, anns);
      return subObjectPropertyOf(ope(r, f, sub), sup, anns);
    },
  ],
  ['EquivalentObjectProperties', naryAxiom(ope, equivalentObjectProperties)],
  ['DisjointObjectProperties', naryAxiom(ope, disjointObjectProperties)],
  ['InverseObjectProperties', binaryAxiom(ope, ope, inverseObjectProperties)],
  ['ObjectPropertyDomain', binaryAxiom(ope, ce, objectPropertyDomain)],
  ['ObjectPropertyRange', binaryAxiom(ope, ce, objectPropertyRange)],
  ...[...CHARACTERISTICS].map((k) => [k, characteristic] as [string, Builder]),
  ['SubDataPropertyOf', binaryAxiom(dp, dp, subDataPropertyOf)],
  ['EquivalentDataProperties', naryAxiom(dp, equivalentDataProperties)],
  ['DisjointDataProperties', naryAxiom(dp, disjointDataProperties)],
  ['DataPropertyDomain', binaryAxiom(dp, ce, dataPropertyDomain)],
  ['DataPropertyRange', binaryAxiom(dp, dr, dataPropertyRange)],
  [
    'FunctionalDataProperty',
    (r, f) => {
      const { anns, ops } = split(f);
      arity(r, f, ops, 1);
      return functionalDataProperty(dp(r, f, ops[0]), anns);
    },
  ],
  ['DatatypeDefinition', binaryAxiom(dtype, dr, datatypeDefinition)],
  [
    'HasKey',
    (r, f) => {
      const { anns, ops } = split(f);
      arity(r, f, ops, 1, Infinity);
      const objectProps: ObjectPropertyExpression[] = [];
      const dataProps: DataProperty[] = [];
      for (const [i, op] of ops.entries()) {
        if (i === 0) continue;
        if (op.kind === 'DataProperty') dataProps.push(op as DataProperty);
        else objectProps.push(ope(r, f, op));
      }
      return hasKey(ce(r, f, ops[0]), objectProps, dataProps, anns);
    },
  ],
  ['SameIndividual', naryAxiom(ind, sameIndividual)],
  ['DifferentIndividuals', naryAxiom(ind, differentIndividuals)],
  ['ClassAssertion', binaryAxiom(ce, ind, classAssertion)],
  ['ObjectPropertyAssertion', ternaryAxiom(ope, ind, ind, objectPropertyAssertion)],
  ['NegativeObjectPropertyAssertion', ternaryAxiom(ope, ind, ind, negativeObjectPropertyAssertion)],
  ['DataPropertyAssertion', ternaryAxiom(dp, ind, lit, dataPropertyAssertion)],
  ['NegativeDataPropertyAssertion', ternaryAxiom(dp, ind, lit, negativeDataPropertyAssertion)],
  [
    'AnnotationAssertion',
    ternaryAxiom(
      ap,
      (r, f, v) => expectKind<AnnotationSubject>(r, f, v, ANN_SUBJECT_KINDS, 'an IRI or anonymous individual'),
      (r, f, v) => expectKind<AnnotationValue>(r, f, v, ANN_VALUE_KINDS, 'an annotation value'),
      annotationAssertion,
    ),
  ],
  ['SubAnnotationPropertyOf', binaryAxiom(ap, ap, subAnnotationPropertyOf)],
  ['AnnotationPropertyDomain', binaryAxiom(ap, iriValue, (p, d, anns) => annotationPropertyDomain(p, d.iri, anns))],
  ['AnnotationPropertyRange', binaryAxiom(ap, iriValue, (p, d, anns) => annotationPropertyRange(p, d.iri, anns))],

  // SWRL
  ['Variable', (r, f) => variable(r.attrIri(f))],
  ['Body', (r, f) => ({ kind: 'Body', atoms: list(r, f, f.kids, 0, atom) })],
  ['Head', (r, f) => ({ kind: 'Head', atoms: list(r, f, f.kids, 0, atom) })],
  [
    'ClassAtom',
    (r, f) => {
      arity(r, f, f.kids, 2);
      return classAtom(ce(r, f, f.kids[0]), iarg(r, f, f.kids[1]));
    },
  ],
  [
    'DataRangeAtom',
    (r, f) => {
      arity(r, f, f.kids, 2);
      return dataRangeAtom(dr(r, f, f.kids[0]), darg(r, f, f.kids[1]));
    },
  ],
  [
    'ObjectPropertyAtom',
    (r, f) => {
      arity(r, f, f.kids, 3);
      return objectPropertyAtom(ope(r, f, f.kids[0]), iarg(r, f, f.kids[1]), iarg(r, f, f.kids[2]));
    },
  ],
  [
    'DataPropertyAtom',
    (r, f) => {
      arity(r, f, f.kids, 3);
      return dataPropertyAtom(dp(r, f, f.kids[0]), iarg(r, f, f.kids[1]), darg(r, f, f.kids[2]));
    },
  ],
  ['BuiltInAtom', (r, f) => builtInAtom(r.attrIri(f), list(r, f, f.kids, 0, darg))],
  [
    'SameIndividualAtom',
    (r, f) => {
      arity(r, f, f.kids, 2);
      return sameIndividualAtom(iarg(r, f, f.kids[0]), iarg(r, f, f.kids[1]));
    },
  ],
  [
    'DifferentIndividualsAtom',
    (r, f) => {
      arity(r, f, f.kids, 2);
      return differentIndividualsAtom(iarg(r, f, f.kids[0]), iarg(r, f, f.kids[1]));
    },
  ],
  [
    'DLSafeRule',
    (r, f) => {
      const { anns, ops } = split(f);
      arity(r, f, ops, 2);
      const body = ops[0];
      const head = ops[1];
      if (body?.kind !== 'Body' || head?.kind !== 'Head') r.error('<DLSafeRule> expects <Body> then <Head>', f);
      return dlSafeRule((body as RuleGroup).atoms, (head as RuleGroup).atoms, anns);
    },
  ],
]);

function atom(r: R, f: Frame, v: Value): Atom {
  return expectKind<Atom>(r, f, v, ATOM_KINDS, 'a SWRL atom');
}
