// Functional-syntax rendering of single model nodes with a prefix map: IRIs are abbreviated to
// `pfx:local` where the local part is a valid PN_LOCAL, else written `<full>`. Set-like operands are
// ordered by their rendered text, so the output does not depend on interning order.

import type {
  Annotation,
  AnnotationSubject,
  AnnotationValue,
  AnonymousIndividual,
  Atom,
  Axiom,
  ClassExpression,
  DArg,
  DataRange,
  Entity,
  IArg,
  Individual,
  IRI,
  Literal,
  Node,
  ObjectPropertyExpression,
} from '../../terms.js';
import { OWL_THING, RDFS_LITERAL, XSD_STRING } from '../../vocab.js';
import { unreachable } from '../../../util/unreachable.js';
import { groupSet, isAxiom, otherKinds } from '../../terms.js';

const CLASS_EXPRESSIONS = groupSet('classExpression');

/** Names anonymous individuals while rendering (the default writes `_:` + node id). */
export type AnonLabeler = (a: AnonymousIndividual) => string;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** PN_CHARS_BASE of the SPARQL grammar the OWL 2 functional syntax refers to. */
function isPnCharsBase(c: number): boolean {
  return (
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    (c >= 0x200c && c <= 0x200d) ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0xeffff)
  );
}

function isPnChars(c: number): boolean {
  return (
    isPnCharsBase(c) || c === 0x5f || c === 0x2d || isDigit(c) || c === 0xb7 || (c >= 0x300 && c <= 0x36f) || (c >= 0x203f && c <= 0x2040)
  );
}

/** PN_LOCAL: ( PN_CHARS_U | [0-9] ) ( ( PN_CHARS | '.' )* PN_CHARS )?, non-empty. */
export function isPnLocal(s: string): boolean {
  if (s.length === 0) return false;
  let i = 0;
  let last = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const ok = i === 0 ? isPnCharsBase(c) || c === 0x5f || isDigit(c) : isPnChars(c) || c === 0x2e;
    if (!ok) return false;
    last = c;
    i++;
  }
  return last !== 0x2e;
}

/** PNAME_NS: an optional PN_PREFIX followed by ':' (PN_PREFIX as PN_LOCAL but starting with a letter). */
export function isPrefixName(name: string): boolean {
  if (!name.endsWith(':')) return false;
  const p = name.slice(0, -1);
  if (p.length === 0) return true;
  const first = p.codePointAt(0)!;
  return isPnCharsBase(first) && isPnLocal(p);
}

/** Escapes a lexical form for a functional-syntax quoted string: only '"' and '\' are escaped. */
export function quoteLexical(s: string): string {
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) {
      out += s.slice(from, i) + '\\' + s[i];
      from = i + 1;
    }
  }
  return out + s.slice(from) + '"';
}

const sortedJoin = (parts: string[]) => parts.sort().join(' ');

export class FunctionalRenderer {
  /** Usable prefixes, longest namespace first (ties: prefix name order), for abbreviation. */
  private readonly namespaces: readonly (readonly [string, string])[];
  private readonly abbreviated = new Map<IRI, string>();

