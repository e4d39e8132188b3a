// Manchester-syntax display rendering of expressions and axioms, with caller-supplied names.
//
// Names come from the `name` callback (display label, CURIE or `<IRI>`); a name that is not a plain
// token (spaces, delimiters, a keyword) is quoted: 'has topping'. Set-like operands are sorted by their
// rendered text, so the output is deterministic. Sub-expressions are parenthesised exactly where the
// Manchester precedence (or > and > not > restriction) requires, so the text parses back to the same
// expression.
//
// Axiom forms (axiom annotations, when present, come first as `Annotations: p v, ... `):
//   Declaration                 Class: C   (ObjectProperty:, DataProperty:, AnnotationProperty:, Individual:, Datatype:)
//   SubClassOf                  C SubClassOf D
//   EquivalentClasses           C EquivalentTo D              (3 or more: EquivalentClasses: A, B, C)
//   DisjointClasses             C DisjointWith D              (3 or more: DisjointClasses: A, B, C)
//   DisjointUnion               C DisjointUnionOf A, B
//   Sub*PropertyOf              p SubPropertyOf q
//   SubPropertyChainOf          p o q SubPropertyOf r
//   Equivalent*Properties       p EquivalentTo q              (3 or more: EquivalentProperties: p, q, r)
//   Disjoint*Properties         p DisjointWith q              (3 or more: DisjointProperties: p, q, r)
//   InverseObjectProperties     p InverseOf q
//   *PropertyDomain / Range     p Domain C, p Range D
//   characteristics             Functional: p  (InverseFunctional:, Reflexive:, Irreflexive:, Symmetric:, Asymmetric:, Transitive:)
//   DatatypeDefinition          D EquivalentTo xsd:integer[>= 0]
//   HasKey                      C HasKey p, q
//   SameIndividual              a SameAs b                    (3 or more: SameIndividual: a, b, c)
//   DifferentIndividuals        a DifferentFrom b             (3 or more: DifferentIndividuals: a, b, c)
//   ClassAssertion              a Type C
//   (Negative)PropertyAssertion a p b, a p "lit"; negative: not a p b
//   AnnotationAssertion         s p value
//   DLSafeRule                  C(?<x>), p(?<x>, ?<y>) -> D(?<y>)   (variables as ?<absolute IRI>)

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
  ObjectPropertyExpression,
} from '../../terms.js';
import { OWL_THING, RDFS_LITERAL, RDF, XSD, XSD_STRING } from '../../vocab.js';
import { numberKind } from './expression.js';
import { unreachable } from '../../../util/unreachable.js';

export type NameFunction = (e: Entity | IRI) => string;

export interface ManchesterRendererOptions {
  /** Label for an anonymous individual (default `_:` + node id). */
  readonly anonymous?: (a: AnonymousIndividual) => string;
  /** Write the rdfs:Literal filler of unqualified data cardinalities (so the property reads back as data). */
  readonly explicitLiteralFiller?: boolean;
}

const FACET_SYMBOLS: ReadonlyMap<string, string> = new Map([
  [XSD + 'minInclusive', '>='],
  [XSD + 'minExclusive', '>'],
  [XSD + 'maxInclusive', '<='],
  [XSD + 'maxExclusive', '<'],
  [XSD + 'length', 'length'],
  [XSD + 'minLength', 'minLength'],
  [XSD + 'maxLength', 'maxLength'],
  [XSD + 'pattern', 'pattern'],
  [RDF + 'langRange', 'langRange'],
  [XSD + 'totalDigits', 'totalDigits'],
  [XSD + 'fractionDigits', 'fractionDigits'],
]);

/** Words with a meaning in Manchester syntax: a name spelled like one must be quoted. */
const KEYWORDS = new Set([
  'and',
  'or',
  'not',
  'that',
  'some',
  'only',
  'value',
  'min',
  'max',
  'exactly',
  'Self',
  'inverse',
  'o',
  'true',
  'false',
  'integer',
  'decimal',
  'float',
  'string',
  'SameAs',
  'DifferentFrom',
]);

