// Reader of OWL 2 Functional-Style Syntax documents (W3C OWL 2 Structural Specification, section 3.7 and
// the grammar of each construct): a hand-written recursive-descent parser over the token stream of
// lexer.ts. It builds every node through the model's factories and adds the axioms to a fresh Ontology,
// which is returned only when the whole document parsed.

import { MAX_EXPRESSION_NESTING, nestingLimitDetail } from '../nesting.js';
import type {
  Annotation,
  AnnotationSubject,
  AnnotationValue,
  AnonymousIndividual,
  Atom,
  Axiom,
  ClassExpression,
  DArg,
  DataProperty,
  DataRange,
  Entity,
  EntityKind,
  FacetRestriction,
  IArg,
  Individual,
  IRI,
  Literal,
  ObjectPropertyExpression,
  CharacteristicKind,
} from '../../terms.js';
import {
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
  entity,
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
  ENTITY_KINDS,
  documentScope,
} from '../../terms.js';
import { Ontology } from '../../ontology.js';
import { RDF_PLAIN_LITERAL, STANDARD_PREFIXES } from '../../vocab.js';
import { Lexer, Tok, describe } from './lexer.js';

export interface ReadFunctionalOptions {
  /** Base IRI against which relative full IRIs are resolved. */
  base?: string | undefined;
  /**
   * Blank-node labels are local to their document, so by default each parse prefixes them afresh; true
   * keeps them as written, for text that names this process's anonymous individuals (the change journal).
   */
  keepBlankNodeLabels?: boolean;
}

/** Parses a functional-syntax document; throws ParseError('ofn', ...) with line and column on bad input. */
export function readFunctional(text: string, options: ReadFunctionalOptions = {}): Ontology {
  return new FunctionalParser(text, options.base, options.keepBlankNodeLabels === true ? '' : 'ofn' + documentScope() + '_').document();
}

const ENTITY_KEYWORDS = new Set<string>(ENTITY_KINDS);

const CHARACTERISTICS = new Set<string>([
  'FunctionalObjectProperty',
  'InverseFunctionalObjectProperty',
  'ReflexiveObjectProperty',
  'IrreflexiveObjectProperty',
  'SymmetricObjectProperty',
  'AsymmetricObjectProperty',
  'TransitiveObjectProperty',
]);

