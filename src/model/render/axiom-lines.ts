// The canonical one-axiom-per-line rendering used by `athene axioms` and the corpus conformance tests:
// functional-syntax structure, full IRIs, set-like operands sorted by their text, anonymous individuals
// renamed _:b1, _:b2, ... by a content hash so the output does not depend on blank-node labels.

import { createHash } from 'node:crypto';
import type {
  Annotation, AnonymousIndividual, Atom, Axiom, ClassExpression, DataRange, Entity, Individual, Literal,
  Node, ObjectPropertyExpression, DArg, IArg, AnnotationValue, AnnotationSubject,
} from '../terms.js';
import { OWL_THING, RDFS_LITERAL } from '../vocab.js';
import { anonymousIndividuals } from '../walk.js';

/** Names anonymous individuals while rendering. */
export type AnonNamer = (a: AnonymousIndividual) => string;

/** Escapes a lexical form for the quoted form of the line format. */
export function escapeLexical(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 0x5c) out += '\\\\';
    else if (ch === 0x22) out += '\\"';
    else if (ch === 0x0a) out += '\\n';
    else if (ch === 0x0d) out += '\\r';
    else if (ch === 0x09) out += '\\t';
    else if (ch < 0x20 || ch === 0x7f) out += '\\u' + ch.toString(16).toUpperCase().padStart(4, '0');
    else out += s[i];
  }
  return out;
}

export function renderLiteral(l: Literal): string {
  return '"' + escapeLexical(l.lex) + '"' + (l.lang ? '@' + l.lang : '^^<' + l.datatype + '>');
}

const sortedJoin = (parts: string[]) => parts.sort().join(' ');

export class LineRenderer {
  constructor(private readonly anon: AnonNamer) {}

  entity(e: Entity): string {
    return '<' + e.iri + '>';
  }

  individual(i: Individual): string {
    return i.kind === 'AnonymousIndividual' ? this.anon(i) : '<' + i.iri + '>';
  }

  ope(p: ObjectPropertyExpression): string {
    return p.kind === 'ObjectProperty' ? '<' + p.iri + '>' : 'ObjectInverseOf(<' + p.property.iri + '>)';
  }

  dataRange(d: DataRange): string {
    switch (d.kind) {
      case 'Datatype': return '<' + d.iri + '>';
      case 'DataIntersectionOf': return 'DataIntersectionOf(' + sortedJoin(d.operands.map((o) => this.dataRange(o))) + ')';
      case 'DataUnionOf': return 'DataUnionOf(' + sortedJoin(d.operands.map((o) => this.dataRange(o))) + ')';
      case 'DataComplementOf': return 'DataComplementOf(' + this.dataRange(d.operand) + ')';
      case 'DataOneOf': return 'DataOneOf(' + sortedJoin(d.literals.map(renderLiteral)) + ')';
      case 'DatatypeRestriction':
        return 'DatatypeRestriction(<' + d.datatype.iri + '> ' +
          sortedJoin(d.restrictions.map((r) => '<' + r.facet + '> ' + renderLiteral(r.value))) + ')';
    }
  }

  classExpression(c: ClassExpression): string {
    switch (c.kind) {
      case 'Class': return '<' + c.iri + '>';
      case 'ObjectIntersectionOf': return 'ObjectIntersectionOf(' + sortedJoin(c.operands.map((o) => this.classExpression(o))) + ')';
      case 'ObjectUnionOf': return 'ObjectUnionOf(' + sortedJoin(c.operands.map((o) => this.classExpression(o))) + ')';
      case 'ObjectComplementOf': return 'ObjectComplementOf(' + this.classExpression(c.operand) + ')';
      case 'ObjectOneOf': return 'ObjectOneOf(' + sortedJoin(c.individuals.map((i) => this.individual(i))) + ')';
      case 'ObjectSomeValuesFrom': case 'ObjectAllValuesFrom':
        return c.kind + '(' + this.ope(c.property) + ' ' + this.classExpression(c.filler) + ')';
      case 'ObjectHasValue': return 'ObjectHasValue(' + this.ope(c.property) + ' ' + this.individual(c.individual) + ')';
      case 'ObjectHasSelf': return 'ObjectHasSelf(' + this.ope(c.property) + ')';
      case 'ObjectMinCardinality': case 'ObjectMaxCardinality': case 'ObjectExactCardinality':
        return c.kind + '(' + c.cardinality + ' ' + this.ope(c.property) +
          (c.filler.kind === 'Class' && c.filler.iri === OWL_THING ? '' : ' ' + this.classExpression(c.filler)) + ')';
      case 'DataSomeValuesFrom': case 'DataAllValuesFrom':
        return c.kind + '(<' + c.property.iri + '> ' + this.dataRange(c.filler) + ')';
      case 'DataHasValue': return 'DataHasValue(<' + c.property.iri + '> ' + renderLiteral(c.value) + ')';
      case 'DataMinCardinality': case 'DataMaxCardinality': case 'DataExactCardinality':
        return c.kind + '(' + c.cardinality + ' <' + c.property.iri + '>' +
          (c.filler.kind === 'Datatype' && c.filler.iri === RDFS_LITERAL ? '' : ' ' + this.dataRange(c.filler)) + ')';
    }
  }