const CHARACTERISTIC_WORDS: Readonly<Record<string, string>> = {
  FunctionalObjectProperty: 'Functional',
  InverseFunctionalObjectProperty: 'InverseFunctional',
  ReflexiveObjectProperty: 'Reflexive',
  IrreflexiveObjectProperty: 'Irreflexive',
  SymmetricObjectProperty: 'Symmetric',
  AsymmetricObjectProperty: 'Asymmetric',
  TransitiveObjectProperty: 'Transitive',
  FunctionalDataProperty: 'Functional',
};

const DECLARATION_WORDS: Readonly<Record<string, string>> = {
  Class: 'Class:',
  ObjectProperty: 'ObjectProperty:',
  DataProperty: 'DataProperty:',
  AnnotationProperty: 'AnnotationProperty:',
  NamedIndividual: 'Individual:',
  Datatype: 'Datatype:',
};

/** Whether a name can be written as it is (an `<IRI>` or a token without delimiters that is no keyword). */
export function isPlainName(s: string): boolean {
  if (s.length === 0) return false;
  if (s[0] === '<') return s[s.length - 1] === '>' && s.indexOf(' ') < 0;
  if (KEYWORDS.has(s) || s[s.length - 1] === ':' || s[0] === '?' || s.startsWith('_:') || numberKind(s) !== null) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (
      c <= 0x20 ||
      c === 0x28 ||
      c === 0x29 ||
      c === 0x7b ||
      c === 0x7d ||
      c === 0x5b ||
      c === 0x5d ||
      c === 0x2c ||
      c === 0x22 ||
      c === 0x27 ||
      c === 0x3c ||
      c === 0x3e ||
      c === 0x5e ||
      c === 0x23
    )
      return false;
  }
  return !(s[0] === '-' && s[1] === '>');
}

const quoteName = (s: string) => (isPlainName(s) ? s : "'" + s + "'");

function escapeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    out += c === '"' || c === '\\' ? '\\' + c : c;
  }
  return out;
}

const sortedJoin = (parts: string[], sep: string) => parts.sort().join(sep);
/** A one-operand n-ary expression (lax input makes them) is written with its operand twice, which reads back as the same set. */
const naryOperands = (parts: string[]) => {
  const [only] = parts;
  return only !== undefined && parts.length === 1 ? [only, only] : parts;
};

export class ManchesterRenderer {
  private readonly anonymous: (a: AnonymousIndividual) => string;
  private readonly explicitLiteralFiller: boolean;

  constructor(
    private readonly nameOf: NameFunction,
    options: ManchesterRendererOptions = {},
  ) {
    this.anonymous = options.anonymous ?? ((a) => '_:' + a.nodeId);
    this.explicitLiteralFiller = options.explicitLiteralFiller ?? false;
  }

  name(e: Entity | IRI): string {
    return quoteName(this.nameOf(e));
  }

  individual(i: Individual): string {
    return i.kind === 'AnonymousIndividual' ? this.anonymous(i) : this.name(i);
  }

  objectProperty(p: ObjectPropertyExpression): string {
    return p.kind === 'ObjectProperty' ? this.name(p) : 'inverse ' + this.name(p.property);
  }

  /** Literals: bare numbers and booleans when their lexical form reads back unchanged, else quoted. */
  literal(l: Literal): string {
    if (l.lang) return '"' + escapeString(l.lex) + '"@' + l.lang;
    switch (l.datatype) {
      case XSD_STRING:
        return '"' + escapeString(l.lex) + '"';
      case XSD + 'integer':
        if (numberKind(l.lex) === 'integer') return l.lex;
        break;
      case XSD + 'decimal':
        if (numberKind(l.lex) === 'decimal') return l.lex;
        break;
      case XSD + 'float': {
        const k = numberKind(l.lex);
        if (k === 'integer' || k === 'decimal' || k === 'double') return l.lex + 'f';
        break;
      }
      case XSD + 'boolean':
        if (l.lex === 'true' || l.lex === 'false') return l.lex;
        break;
    }
    return '"' + escapeString(l.lex) + '"^^' + this.name(l.datatype);
  }

