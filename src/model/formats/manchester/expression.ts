// Manchester OWL Syntax class expressions and data ranges (W3C Manchester syntax note, section 2.4),
// shared by the document reader and by the tools, which accept expressions as operands.
//
// Precedence, loosest first: `or`, `and` (and `C that R`), `not`, restrictions, atomic. A restriction's
// filler is a primary, so `p some A and B` is `(p some A) and B`. A name's entity kind comes from the
// NameResolver; when it knows none, the syntactic position decides (`p some C`: object property, unless
// the filler is a datatype, data range or literal).

import type { ClassExpression, DataProperty, DataRange, Datatype, Individual, Literal, ObjectPropertyExpression } from '../../terms.js';
import {
  anonymousIndividual,
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
  dataSomeValuesFrom,
  dataUnionOf,
  datatype,
  datatypeRestriction,
  facetRestriction,
  literal,
  namedIndividual,
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
  objectSomeValuesFrom,
  objectUnionOf,
} from '../../terms.js';
import type { NameResolver, ResolvedName } from '../../names.js';
import { NameError } from '../../names.js';
import { BUILT_IN_DATATYPES, RDF, XSD } from '../../vocab.js';
import { ManchesterParseError, describe, tokenize, type Token } from './lexer.js';
import { MAX_EXPRESSION_NESTING, nestingLimitDetail } from '../nesting.js';

export { ManchesterParseError } from './lexer.js';

/**
 * An expression nested past MAX_EXPRESSION_NESTING, counting each `not`, parenthesis, restriction and
 * `inverse` as a level (`not (A)` is two): a bad argument, whatever tool it was given to.
 */
export class ExpressionNestingError extends ManchesterParseError {
  constructor(line: number, column: number) {
    super(nestingLimitDetail('expression'), line, column);
    this.name = 'ExpressionNestingError';
  }
}

/** The four datatype keywords of the Manchester grammar (`Datatype ::= datatypeIRI | 'integer' | ...`). */
const DATATYPE_KEYWORDS: ReadonlyMap<string, string> = new Map([
  ['integer', XSD + 'integer'],
  ['decimal', XSD + 'decimal'],
  ['float', XSD + 'float'],
  ['string', XSD + 'string'],
]);

const FACET_WORDS: ReadonlyMap<string, string> = new Map([
  ['length', XSD + 'length'],
  ['minLength', XSD + 'minLength'],
  ['maxLength', XSD + 'maxLength'],
  ['pattern', XSD + 'pattern'],
  ['langRange', RDF + 'langRange'],
  ['totalDigits', XSD + 'totalDigits'],
  ['fractionDigits', XSD + 'fractionDigits'],
  ['<', XSD + 'maxExclusive'],
  ['<=', XSD + 'maxInclusive'],
  ['>', XSD + 'minExclusive'],
  ['>=', XSD + 'minInclusive'],
]);

const RESTRICTION_WORDS = new Set(['some', 'only', 'value', 'min', 'max', 'exactly', 'Self']);
/** Words that cannot start a filler (they continue or end the enclosing expression). */
const RESERVED = new Set(['and', 'or', 'that', 'some', 'only', 'value', 'min', 'max', 'exactly', 'Self', 'o']);

type NumberKind = 'integer' | 'decimal' | 'float' | 'double' | null;

/** Classifies a word as a Manchester number literal without regular expressions. */
export function numberKind(w: string): NumberKind {
  let i = 0;
  const n = w.length;
  if (n === 0) return null;
  if (w[0] === '+' || w[0] === '-') i++;
  let digits = 0;
  while (i < n && w.charCodeAt(i) >= 0x30 && w.charCodeAt(i) <= 0x39) {
    i++;
    digits++;
  }
  let kind: NumberKind = 'integer';
  if (i < n && w[i] === '.') {
    i++;
    let frac = 0;
    while (i < n && w.charCodeAt(i) >= 0x30 && w.charCodeAt(i) <= 0x39) {
      i++;
      frac++;
    }
    if (frac === 0) return null;
    digits += frac;
    kind = 'decimal';
  }
  if (digits === 0) return null;
  if (i < n && (w[i] === 'e' || w[i] === 'E')) {
    i++;
    if (i < n && (w[i] === '+' || w[i] === '-')) i++;
    let exp = 0;
    while (i < n && w.charCodeAt(i) >= 0x30 && w.charCodeAt(i) <= 0x39) {
      i++;
      exp++;
    }
    if (exp === 0) return null;
    kind = 'double';
  }
  if (i < n && (w[i] === 'f' || w[i] === 'F')) {
    i++;
    kind = 'float';
  }
  return i === n ? kind : null;
}