  annotationValue(v: AnnotationValue | AnnotationSubject): string {
    switch (v.kind) {
      case 'IRI': return '<' + v.iri + '>';
      case 'AnonymousIndividual': return this.anon(v);
      case 'Literal': return renderLiteral(v);
    }
  }

  annotation(a: Annotation): string {
    return 'Annotation(' + this.annotationPrefix(a.annotations) + '<' + a.property.iri + '> ' + this.annotationValue(a.value) + ')';
  }

  /** Sorted annotations followed by a space, or '' when there are none. */
  annotationPrefix(anns: readonly Annotation[]): string {
    return anns.length === 0 ? '' : sortedJoin(anns.map((a) => this.annotation(a))) + ' ';
  }

  private iarg(a: IArg): string {
    return a.kind === 'Variable' ? 'Variable(<' + a.iri + '>)' : this.individual(a);
  }

  private darg(a: DArg): string {
    return a.kind === 'Variable' ? 'Variable(<' + a.iri + '>)' : renderLiteral(a);
  }

  atom(a: Atom): string {
    switch (a.kind) {
      case 'ClassAtom': return 'ClassAtom(' + this.classExpression(a.cls) + ' ' + this.iarg(a.arg) + ')';
      case 'DataRangeAtom': return 'DataRangeAtom(' + this.dataRange(a.range) + ' ' + this.darg(a.arg) + ')';
      case 'ObjectPropertyAtom': return 'ObjectPropertyAtom(' + this.ope(a.property) + ' ' + this.iarg(a.first) + ' ' + this.iarg(a.second) + ')';
      case 'DataPropertyAtom': return 'DataPropertyAtom(<' + a.property.iri + '> ' + this.iarg(a.first) + ' ' + this.darg(a.second) + ')';
      case 'BuiltInAtom': return 'BuiltInAtom(<' + a.iri + '>' + a.args.map((x) => ' ' + this.darg(x)).join('') + ')';
      case 'SameIndividualAtom': case 'DifferentIndividualsAtom':
        return a.kind + '(' + this.iarg(a.first) + ' ' + this.iarg(a.second) + ')';
    }
  }