  classExpression(c: ClassExpression): string {
    switch (c.kind) {
      case 'Class':
        return this.name(c);
      case 'ObjectIntersectionOf':
        return sortedJoin(naryOperands(c.operands.map((o) => this.operand(o, true))), ' and ');
      case 'ObjectUnionOf':
        return sortedJoin(naryOperands(c.operands.map((o) => this.operand(o, false))), ' or ');
      case 'ObjectComplementOf':
        return 'not ' + this.primary(c.operand, true);
      case 'ObjectOneOf':
        return (
          '{' +
          sortedJoin(
            c.individuals.map((i) => this.individual(i)),
            ', ',
          ) +
          '}'
        );
      case 'ObjectSomeValuesFrom':
        return this.objectProperty(c.property) + ' some ' + this.primary(c.filler, false);
      case 'ObjectAllValuesFrom':
        return this.objectProperty(c.property) + ' only ' + this.primary(c.filler, false);
      case 'ObjectHasValue':
        return this.objectProperty(c.property) + ' value ' + this.individual(c.individual);
      case 'ObjectHasSelf':
        return this.objectProperty(c.property) + ' Self';
      case 'ObjectMinCardinality':
      case 'ObjectMaxCardinality':
      case 'ObjectExactCardinality':
        return (
          this.objectProperty(c.property) +
          ' ' +
          cardinalityWord(c.kind) +
          ' ' +
          c.cardinality +
          (c.filler.kind === 'Class' && c.filler.iri === OWL_THING ? '' : ' ' + this.primary(c.filler, false))
        );
      case 'DataSomeValuesFrom':
        return this.name(c.property) + ' some ' + this.dataPrimary(c.filler);
      case 'DataAllValuesFrom':
        return this.name(c.property) + ' only ' + this.dataPrimary(c.filler);
      case 'DataHasValue':
        return this.name(c.property) + ' value ' + this.literal(c.value);
      case 'DataMinCardinality':
      case 'DataMaxCardinality':
      case 'DataExactCardinality':
        return (
          this.name(c.property) +
          ' ' +
          cardinalityWord(c.kind) +
          ' ' +
          c.cardinality +
          (c.filler.kind === 'Datatype' && c.filler.iri === RDFS_LITERAL && !this.explicitLiteralFiller
            ? ''
            : ' ' + this.dataPrimary(c.filler))
        );
      default:
        return unreachable(c);
    }
  }

  /** An operand of `and` (conjunction) or `or`: unions inside `and`, and nested same-kind lists, need parentheses. */
  private operand(c: ClassExpression, inConjunction: boolean): string {
    const nested = c.kind === 'ObjectUnionOf' || (inConjunction && c.kind === 'ObjectIntersectionOf');
    return nested ? '(' + this.classExpression(c) + ')' : this.classExpression(c);
  }

  /** A primary (restriction filler or `not` operand): only restrictions and atomic expressions go bare. */
  private primary(c: ClassExpression, afterNot: boolean): string {
    const wrap = c.kind === 'ObjectIntersectionOf' || c.kind === 'ObjectUnionOf' || (afterNot && c.kind === 'ObjectComplementOf');
    return wrap ? '(' + this.classExpression(c) + ')' : this.classExpression(c);
  }

  dataRange(d: DataRange): string {
    switch (d.kind) {
      case 'Datatype':
        return this.name(d);
      case 'DataIntersectionOf':
        return sortedJoin(
          naryOperands(
            d.operands.map((o) =>
              o.kind === 'DataUnionOf' || o.kind === 'DataIntersectionOf' ? '(' + this.dataRange(o) + ')' : this.dataRange(o),
            ),
          ),
          ' and ',
        );
      case 'DataUnionOf':
        return sortedJoin(
          naryOperands(d.operands.map((o) => (o.kind === 'DataUnionOf' ? '(' + this.dataRange(o) + ')' : this.dataRange(o)))),
          ' or ',
        );
      case 'DataComplementOf':
        return (
          'not ' +
          (d.operand.kind === 'DataIntersectionOf' || d.operand.kind === 'DataUnionOf' || d.operand.kind === 'DataComplementOf'
            ? '(' + this.dataRange(d.operand) + ')'
            : this.dataRange(d.operand))
        );
      case 'DataOneOf':
        return (
          '{' +
          sortedJoin(
            d.literals.map((l) => this.literal(l)),
            ', ',
          ) +
          '}'
        );
      case 'DatatypeRestriction':
        return (
          this.name(d.datatype) +
          '[' +
          sortedJoin(
            d.restrictions.map((r) => (FACET_SYMBOLS.get(r.facet) ?? this.name(r.facet)) + ' ' + this.literal(r.value)),
            ', ',
          ) +
          ']'
        );
      default:
        return unreachable(d);
    }
  }