/**
 * A recursive-descent parser over a token array. The document reader extends it with frames; the
 * standalone entry points below use it directly. With `wrapNameErrors` a NameError from the resolver
 * becomes a ManchesterParseError at the token's position (documents); otherwise it propagates unchanged
 * so callers keep its candidate list (ambiguous display names).
 */
export class ExpressionParser {
  protected i = 0;
  /** Open `not`s, parentheses, restrictions and `inverse`s; a parse error abandons the parser, so no unwinding. */
  private depth = 0;

  constructor(
    protected readonly tokens: Token[],
    protected readonly names: NameResolver,
    protected readonly wrapNameErrors = false,
    /** Turns a `_:label` into a node id; documents scope labels to the document. */
    protected readonly nodeId: (label: string) => string = (l) => l,
  ) {}

  // ------------------------------------------------------------ token helpers

  // The tokens end with eof, which no rule consumes: i stays below tokens.length, and so does peek's clamp.
  protected get tok(): Token {
    return this.tokens[this.i]!;
  }

  protected peek(k = 1): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)]!;
  }

  protected isWord(w: string, t: Token = this.tok): boolean {
    return t.type === 'word' && t.value === w;
  }

  protected isPunct(p: string, t: Token = this.tok): boolean {
    return t.type === 'punct' && t.value === p;
  }

  protected acceptWord(w: string): boolean {
    if (!this.isWord(w)) return false;
    this.i++;
    return true;
  }

  protected acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.i++;
    return true;
  }

  protected expectPunct(p: string): void {
    if (!this.acceptPunct(p)) this.fail(`'${p}'`);
  }

  protected fail(expected: string, t: Token = this.tok): never {
    throw new ManchesterParseError(`expected ${expected} but found ${describe(t)}`, t.line, t.col);
  }

  protected error(message: string, t: Token = this.tok): never {
    throw new ManchesterParseError(message, t.line, t.col);
  }

  /** A token that can be an entity name: IRI, quoted name, or a word that is no keyword or number. */
  protected isName(t: Token = this.tok): boolean {
    if (t.type === 'iri' || t.type === 'quoted') return true;
    if (t.type !== 'word') return false;
    const v = t.value;
    return !RESERVED.has(v) && v !== 'not' && v !== 'inverse' && !v.startsWith('_:') && v[v.length - 1] !== ':' && numberKind(v) === null;
  }

  protected resolveToken(t: Token): ResolvedName {
    const text = t.type === 'iri' ? '<' + t.value + '>' : t.type === 'quoted' ? "'" + t.value + "'" : t.value;
    try {
      return this.names.resolve(text);
    } catch (e) {
      if (this.wrapNameErrors && e instanceof NameError) this.error(e.message, t);
      throw e;
    }
  }

  /** Consumes a name token and resolves it. */
  protected name(what: string): ResolvedName {
    const t = this.tok;
    if (!this.isName(t)) this.fail(what);
    this.i++;
    return this.resolveToken(t);
  }

  // ------------------------------------------------------------ literals

  protected isLiteralStart(t: Token = this.tok): boolean {
    if (t.type === 'string') return true;
    return t.type === 'word' && (t.value === 'true' || t.value === 'false' || numberKind(t.value) !== null);
  }

  literal(): Literal {
    const t = this.tok;
    if (t.type === 'string') {
      this.i++;
      if (t.lang) return literal(t.value, undefined, t.lang);
      if (this.acceptPunct('^^')) return literal(t.value, this.datatypeName().iri);
      return literal(t.value);
    }
    if (t.type === 'word') {
      if (t.value === 'true' || t.value === 'false') {
        this.i++;
        return literal(t.value, XSD + 'boolean');
      }
      const k = numberKind(t.value);
      if (k !== null) {
        this.i++;
        if (k === 'float') return literal(t.value.slice(0, -1), XSD + 'float');
        return literal(t.value, XSD + k);
      }
    }
    return this.fail('a literal');
  }

  // ------------------------------------------------------------ individuals and properties

  individual(): Individual {
    const t = this.tok;
    if (t.type === 'word' && t.value.startsWith('_:')) {
      this.i++;
      return anonymousIndividual(this.nodeId(t.value.slice(2)));
    }
    return namedIndividual(this.name('an individual name').iri);
  }

  /** Counts one level of nesting; past the limit the expression is refused before it can overflow the stack. */
  private enter(): void {
    if (++this.depth > MAX_EXPRESSION_NESTING) throw new ExpressionNestingError(this.tok.line, this.tok.col);
  }

  private leave<T>(parsed: T): T {
    this.depth--;
    return parsed;
  }

  /** `p`, `inverse p`, `inverse (p)`. */
  objectPropertyExpression(): ObjectPropertyExpression {
    if (this.isWord('inverse')) {
      this.enter();
      this.i++;
      const paren = this.acceptPunct('(');
      const p = this.objectPropertyExpression();
      if (paren) this.expectPunct(')');
      // inverse (inverse p) is p
      return this.leave(p.kind === 'ObjectInverseOf' ? p.property : objectInverseOf(p));
    }
    return objectProperty(this.name('an object property name').iri);
  }

  dataPropertyName(): DataProperty {
    return dataProperty(this.name('a data property name').iri);
  }

  // ------------------------------------------------------------ class expressions

  description(): ClassExpression {
    const first = this.conjunction();
    if (!this.isWord('or')) return first;
    const ops = [first];
    while (this.acceptWord('or')) ops.push(this.conjunction());
    return objectUnionOf(ops);
  }

  private conjunction(): ClassExpression {
    const first = this.primary();
    const ops = [first];
    if (this.isWord('that')) {
      if (first.kind !== 'Class') this.fail("'and' or 'or' (only a class name may precede 'that')");
      this.i++;
      ops.push(this.primary());
    }
    while (this.acceptWord('and')) ops.push(this.primary());
    return ops.length === 1 ? first : objectIntersectionOf(ops);
  }

  primary(): ClassExpression {
    if (this.isWord('not')) {
      this.enter();
      this.i++;
      return this.leave(objectComplementOf(this.primary()));
    }
    if (this.isWord('inverse')) {
      this.enter();
      return this.leave(this.objectRestriction(this.objectPropertyExpression()));
    }
    if (this.isName() && this.peek().type === 'word' && RESTRICTION_WORDS.has(this.peek().value)) {
      this.enter();
      return this.leave(this.restriction());
    }
    return this.atomic();
  }

  protected atomic(): ClassExpression {
    if (this.isPunct('(')) {
      this.enter();
      this.i++;
      const d = this.description();
      this.expectPunct(')');
      return this.leave(d);
    }
    if (this.acceptPunct('{')) {
      const inds = [this.individual()];
      while (this.acceptPunct(',')) inds.push(this.individual());
      this.expectPunct('}');
      return objectOneOf(inds);
    }
    if (!this.isName()) this.fail("a class name, '(', '{', 'not' or a restriction");
    return cls(this.name('a class name').iri);
  }

  /** A restriction on a named property whose kind the resolver or the filler decides. */
  private restriction(): ClassExpression {
    const r = this.name('a property name');
    const keyword = this.tok.value;
    const isObject = r.kinds.has('ObjectProperty');
    const isData = r.kinds.has('DataProperty');
    let data: boolean;
    if (isObject !== isData) data = isData;
    else if (keyword === 'value') data = this.isLiteralStart(this.peek());
    else if (keyword === 'some' || keyword === 'only') data = this.looksLikeDataRange(this.i + 1);
    else if (keyword === 'Self') data = false;
    else data = this.isFillerStart(this.peek(2)) && this.looksLikeDataRange(this.i + 2);
    if (isObject && isData && keyword === 'Self') data = false;
    if (data) return this.dataRestriction(dataProperty(r.iri));
    return this.objectRestriction(objectProperty(r.iri));
  }

  private objectRestriction(p: ObjectPropertyExpression): ClassExpression {
    const t = this.tok;
    if (t.type === 'word') {
      switch (t.value) {
        case 'some':
          this.i++;
          return objectSomeValuesFrom(p, this.primary());
        case 'only':
          this.i++;
          return objectAllValuesFrom(p, this.primary());
        case 'value':
          this.i++;
          return objectHasValue(p, this.individual());
        case 'Self':
          this.i++;
          return objectHasSelf(p);
        case 'min':
        case 'max':
        case 'exactly': {
          this.i++;
          const n = this.cardinality();
          const filler = this.isFillerStart() ? this.primary() : undefined;
          return t.value === 'min'
            ? objectMinCardinality(n, p, filler)
            : t.value === 'max'
              ? objectMaxCardinality(n, p, filler)
              : objectExactCardinality(n, p, filler);
        }
      }
    }
    return this.fail("'some', 'only', 'value', 'Self', 'min', 'max' or 'exactly'");
  }

  private dataRestriction(p: DataProperty): ClassExpression {
    const t = this.tok;
    switch (t.value) {
      case 'some':
        this.i++;
        return dataSomeValuesFrom(p, this.dataPrimary());
      case 'only':
        this.i++;
        return dataAllValuesFrom(p, this.dataPrimary());
      case 'value':
        this.i++;
        return dataHasValue(p, this.literal());
      case 'min':
      case 'max':
      case 'exactly': {
        this.i++;
        const n = this.cardinality();
        const filler = this.isFillerStart() ? this.dataPrimary() : undefined;
        return t.value === 'min'
          ? dataMinCardinality(n, p, filler)
          : t.value === 'max'
            ? dataMaxCardinality(n, p, filler)
            : dataExactCardinality(n, p, filler);
      }
    }
    return this.fail(`'some', 'only', 'value', 'min', 'max' or 'exactly' after data property`);
  }

  private cardinality(): number {
    const t = this.tok;
    if (t.type !== 'word' || numberKind(t.value) !== 'integer' || t.value[0] === '-' || t.value[0] === '+') {
      this.fail('a non-negative integer');
    }
    this.i++;
    return Number(t.value);
  }

  /** Whether an optional cardinality filler starts at the token. */
  private isFillerStart(t: Token = this.tok): boolean {
    return this.isName(t) || this.isPunct('(', t) || this.isPunct('{', t) || this.isWord('not', t) || this.isWord('inverse', t);
  }

  /** Whether the data range or class expression starting at token index j is a data range. */
  private looksLikeDataRange(j: number): boolean {
    // j is a token index, and a token passing these tests is not the final eof: the next one exists.
    let t = this.tokens[j]!;
    while (this.isPunct('(', t) || this.isWord('not', t)) t = this.tokens[++j]!;
    if (this.isPunct('{', t)) return this.isLiteralStart(this.tokens[j + 1]!);
    if (this.isPunct('[', this.tokens[j + 1])) return true;
    if (t.type === 'word' && DATATYPE_KEYWORDS.has(t.value)) return true;
    if (!this.isName(t)) return false;
    const r = this.resolveToken(t);
    if (r.kinds.has('Datatype')) return !r.kinds.has('Class');
    return r.kinds.size === 0 && BUILT_IN_DATATYPES.has(r.iri);
  }

  // ------------------------------------------------------------ data ranges

  dataRange(): DataRange {
    const first = this.dataConjunction();
    if (!this.isWord('or')) return first;
    const ops = [first];
    while (this.acceptWord('or')) ops.push(this.dataConjunction());
    return dataUnionOf(ops);
  }

  private dataConjunction(): DataRange {
    const first = this.dataPrimary();
    if (!this.isWord('and')) return first;
    const ops = [first];
    while (this.acceptWord('and')) ops.push(this.dataPrimary());
    return dataIntersectionOf(ops);
  }

  dataPrimary(): DataRange {
    if (this.isWord('not')) {
      this.enter();
      this.i++;
      return this.leave(dataComplementOf(this.dataPrimary()));
    }
    if (this.isPunct('(')) {
      this.enter();
      this.i++;
      const d = this.dataRange();
      this.expectPunct(')');
      return this.leave(d);
    }
    if (this.acceptPunct('{')) {
      const lits = [this.literal()];
      while (this.acceptPunct(',')) lits.push(this.literal());
      this.expectPunct('}');
      return dataOneOf(lits);
    }
    const dt = this.datatypeName();
    if (!this.acceptPunct('[')) return dt;
    const facets = [this.facet()];
    while (this.acceptPunct(',')) facets.push(this.facet());
    this.expectPunct(']');
    return datatypeRestriction(dt, facets);
  }

  datatypeName(): Datatype {
    const t = this.tok;
    if (t.type === 'word' && DATATYPE_KEYWORDS.has(t.value)) {
      this.i++;
      return datatype(DATATYPE_KEYWORDS.get(t.value)!);
    }
    if (!this.isName(t)) this.fail("a datatype name, '(', '{' or 'not'");
    return datatype(this.name('a datatype name').iri);
  }

  private facet() {
    const t = this.tok;
    const iri = t.type === 'word' || t.type === 'punct' ? FACET_WORDS.get(t.value) : undefined;
    if (iri === undefined) this.fail('a facet (length, minLength, maxLength, pattern, langRange, <, <=, >, >=)');
    this.i++;
    return facetRestriction(iri, this.literal());
  }

  /** Fails unless all input was consumed. */
  expectEnd(what: string): void {
    if (this.tok.type !== 'eof') this.fail(`end of ${what}`);
  }
}

/** Parses a standalone Manchester class expression. Throws ManchesterParseError (or the resolver's NameError). */
export function parseClassExpression(text: string, names: NameResolver): ClassExpression {
  const p = new ExpressionParser(tokenize(text), names);
  const ce = p.description();
  p.expectEnd('class expression');
  return ce;
}

/** Parses a standalone Manchester data range. Throws ManchesterParseError (or the resolver's NameError). */
export function parseDataRange(text: string, names: NameResolver): DataRange {
  const p = new ExpressionParser(tokenize(text), names);
  const dr = p.dataRange();
  p.expectEnd('data range');
  return dr;
}