  axiom(a: Axiom): string {
    const p = this.annotationPrefix(a.annotations);
    const ce = (c: ClassExpression) => this.classExpression(c);
    switch (a.kind) {
      case 'Declaration': return 'Declaration(' + p + a.entity.kind + '(<' + a.entity.iri + '>))';
      case 'SubClassOf': return 'SubClassOf(' + p + ce(a.sub) + ' ' + ce(a.sup) + ')';
      case 'EquivalentClasses': case 'DisjointClasses':
        return a.kind + '(' + p + sortedJoin(a.classes.map(ce)) + ')';
      case 'DisjointUnion': return 'DisjointUnion(' + p + '<' + a.cls.iri + '> ' + sortedJoin(a.classes.map(ce)) + ')';
      case 'SubObjectPropertyOf': return 'SubObjectPropertyOf(' + p + this.ope(a.sub) + ' ' + this.ope(a.sup) + ')';
      case 'SubPropertyChainOf':
        return 'SubObjectPropertyOf(' + p + 'ObjectPropertyChain(' + a.chain.map((x) => this.ope(x)).join(' ') + ') ' + this.ope(a.sup) + ')';
      case 'EquivalentObjectProperties': case 'DisjointObjectProperties':
        return a.kind + '(' + p + sortedJoin(a.properties.map((x) => this.ope(x))) + ')';
      case 'InverseObjectProperties': return a.kind + '(' + p + sortedJoin([this.ope(a.first), this.ope(a.second)]) + ')';
      case 'ObjectPropertyDomain': return a.kind + '(' + p + this.ope(a.property) + ' ' + ce(a.domain) + ')';
      case 'ObjectPropertyRange': return a.kind + '(' + p + this.ope(a.property) + ' ' + ce(a.range) + ')';
      case 'FunctionalObjectProperty': case 'InverseFunctionalObjectProperty': case 'ReflexiveObjectProperty':
      case 'IrreflexiveObjectProperty': case 'SymmetricObjectProperty': case 'AsymmetricObjectProperty':
      case 'TransitiveObjectProperty':
        return a.kind + '(' + p + this.ope(a.property) + ')';
      case 'SubDataPropertyOf': return a.kind + '(' + p + '<' + a.sub.iri + '> <' + a.sup.iri + '>)';
      case 'EquivalentDataProperties': case 'DisjointDataProperties':
        return a.kind + '(' + p + sortedJoin(a.properties.map((x) => '<' + x.iri + '>')) + ')';
      case 'DataPropertyDomain': return a.kind + '(' + p + '<' + a.property.iri + '> ' + ce(a.domain) + ')';
      case 'DataPropertyRange': return a.kind + '(' + p + '<' + a.property.iri + '> ' + this.dataRange(a.range) + ')';
      case 'FunctionalDataProperty': return a.kind + '(' + p + '<' + a.property.iri + '>)';
      case 'DatatypeDefinition': return a.kind + '(' + p + '<' + a.datatype.iri + '> ' + this.dataRange(a.range) + ')';
      case 'HasKey':
        return 'HasKey(' + p + ce(a.cls) + ' (' + sortedJoin(a.objectProperties.map((x) => this.ope(x))) + ') (' +
          sortedJoin(a.dataProperties.map((x) => '<' + x.iri + '>')) + '))';
      case 'SameIndividual': case 'DifferentIndividuals':
        return a.kind + '(' + p + sortedJoin(a.individuals.map((i) => this.individual(i))) + ')';
      case 'ClassAssertion': return 'ClassAssertion(' + p + ce(a.cls) + ' ' + this.individual(a.individual) + ')';
      case 'ObjectPropertyAssertion': case 'NegativeObjectPropertyAssertion':
        return a.kind + '(' + p + this.ope(a.property) + ' ' + this.individual(a.subject) + ' ' + this.individual(a.object) + ')';
      case 'DataPropertyAssertion': case 'NegativeDataPropertyAssertion':
        return a.kind + '(' + p + '<' + a.property.iri + '> ' + this.individual(a.subject) + ' ' + renderLiteral(a.value) + ')';
      case 'AnnotationAssertion':
        return 'AnnotationAssertion(' + p + '<' + a.property.iri + '> ' + this.annotationValue(a.subject) + ' ' + this.annotationValue(a.value) + ')';
      case 'SubAnnotationPropertyOf': return a.kind + '(' + p + '<' + a.sub.iri + '> <' + a.sup.iri + '>)';
      case 'AnnotationPropertyDomain': return a.kind + '(' + p + '<' + a.property.iri + '> <' + a.domain + '>)';
      case 'AnnotationPropertyRange': return a.kind + '(' + p + '<' + a.property.iri + '> <' + a.range + '>)';
      case 'DLSafeRule':
        return 'DLSafeRule(' + p + 'Body(' + sortedJoin(a.body.map((x) => this.atom(x))) + ') Head(' +
          sortedJoin(a.head.map((x) => this.atom(x))) + '))';
    }
  }
}

const sha16 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);

/**
 * Every axiom as one canonical line, sorted (JavaScript default order = Java String.compareTo).
 * Anonymous individuals are numbered by the content-hash procedure of the corpus README.
 */
export function axiomLines(axioms: Iterable<Axiom>): string[] {
  const plain: string[] = [];
  const withAnon: { axiom: Axiom; anons: Set<AnonymousIndividual> }[] = [];
  const byAnon = new Map<AnonymousIndividual, Axiom[]>();
  const fixed = new LineRenderer(() => '_:?');
  for (const a of axioms) {
    const anons = anonymousIndividuals(a as Node);
    if (anons.size === 0) {
      plain.push(fixed.axiom(a));
      continue;
    }
    withAnon.push({ axiom: a, anons });
    for (const x of anons) {
      let list = byAnon.get(x);
      if (!list) byAnon.set(x, (list = []));
      list.push(a);
    }
  }
  if (withAnon.length === 0) return plain.sort();

  // Step 1: a hash per anonymous individual from the axioms around it.
  const hash = new Map<AnonymousIndividual, string>();
  for (const [x, list] of byAnon) {
    const r = new LineRenderer((y) => (y === x ? '_:SELF' : '_:*'));
    hash.set(x, sha16(list.map((a) => r.axiom(a)).sort().join('\n')));
  }
  // Step 2: number individuals in order of first appearance in the sorted hash-labelled lines.
  const hashed = new LineRenderer((y) => '_:h' + hash.get(y));
  const labelled = withAnon.map((w) => ({ line: hashed.axiom(w.axiom), anons: w.anons })).sort((a, b) => (a.line < b.line ? -1 : a.line > b.line ? 1 : 0));
  const number = new Map<AnonymousIndividual, string>();
  let next = 1;
  for (const { line, anons } of labelled) {
    const order = [...anons].filter((x) => !number.has(x))
      .map((x) => ({ x, pos: line.indexOf('_:h' + hash.get(x)), h: hash.get(x)! }))
      .sort((a, b) => a.pos - b.pos || (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
    for (const { x } of order) number.set(x, '_:b' + next++);
  }
  // Step 3: final rendering.
  const final = new LineRenderer((y) => number.get(y)!);
  for (const w of withAnon) plain.push(final.axiom(w.axiom));
  return plain.sort();
}