  private dataPrimary(d: DataRange): string {
    return d.kind === 'DataIntersectionOf' || d.kind === 'DataUnionOf' ? '(' + this.dataRange(d) + ')' : this.dataRange(d);
  }

  annotationValue(v: AnnotationValue | AnnotationSubject): string {
    switch (v.kind) {
      case 'IRI':
        return this.name(v.iri);
      case 'AnonymousIndividual':
        return this.anonymous(v);
      case 'Literal':
        return this.literal(v);
      default:
        return unreachable(v);
    }
  }

  /** `p v` with the annotation's own annotations first: `Annotations: q w p v`. */
  annotation(a: Annotation): string {
    return this.annotationsPrefix(a.annotations) + this.name(a.property) + ' ' + this.annotationValue(a.value);
  }

  /** `Annotations: a1, a2 ` (sorted), or '' when there are none. */
  annotationsPrefix(anns: readonly Annotation[]): string {
    return anns.length === 0
      ? ''
      : 'Annotations: ' +
          sortedJoin(
            anns.map((a) => this.annotation(a)),
            ', ',
          ) +
          ' ';
  }

  private variableOrIndividual(a: IArg): string {
    return a.kind === 'Variable' ? '?<' + a.iri + '>' : this.individual(a);
  }

  private variableOrLiteral(a: DArg): string {
    return a.kind === 'Variable' ? '?<' + a.iri + '>' : this.literal(a);
  }

  atom(a: Atom): string {
    switch (a.kind) {
      case 'ClassAtom':
        return (
          (a.cls.kind === 'Class' ? this.name(a.cls) : '(' + this.classExpression(a.cls) + ')') +
          '(' +
          this.variableOrIndividual(a.arg) +
          ')'
        );
      case 'DataRangeAtom':
        return this.dataPrimary(a.range) + '(' + this.variableOrLiteral(a.arg) + ')';
      case 'ObjectPropertyAtom':
        return (
          this.objectProperty(a.property) + '(' + this.variableOrIndividual(a.first) + ', ' + this.variableOrIndividual(a.second) + ')'
        );
      case 'DataPropertyAtom':
        return this.name(a.property) + '(' + this.variableOrIndividual(a.first) + ', ' + this.variableOrLiteral(a.second) + ')';
      case 'BuiltInAtom':
        return this.name(a.iri) + '(' + a.args.map((x) => this.variableOrLiteral(x)).join(', ') + ')';
      case 'SameIndividualAtom':
      case 'DifferentIndividualsAtom':
        return (
          (a.kind === 'SameIndividualAtom' ? 'SameAs(' : 'DifferentFrom(') +
          this.variableOrIndividual(a.first) +
          ', ' +
          this.variableOrIndividual(a.second) +
          ')'
        );
      default:
        return unreachable(a);
    }
  }

  /** One readable line per axiom (forms listed at the top of this file). */
  axiom(a: Axiom): string {
    return this.annotationsPrefix(a.annotations) + this.axiomBody(a);
  }