  constructor(
    prefixes: ReadonlyMap<string, string> = new Map(),
    private readonly anon: AnonLabeler = (a) => '_:' + a.nodeId,
  ) {
    this.namespaces = [...prefixes]
      .filter(([name, ns]) => ns.length > 0 && name !== '_:' && isPrefixName(name))
      .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  iri(iri: IRI): string {
    let s = this.abbreviated.get(iri);
    if (s === undefined) {
      s = '<' + iri + '>';
      for (const [name, ns] of this.namespaces) {
        if (iri.startsWith(ns) && isPnLocal(iri.slice(ns.length))) {
          s = name + iri.slice(ns.length);
          break;
        }
      }
      this.abbreviated.set(iri, s);
    }
    return s;
  }

  entity(e: Entity): string {
    return this.iri(e.iri);
  }

  /** An entity with its type, as in declarations: `Class(:A)`. */
  typedEntity(e: Entity): string {
    return e.kind + '(' + this.iri(e.iri) + ')';
  }

  individual(i: Individual): string {
    return i.kind === 'AnonymousIndividual' ? this.anon(i) : this.iri(i.iri);
  }

  literal(l: Literal): string {
    const q = quoteLexical(l.lex);
    if (l.lang) return q + '@' + l.lang;
    return l.datatype === XSD_STRING ? q : q + '^^' + this.iri(l.datatype);
  }

  ope(p: ObjectPropertyExpression): string {
    return p.kind === 'ObjectProperty' ? this.iri(p.iri) : 'ObjectInverseOf(' + this.iri(p.property.iri) + ')';
  }

  dataRange(d: DataRange): string {
    switch (d.kind) {
      case 'Datatype':
        return this.iri(d.iri);
      case 'DataIntersectionOf':
      case 'DataUnionOf':
        return d.kind + '(' + sortedJoin(d.operands.map((o) => this.dataRange(o))) + ')';
      case 'DataComplementOf':
        return 'DataComplementOf(' + this.dataRange(d.operand) + ')';
      case 'DataOneOf':
        return 'DataOneOf(' + sortedJoin(d.literals.map((l) => this.literal(l))) + ')';
      case 'DatatypeRestriction':
        return (
          'DatatypeRestriction(' +
          this.iri(d.datatype.iri) +
          ' ' +
          sortedJoin(d.restrictions.map((r) => this.iri(r.facet) + ' ' + this.literal(r.value))) +
          ')'
        );
      default:
        return unreachable(d);
    }
  }

  classExpression(c: ClassExpression): string {
    switch (c.kind) {
      case 'Class':
        return this.iri(c.iri);
      case 'ObjectIntersectionOf':
      case 'ObjectUnionOf':
        return c.kind + '(' + sortedJoin(c.operands.map((o) => this.classExpression(o))) + ')';
      case 'ObjectComplementOf':
        return 'ObjectComplementOf(' + this.classExpression(c.operand) + ')';
      case 'ObjectOneOf':
        return 'ObjectOneOf(' + sortedJoin(c.individuals.map((i) => this.individual(i))) + ')';
      case 'ObjectSomeValuesFrom':
      case 'ObjectAllValuesFrom':
        return c.kind + '(' + this.ope(c.property) + ' ' + this.classExpression(c.filler) + ')';
      case 'ObjectHasValue':
        return 'ObjectHasValue(' + this.ope(c.property) + ' ' + this.individual(c.individual) + ')';
      case 'ObjectHasSelf':
        return 'ObjectHasSelf(' + this.ope(c.property) + ')';
      case 'ObjectMinCardinality':
      case 'ObjectMaxCardinality':
      case 'ObjectExactCardinality':
        return (
          c.kind +
          '(' +
          c.cardinality +
          ' ' +
          this.ope(c.property) +
          (c.filler.kind === 'Class' && c.filler.iri === OWL_THING ? '' : ' ' + this.classExpression(c.filler)) +
          ')'
        );
      case 'DataSomeValuesFrom':
      case 'DataAllValuesFrom':
        return c.kind + '(' + this.iri(c.property.iri) + ' ' + this.dataRange(c.filler) + ')';
      case 'DataHasValue':
        return 'DataHasValue(' + this.iri(c.property.iri) + ' ' + this.literal(c.value) + ')';
      case 'DataMinCardinality':
      case 'DataMaxCardinality':
      case 'DataExactCardinality':
        return (
          c.kind +
          '(' +
          c.cardinality +
          ' ' +
          this.iri(c.property.iri) +
          (c.filler.kind === 'Datatype' && c.filler.iri === RDFS_LITERAL ? '' : ' ' + this.dataRange(c.filler)) +
          ')'
        );
      default:
        return unreachable(c);
    }
  }

  annotationValue(v: AnnotationValue | AnnotationSubject): string {
    switch (v.kind) {
      case 'IRI':
        return this.iri(v.iri);
      case 'AnonymousIndividual':
        return this.anon(v);
      case 'Literal':
        return this.literal(v);
      default:
        return unreachable(v);
    }
  }

  annotation(a: Annotation): string {
    return 'Annotation(' + this.annotationPrefix(a.annotations) + this.iri(a.property.iri) + ' ' + this.annotationValue(a.value) + ')';
  }

  /** Sorted annotations followed by a space, or '' when there are none. */
  private annotationPrefix(anns: readonly Annotation[]): string {
    return anns.length === 0 ? '' : sortedJoin(anns.map((a) => this.annotation(a))) + ' ';
  }

  private iarg(a: IArg): string {
    return a.kind === 'Variable' ? 'Variable(' + this.iri(a.iri) + ')' : this.individual(a);
  }

  private darg(a: DArg): string {
    return a.kind === 'Variable' ? 'Variable(' + this.iri(a.iri) + ')' : this.literal(a);
  }

  atom(a: Atom): string {
    switch (a.kind) {
      case 'ClassAtom':
        return 'ClassAtom(' + this.classExpression(a.cls) + ' ' + this.iarg(a.arg) + ')';
      case 'DataRangeAtom':
        return 'DataRangeAtom(' + this.dataRange(a.range) + ' ' + this.darg(a.arg) + ')';
      case 'ObjectPropertyAtom':
        return 'ObjectPropertyAtom(' + this.ope(a.property) + ' ' + this.iarg(a.first) + ' ' + this.iarg(a.second) + ')';
      case 'DataPropertyAtom':
        return 'DataPropertyAtom(' + this.iri(a.property.iri) + ' ' + this.iarg(a.first) + ' ' + this.darg(a.second) + ')';
      case 'BuiltInAtom':
        return 'BuiltInAtom(' + this.iri(a.iri) + a.args.map((x) => ' ' + this.darg(x)).join('') + ')';
      case 'SameIndividualAtom':
      case 'DifferentIndividualsAtom':
        return a.kind + '(' + this.iarg(a.first) + ' ' + this.iarg(a.second) + ')';
      default:
        return unreachable(a);
    }
  }

  axiom(a: Axiom): string {
    const p = this.annotationPrefix(a.annotations);
    const ce = (c: ClassExpression) => this.classExpression(c);
    const ope = (x: ObjectPropertyExpression) => this.ope(x);
    const iri = (x: { iri: IRI }) => this.iri(x.iri);
    switch (a.kind) {
      case 'Declaration':
        return 'Declaration(' + p + this.typedEntity(a.entity) + ')';
      case 'SubClassOf':
        return 'SubClassOf(' + p + ce(a.sub) + ' ' + ce(a.sup) + ')';
      case 'EquivalentClasses':
      case 'DisjointClasses':
        return a.kind + '(' + p + sortedJoin(a.classes.map(ce)) + ')';
      case 'DisjointUnion':
        return 'DisjointUnion(' + p + iri(a.cls) + ' ' + sortedJoin(a.classes.map(ce)) + ')';
      case 'SubObjectPropertyOf':
        return 'SubObjectPropertyOf(' + p + ope(a.sub) + ' ' + ope(a.sup) + ')';
      case 'SubPropertyChainOf':
        return 'SubObjectPropertyOf(' + p + 'ObjectPropertyChain(' + a.chain.map(ope).join(' ') + ') ' + ope(a.sup) + ')';
      case 'EquivalentObjectProperties':
      case 'DisjointObjectProperties':
        return a.kind + '(' + p + sortedJoin(a.properties.map(ope)) + ')';
      case 'InverseObjectProperties':
        return a.kind + '(' + p + sortedJoin([ope(a.first), ope(a.second)]) + ')';
      case 'ObjectPropertyDomain':
        return a.kind + '(' + p + ope(a.property) + ' ' + ce(a.domain) + ')';
      case 'ObjectPropertyRange':
        return a.kind + '(' + p + ope(a.property) + ' ' + ce(a.range) + ')';
      case 'FunctionalObjectProperty':
      case 'InverseFunctionalObjectProperty':
      case 'ReflexiveObjectProperty':
      case 'IrreflexiveObjectProperty':
      case 'SymmetricObjectProperty':
      case 'AsymmetricObjectProperty':
      case 'TransitiveObjectProperty':
        return a.kind + '(' + p + ope(a.property) + ')';
      case 'SubDataPropertyOf':
        return a.kind + '(' + p + iri(a.sub) + ' ' + iri(a.sup) + ')';
      case 'EquivalentDataProperties':
      case 'DisjointDataProperties':
        return a.kind + '(' + p + sortedJoin(a.properties.map(iri)) + ')';
      case 'DataPropertyDomain':
        return a.kind + '(' + p + iri(a.property) + ' ' + ce(a.domain) + ')';
      case 'DataPropertyRange':
        return a.kind + '(' + p + iri(a.property) + ' ' + this.dataRange(a.range) + ')';
      case 'FunctionalDataProperty':
        return a.kind + '(' + p + iri(a.property) + ')';
      case 'DatatypeDefinition':
        return a.kind + '(' + p + iri(a.datatype) + ' ' + this.dataRange(a.range) + ')';
      case 'HasKey':
        return (
          'HasKey(' + p + ce(a.cls) + ' (' + sortedJoin(a.objectProperties.map(ope)) + ') (' + sortedJoin(a.dataProperties.map(iri)) + '))'
        );
      case 'SameIndividual':
      case 'DifferentIndividuals':
        return a.kind + '(' + p + sortedJoin(a.individuals.map((i) => this.individual(i))) + ')';
      case 'ClassAssertion':
        return 'ClassAssertion(' + p + ce(a.cls) + ' ' + this.individual(a.individual) + ')';
      case 'ObjectPropertyAssertion':
      case 'NegativeObjectPropertyAssertion':
        return a.kind + '(' + p + ope(a.property) + ' ' + this.individual(a.subject) + ' ' + this.individual(a.object) + ')';
      case 'DataPropertyAssertion':
      case 'NegativeDataPropertyAssertion':
        return a.kind + '(' + p + iri(a.property) + ' ' + this.individual(a.subject) + ' ' + this.literal(a.value) + ')';
      case 'AnnotationAssertion':
        return (
          'AnnotationAssertion(' + p + iri(a.property) + ' ' + this.annotationValue(a.subject) + ' ' + this.annotationValue(a.value) + ')'
        );
      case 'SubAnnotationPropertyOf':
        return a.kind + '(' + p + iri(a.sub) + ' ' + iri(a.sup) + ')';
      case 'AnnotationPropertyDomain':
        return a.kind + '(' + p + iri(a.property) + ' ' + this.iri(a.domain) + ')';
      case 'AnnotationPropertyRange':
        return a.kind + '(' + p + iri(a.property) + ' ' + this.iri(a.range) + ')';
      case 'DLSafeRule':
        return (
          'DLSafeRule(' +
          p +
          'Body(' +
          sortedJoin(a.body.map((x) => this.atom(x))) +
          ') Head(' +
          sortedJoin(a.head.map((x) => this.atom(x))) +
          '))'
        );
      default:
        return unreachable(a);
    }
  }

  /** Any renderable node: axioms, expressions, data ranges, annotations, atoms, literals, entities. */
  node(n: Node): string {
    if (isAxiom(n)) return this.axiom(n);
    switch (n.kind) {
      case 'Class':
      case 'ObjectProperty':
      case 'DataProperty':
      case 'AnnotationProperty':
      case 'NamedIndividual':
      case 'Datatype':
      case 'IRI':
        return this.iri(n.iri);
      case 'AnonymousIndividual':
        return this.anon(n);
      case 'Literal':
        return this.literal(n);
      case 'Variable':
        return 'Variable(' + this.iri(n.iri) + ')';
      case 'ObjectInverseOf':
        return this.ope(n);
      case 'FacetRestriction':
        return this.iri(n.facet) + ' ' + this.literal(n.value);
      case 'Annotation':
        return this.annotation(n);
      case 'DataIntersectionOf':
      case 'DataUnionOf':
      case 'DataComplementOf':
      case 'DataOneOf':
      case 'DatatypeRestriction':
        return this.dataRange(n);
      case 'ClassAtom':
      case 'DataRangeAtom':
      case 'ObjectPropertyAtom':
      case 'DataPropertyAtom':
      case 'BuiltInAtom':
      case 'SameIndividualAtom':
      case 'DifferentIndividualsAtom':
        return this.atom(n);
      default:
        otherKinds(n, CLASS_EXPRESSIONS);
        return this.classExpression(n);
    }
  }
}