/** True when the IRI has a scheme (RFC 3987: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"). */
function isAbsolute(iri: string): boolean {
  const n = iri.length;
  for (let i = 0; i < n; i++) {
    const c = iri.charCodeAt(i);
    if (c === 0x3a) return i > 0;
    const alpha = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
    if (!alpha && (i === 0 || !((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e))) return false;
  }
  return false;
}

class FunctionalParser {
  private readonly lx: Lexer;
  private readonly prefixes = new Map<string, string>(STANDARD_PREFIXES);
  private readonly anons = new Map<string, AnonymousIndividual>();
  private readonly o = new Ontology();
  private keywordLine = 0;
  private keywordCol = 0;
  /** Open parentheses: past the nesting limit the document is refused before recursion can overflow. */
  private depth = 0;

  constructor(
    text: string,
    private readonly base: string | undefined,
    private readonly scope: string,
  ) {
    this.lx = new Lexer(text);
  }

  // ------------------------------------------------------------ document structure

  document(): Ontology {
    const lx = this.lx;
    while (this.atKeyword('Prefix')) {
      lx.next();
      this.open();
      if (lx.tok() !== Tok.Word || lx.colon !== lx.text.length - 1) throw this.unexpected("a prefix name ending in ':'");
      const name = lx.text;
      lx.next();
      this.expect(Tok.Equals, "'='");
      if (lx.tok() !== Tok.FullIri) throw this.unexpected('a full IRI <...>');
      const ns = this.resolve(lx.text);
      lx.next();
      this.close();
      this.prefixes.set(name, ns);
    }
    if (!this.atKeyword('Ontology')) throw this.unexpected("'Prefix(' or 'Ontology('");
    lx.next();
    this.open();
    const o = this.o;
    if (this.atIri()) {
      const iri = this.iri();
      const versionIri = this.atIri() ? this.iri() : null;
      o.id = { iri, versionIri };
    }
    while (this.atKeyword('Import')) {
      lx.next();
      this.open();
      o.imports.add(this.iri());
      this.close();
    }
    while (this.atKeyword('Annotation')) o.annotations.add(this.annotation());
    while (lx.tok() !== Tok.RParen) o.add(this.axiom());
    lx.next();
    if (lx.tok() !== Tok.EOF) throw this.unexpected('end of input after the ontology');
    // The standard prefixes are implicitly declared (the OWL API reports them in the prefix map too).
    for (const [name, ns] of this.prefixes) o.prefixes.set(name, ns);
    o.format = 'ofn';
    return o;
  }

  // ------------------------------------------------------------ token helpers

  private unexpected(what: string) {
    return this.lx.error(`expected ${what} but found ${describe(this.lx)}`);
  }

  private expect(t: Tok, what: string): void {
    if (this.lx.tok() !== t) throw this.unexpected(what);
    this.lx.next();
  }

  private open(): void {
    if (this.depth === MAX_EXPRESSION_NESTING) throw this.lx.error(nestingLimitDetail('constructs'));
    this.expect(Tok.LParen, "'('");
    this.depth++;
  }

  private close(): void {
    this.expect(Tok.RParen, "')'");
    this.depth--;
  }

  private atKeyword(k: string): boolean {
    return this.lx.tok() === Tok.Word && this.lx.text === k;
  }

  /** A full or abbreviated IRI (a node ID `_:x` is neither). */
  private atIri(): boolean {
    const lx = this.lx;
    return lx.tok() === Tok.FullIri || (lx.tok() === Tok.Word && lx.colon >= 0 && !this.atNodeId());
  }

  private atNodeId(): boolean {
    const t = this.lx.text;
    return this.lx.colon === 1 && t.charCodeAt(0) === 0x5f;
  }

  /** An error at the keyword last read by openConstruct (for unknown constructors). */
  private unknown(what: string, keyword: string) {
    return this.lx.error(`unknown ${what} '${keyword}'`, this.keywordLine, this.keywordCol);
  }

  /** Reads a keyword that opens a construct, with its '('. */
  private openConstruct(what: string): string {
    const lx = this.lx;
    if (lx.tok() !== Tok.Word || lx.colon >= 0) throw this.unexpected(what);
    const k = lx.text;
    this.keywordLine = lx.line;
    this.keywordCol = lx.col;
    lx.next();
    this.open();
    return k;
  }

  private resolve(iri: string): string {
    if (this.base === undefined || isAbsolute(iri)) return iri;
    try {
      return new URL(iri, this.base).href;
    } catch {
      throw this.lx.error(`cannot resolve relative IRI <${iri}> against base <${this.base}>`);
    }
  }

  // ------------------------------------------------------------ IRIs, entities, literals

  private iri(): IRI {
    const lx = this.lx;
    let iri: string;
    if (lx.tok() === Tok.FullIri) {
      iri = this.resolve(lx.text);
    } else if (lx.tok() === Tok.Word && lx.colon >= 0) {
      if (this.atNodeId()) throw this.lx.error(`an anonymous individual (${lx.text}) is not allowed here; expected an IRI`);
      const prefix = lx.text.slice(0, lx.colon + 1);
      const ns = this.prefixes.get(prefix);
      if (ns === undefined) throw this.lx.error(`unknown prefix '${prefix}' in ${lx.text}`);
      iri = ns + lx.text.slice(lx.colon + 1);
    } else {
      throw this.unexpected('an IRI');
    }
    lx.next();
    return iri;
  }

  private entity(): Entity {
    const kind = this.openConstruct('an entity (Class(...), ObjectProperty(...), ...)');
    if (!ENTITY_KEYWORDS.has(kind)) throw this.unknown('entity type', kind);
    const e = entity(kind as EntityKind, this.iri());
    this.close();
    return e;
  }

  private anonymous(): AnonymousIndividual {
    const label = this.lx.text.slice(2);
    let a = this.anons.get(label);
    if (a === undefined) this.anons.set(label, (a = anonymousIndividual(this.scope + label)));
    this.lx.next();
    return a;
  }

  private individual(): Individual {
    const lx = this.lx;
    if (lx.tok() === Tok.Word && this.atNodeId()) return this.anonymous();
    return namedIndividual(this.iri());
  }

  private literal(): Literal {
    const lx = this.lx;
    if (lx.tok() !== Tok.String) throw this.unexpected('a literal "..."');
    const lex = lx.text;
    lx.next();
    if (lx.tok() === Tok.DoubleCaret) {
      lx.next();
      const dt = this.iri();
      return dt === RDF_PLAIN_LITERAL ? plainLiteral(lex) : literal(lex, dt);
    }
    if (lx.tok() === Tok.LangTag) {
      const lang = lx.text;
      lx.next();
      return literal(lex, undefined, lang);
    }
    return literal(lex);
  }

  private cardinality(): number {
    const lx = this.lx;
    const t = lx.text;
    let ok = lx.tok() === Tok.Word && t.length > 0;
    for (let i = 0; ok && i < t.length; i++) {
      const c = t.charCodeAt(i);
      ok = c >= 0x30 && c <= 0x39;
    }
    if (!ok) throw this.unexpected('a non-negative integer');
    lx.next();
    return Number(t);
  }

  // ------------------------------------------------------------ annotations

  /** Zero or more `Annotation(...)` in front of an axiom or inside an annotation. */
  private annotations(): Annotation[] | undefined {
    if (!this.atKeyword('Annotation')) return undefined;
    const out: Annotation[] = [];
    while (this.atKeyword('Annotation')) out.push(this.annotation());
    return out;
  }

  private annotation(): Annotation {
    this.lx.next();
    this.open();
    const nested = this.annotations();
    const p = annotationProperty(this.iri());
    const v = this.annotationValue();
    this.close();
    return annotation(p, v, nested);
  }

  private annotationValue(): AnnotationValue {
    if (this.lx.tok() === Tok.String) return this.literal();
    return this.annotationSubject();
  }

  private annotationSubject(): AnnotationSubject {
    const lx = this.lx;
    if (lx.tok() === Tok.Word && this.atNodeId()) return this.anonymous();
    if (!this.atIri()) throw this.unexpected('an IRI, an anonymous individual or a literal');
    return iriNode(this.iri());
  }

  // ------------------------------------------------------------ property expressions

  private ope(): ObjectPropertyExpression {
    if (this.atIri()) return objectProperty(this.iri());
    const k = this.openConstruct('an object property expression');
    if (k !== 'ObjectInverseOf')
      throw this.lx.error(`expected ObjectInverseOf(...) but found ${k}(...)`, this.keywordLine, this.keywordCol);
    const p = objectInverseOf(objectProperty(this.iri()));
    this.close();
    return p;
  }

  private dp(): DataProperty {
    return dataProperty(this.iri());
  }

  private opes(min: number): ObjectPropertyExpression[] {
    const out: ObjectPropertyExpression[] = [];
    while (this.lx.tok() !== Tok.RParen) out.push(this.ope());
    this.atLeast(out, min, 'object property expressions');
    return out;
  }

  private dps(min: number): DataProperty[] {
    const out: DataProperty[] = [];
    while (this.lx.tok() !== Tok.RParen) out.push(this.dp());
    this.atLeast(out, min, 'data property expressions');
    return out;
  }

  /**
   * N-ary constructs are read with one operand too (the grammar wants two): other formats' lax readers
   * produce them, e.g. owl:unionOf with a one-element list, and a document Athene wrote must read back.
   */
  private atLeast(items: unknown[], min: number, what: string): void {
    if (items.length < min) throw this.lx.error(`expected at least ${min} ${what}`);
  }

  // ------------------------------------------------------------ data ranges

  private dataRange(): DataRange {
    if (this.atIri()) return datatype(this.iri());
    const k = this.openConstruct('a data range');
    let d: DataRange;
    switch (k) {
      case 'DataIntersectionOf':
        d = dataIntersectionOf(this.dataRanges(1));
        break;
      case 'DataUnionOf':
        d = dataUnionOf(this.dataRanges(1));
        break;
      case 'DataComplementOf':
        d = dataComplementOf(this.dataRange());
        break;
      case 'DataOneOf': {
        const ls: Literal[] = [];
        while (this.lx.tok() !== Tok.RParen) ls.push(this.literal());
        this.atLeast(ls, 1, 'literals');
        d = dataOneOf(ls);
        break;
      }
      case 'DatatypeRestriction': {
        const dt = datatype(this.iri());
        const rs: FacetRestriction[] = [];
        while (this.lx.tok() !== Tok.RParen) {
          const facet = this.iri();
          rs.push(facetRestriction(facet, this.literal()));
        }
        this.atLeast(rs, 1, 'facet restrictions');
        d = datatypeRestriction(dt, rs);
        break;
      }
      default:
        throw this.unknown('data range constructor', k);
    }
    this.close();
    return d;
  }

  private dataRanges(min: number): DataRange[] {
    const out: DataRange[] = [];
    while (this.lx.tok() !== Tok.RParen) out.push(this.dataRange());
    this.atLeast(out, min, 'data ranges');
    return out;
  }

  // ------------------------------------------------------------ class expressions

  private classExpression(): ClassExpression {
    if (this.atIri()) return cls(this.iri());
    const k = this.openConstruct('a class expression');
    let c: ClassExpression;
    switch (k) {
      case 'ObjectIntersectionOf':
        c = objectIntersectionOf(this.classExpressions(1));
        break;
      case 'ObjectUnionOf':
        c = objectUnionOf(this.classExpressions(1));
        break;
      case 'ObjectComplementOf':
        c = objectComplementOf(this.classExpression());
        break;
      case 'ObjectOneOf': {
        const is: Individual[] = [];
        while (this.lx.tok() !== Tok.RParen) is.push(this.individual());
        this.atLeast(is, 1, 'individuals');
        c = objectOneOf(is);
        break;
      }
      case 'ObjectSomeValuesFrom': {
        const p = this.ope();
        c = objectSomeValuesFrom(p, this.classExpression());
        break;
      }
      case 'ObjectAllValuesFrom': {
        const p = this.ope();
        c = objectAllValuesFrom(p, this.classExpression());
        break;
      }
      case 'ObjectHasValue': {
        const p = this.ope();
        c = objectHasValue(p, this.individual());
        break;
      }
      case 'ObjectHasSelf':
        c = objectHasSelf(this.ope());
        break;
      case 'ObjectMinCardinality':
      case 'ObjectMaxCardinality':
      case 'ObjectExactCardinality': {
        const n = this.cardinality();
        const p = this.ope();
        const filler = this.lx.tok() === Tok.RParen ? undefined : this.classExpression();
        c =
          k === 'ObjectMinCardinality'
            ? objectMinCardinality(n, p, filler)
            : k === 'ObjectMaxCardinality'
              ? objectMaxCardinality(n, p, filler)
              : objectExactCardinality(n, p, filler);
        break;
      }
      case 'DataSomeValuesFrom':
      case 'DataAllValuesFrom': {
        // OWL 2 allows several data properties with an n-ary data range; the model has the unary form only.
        const p = this.dp();
        if (this.atAnotherDataProperty()) throw this.lx.error(`${k} with several data properties is not supported`);
        const r = this.dataRange();
        c = k === 'DataSomeValuesFrom' ? dataSomeValuesFrom(p, r) : dataAllValuesFrom(p, r);
        break;
      }
      case 'DataHasValue': {
        const p = this.dp();
        c = dataHasValue(p, this.literal());
        break;
      }
      case 'DataMinCardinality':
      case 'DataMaxCardinality':
      case 'DataExactCardinality': {
        const n = this.cardinality();
        const p = this.dp();
        const filler = this.lx.tok() === Tok.RParen ? undefined : this.dataRange();
        c =
          k === 'DataMinCardinality'
            ? dataMinCardinality(n, p, filler)
            : k === 'DataMaxCardinality'
              ? dataMaxCardinality(n, p, filler)
              : dataExactCardinality(n, p, filler);
        break;
      }
      default:
        throw this.unknown('class expression constructor', k);
    }
    this.close();
    return c;
  }

  /** In DataSome/AllValuesFrom after the first property: whether another data property follows (n-ary form). */
  private atAnotherDataProperty(): boolean {
    if (!this.atIri()) return false;
    const saved = this.lx.snapshot();
    this.lx.next();
    const more = this.lx.tok() !== Tok.RParen;
    this.lx.restore(saved);
    return more;
  }

  private classExpressions(min: number): ClassExpression[] {
    const out: ClassExpression[] = [];
    while (this.lx.tok() !== Tok.RParen) out.push(this.classExpression());
    this.atLeast(out, min, 'class expressions');
    return out;
  }

  private individuals(min: number): Individual[] {
    const out: Individual[] = [];
    while (this.lx.tok() !== Tok.RParen) out.push(this.individual());
    this.atLeast(out, min, 'individuals');
    return out;
  }

  // ------------------------------------------------------------ SWRL

  private atoms(keyword: 'Body' | 'Head'): Atom[] {
    if (!this.atKeyword(keyword)) throw this.unexpected(`'${keyword}('`);
    this.lx.next();
    this.open();
    const out: Atom[] = [];
    while (this.lx.tok() !== Tok.RParen) out.push(this.atom());
    this.lx.next();
    return out;
  }

  private atom(): Atom {
    const k = this.openConstruct('a SWRL atom');
    let a: Atom;
    switch (k) {
      case 'ClassAtom': {
        const c = this.classExpression();
        a = classAtom(c, this.iarg());
        break;
      }
      case 'DataRangeAtom': {
        const d = this.dataRange();
        a = dataRangeAtom(d, this.darg());
        break;
      }
      case 'ObjectPropertyAtom': {
        const p = this.ope();
        const x = this.iarg();
        a = objectPropertyAtom(p, x, this.iarg());
        break;
      }
      case 'DataPropertyAtom': {
        const p = this.dp();
        const x = this.iarg();
        a = dataPropertyAtom(p, x, this.darg());
        break;
      }
      case 'BuiltInAtom': {
        const iri = this.iri();
        const args: DArg[] = [];
        while (this.lx.tok() !== Tok.RParen) args.push(this.darg());
        this.atLeast(args, 1, 'built-in arguments');
        a = builtInAtom(iri, args);
        break;
      }
      case 'SameIndividualAtom': {
        const x = this.iarg();
        a = sameIndividualAtom(x, this.iarg());
        break;
      }
      case 'DifferentIndividualsAtom': {
        const x = this.iarg();
        a = differentIndividualsAtom(x, this.iarg());
        break;
      }
      default:
        throw this.unknown('SWRL atom', k);
    }
    this.close();
    return a;
  }

  private variable() {
    this.lx.next();
    this.open();
    const v = variable(this.iri());
    this.close();
    return v;
  }

  private iarg(): IArg {
    return this.atKeyword('Variable') ? this.variable() : this.individual();
  }

  private darg(): DArg {
    return this.atKeyword('Variable') ? this.variable() : this.literal();
  }

  // ------------------------------------------------------------ axioms

  private axiom(): Axiom {
    const lx = this.lx;
    const line = lx.line,
      col = lx.col;
    const k = this.openConstruct('an axiom');
    const anns = this.annotations();
    let a: Axiom;
    switch (k) {
      case 'Declaration':
        a = declaration(this.entity(), anns);
        break;
      case 'SubClassOf': {
        const sub = this.classExpression();
        a = subClassOf(sub, this.classExpression(), anns);
        break;
      }
      case 'EquivalentClasses':
        a = equivalentClasses(this.classExpressions(1), anns);
        break;
      case 'DisjointClasses':
        a = disjointClasses(this.classExpressions(1), anns);
        break;
      case 'DisjointUnion': {
        const c = cls(this.iri());
        a = disjointUnion(c, this.classExpressions(1), anns);
        break;
      }
      case 'SubObjectPropertyOf': {
        if (this.atKeyword('ObjectPropertyChain')) {
          lx.next();
          this.open();
          const chain = this.opes(2);
          this.close();
          a = subPropertyChainOf(chain, this.ope(), anns);
        } else {
          const sub = this.ope();
          a = subObjectPropertyOf(sub, this.ope(), anns);
        }
        break;
      }
      case 'EquivalentObjectProperties':
        a = equivalentObjectProperties(this.opes(1), anns);
        break;
      case 'DisjointObjectProperties':
        a = disjointObjectProperties(this.opes(1), anns);
        break;
      case 'InverseObjectProperties': {
        const p = this.ope();
        a = inverseObjectProperties(p, this.ope(), anns);
        break;
      }
      case 'ObjectPropertyDomain': {
        const p = this.ope();
        a = objectPropertyDomain(p, this.classExpression(), anns);
        break;
      }
      case 'ObjectPropertyRange': {
        const p = this.ope();
        a = objectPropertyRange(p, this.classExpression(), anns);
        break;
      }
      case 'SubDataPropertyOf': {
        const sub = this.dp();
        a = subDataPropertyOf(sub, this.dp(), anns);
        break;
      }
      case 'EquivalentDataProperties':
        a = equivalentDataProperties(this.dps(1), anns);
        break;
      case 'DisjointDataProperties':
        a = disjointDataProperties(this.dps(1), anns);
        break;
      case 'DataPropertyDomain': {
        const p = this.dp();
        a = dataPropertyDomain(p, this.classExpression(), anns);
        break;
      }
      case 'DataPropertyRange': {
        const p = this.dp();
        a = dataPropertyRange(p, this.dataRange(), anns);
        break;
      }
      case 'FunctionalDataProperty':
        a = functionalDataProperty(this.dp(), anns);
        break;
      case 'DatatypeDefinition': {
        const dt = datatype(this.iri());
        a = datatypeDefinition(dt, this.dataRange(), anns);
        break;
      }
      case 'HasKey': {
        const c = this.classExpression();
        this.open();
        const ops = this.opes(0);
        this.close();
        this.open();
        const dps = this.dps(0);
        this.close();
        if (ops.length + dps.length === 0) throw lx.error('HasKey needs at least one property', line, col);
        a = hasKey(c, ops, dps, anns);
        break;
      }
      case 'SameIndividual':
        a = sameIndividual(this.individuals(1), anns);
        break;
      case 'DifferentIndividuals':
        a = differentIndividuals(this.individuals(1), anns);
        break;
      case 'ClassAssertion': {
        const c = this.classExpression();
        a = classAssertion(c, this.individual(), anns);
        break;
      }
      case 'ObjectPropertyAssertion':
      case 'NegativeObjectPropertyAssertion': {
        const p = this.ope();
        const s = this.individual();
        const o = this.individual();
        a = k === 'ObjectPropertyAssertion' ? objectPropertyAssertion(p, s, o, anns) : negativeObjectPropertyAssertion(p, s, o, anns);
        break;
      }
      case 'DataPropertyAssertion':
      case 'NegativeDataPropertyAssertion': {
        const p = this.dp();
        const s = this.individual();
        const v = this.literal();
        a = k === 'DataPropertyAssertion' ? dataPropertyAssertion(p, s, v, anns) : negativeDataPropertyAssertion(p, s, v, anns);
        break;
      }
      case 'AnnotationAssertion': {
        const p = annotationProperty(this.iri());
        const s = this.annotationSubject();
        a = annotationAssertion(p, s, this.annotationValue(), anns);
        break;
      }
      case 'SubAnnotationPropertyOf': {
        const sub = annotationProperty(this.iri());
        a = subAnnotationPropertyOf(sub, annotationProperty(this.iri()), anns);
        break;
      }
      case 'AnnotationPropertyDomain': {
        const p = annotationProperty(this.iri());
        a = annotationPropertyDomain(p, this.iri(), anns);
        break;
      }
      case 'AnnotationPropertyRange': {
        const p = annotationProperty(this.iri());
        a = annotationPropertyRange(p, this.iri(), anns);
        break;
      }
      case 'DLSafeRule': {
        const body = this.atoms('Body');
        a = dlSafeRule(body, this.atoms('Head'), anns);
        break;
      }
      default:
        if (CHARACTERISTICS.has(k)) {
          a = objectPropertyCharacteristic(k as CharacteristicKind, this.ope(), anns);
          break;
        }
        throw this.unknown('axiom type', k);
    }
    this.close();
    return a;
  }
}

/** An rdf:PlainLiteral "text@lang": the part after the last '@' is the language tag (empty: none). */
function plainLiteral(lex: string): Literal {
  const at = lex.lastIndexOf('@');
  if (at < 0) return literal(lex);
  const lang = lex.slice(at + 1);
  return lang ? literal(lex.slice(0, at), undefined, lang) : literal(lex.slice(0, at));
}