  private axiomBody(a: Axiom): string {
    const ce = (c: ClassExpression) => this.classExpression(c);
    const ope = (p: ObjectPropertyExpression) => this.objectProperty(p);
    const nary = (parts: string[], pairWord: string, frame: string) => {
      parts.sort();
      return parts.length === 2 ? parts[0] + ' ' + pairWord + ' ' + parts[1] : frame + ' ' + parts.join(', ');
    };
    switch (a.kind) {
      case 'Declaration':
        return DECLARATION_WORDS[a.entity.kind] + ' ' + this.name(a.entity);
      case 'SubClassOf':
        return ce(a.sub) + ' SubClassOf ' + ce(a.sup);
      case 'EquivalentClasses':
        return nary(a.classes.map(ce), 'EquivalentTo', 'EquivalentClasses:');
      case 'DisjointClasses':
        return nary(a.classes.map(ce), 'DisjointWith', 'DisjointClasses:');
      case 'DisjointUnion':
        return this.name(a.cls) + ' DisjointUnionOf ' + sortedJoin(a.classes.map(ce), ', ');
      case 'SubObjectPropertyOf':
        return ope(a.sub) + ' SubPropertyOf ' + ope(a.sup);
      case 'SubDataPropertyOf':
      case 'SubAnnotationPropertyOf':
        return this.name(a.sub) + ' SubPropertyOf ' + this.name(a.sup);
      case 'SubPropertyChainOf':
        return a.chain.map(ope).join(' o ') + ' SubPropertyOf ' + ope(a.sup);
      case 'EquivalentObjectProperties':
        return nary(a.properties.map(ope), 'EquivalentTo', 'EquivalentProperties:');
      case 'DisjointObjectProperties':
        return nary(a.properties.map(ope), 'DisjointWith', 'DisjointProperties:');
      case 'EquivalentDataProperties':
        return nary(
          a.properties.map((p) => this.name(p)),
          'EquivalentTo',
          'EquivalentProperties:',
        );
      case 'DisjointDataProperties':
        return nary(
          a.properties.map((p) => this.name(p)),
          'DisjointWith',
          'DisjointProperties:',
        );
      case 'InverseObjectProperties':
        return sortedJoin([ope(a.first), ope(a.second)], ' InverseOf ');
      case 'ObjectPropertyDomain':
        return ope(a.property) + ' Domain ' + ce(a.domain);
      case 'ObjectPropertyRange':
        return ope(a.property) + ' Range ' + ce(a.range);
      case 'DataPropertyDomain':
        return this.name(a.property) + ' Domain ' + ce(a.domain);
      case 'DataPropertyRange':
        return this.name(a.property) + ' Range ' + this.dataRange(a.range);
      case 'AnnotationPropertyDomain':
        return this.name(a.property) + ' Domain ' + this.name(a.domain);
      case 'AnnotationPropertyRange':
        return this.name(a.property) + ' Range ' + this.name(a.range);
      case 'FunctionalObjectProperty':
      case 'InverseFunctionalObjectProperty':
      case 'ReflexiveObjectProperty':
      case 'IrreflexiveObjectProperty':
      case 'SymmetricObjectProperty':
      case 'AsymmetricObjectProperty':
      case 'TransitiveObjectProperty':
        return CHARACTERISTIC_WORDS[a.kind] + ': ' + ope(a.property);
      case 'FunctionalDataProperty':
        return 'Functional: ' + this.name(a.property);
      case 'DatatypeDefinition':
        return this.name(a.datatype) + ' EquivalentTo ' + this.dataRange(a.range);
      case 'HasKey':
        return ce(a.cls) + ' HasKey ' + sortedJoin([...a.objectProperties.map(ope), ...a.dataProperties.map((p) => this.name(p))], ', ');
      case 'SameIndividual':
        return nary(
          a.individuals.map((i) => this.individual(i)),
          'SameAs',
          'SameIndividual:',
        );
      case 'DifferentIndividuals':
        return nary(
          a.individuals.map((i) => this.individual(i)),
          'DifferentFrom',
          'DifferentIndividuals:',
        );
      case 'ClassAssertion':
        return this.individual(a.individual) + ' Type ' + ce(a.cls);
      case 'ObjectPropertyAssertion':
        return this.individual(a.subject) + ' ' + ope(a.property) + ' ' + this.individual(a.object);
      case 'NegativeObjectPropertyAssertion':
        return 'not ' + this.individual(a.subject) + ' ' + ope(a.property) + ' ' + this.individual(a.object);
      case 'DataPropertyAssertion':
        return this.individual(a.subject) + ' ' + this.name(a.property) + ' ' + this.literal(a.value);
      case 'NegativeDataPropertyAssertion':
        return 'not ' + this.individual(a.subject) + ' ' + this.name(a.property) + ' ' + this.literal(a.value);
      case 'AnnotationAssertion':
        return this.annotationValue(a.subject) + ' ' + this.name(a.property) + ' ' + this.annotationValue(a.value);
      case 'DLSafeRule':
        return (
          sortedJoin(
            a.body.map((x) => this.atom(x)),
            ', ',
          ) +
          ' -> ' +
          sortedJoin(
            a.head.map((x) => this.atom(x)),
            ', ',
          )
        );
      default:
        return unreachable(a);
    }
  }
}

function cardinalityWord(kind: string): string {
  return kind.endsWith('MinCardinality') ? 'min' : kind.endsWith('MaxCardinality') ? 'max' : 'exactly';
}
