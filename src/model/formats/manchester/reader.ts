// Reads a Manchester OWL Syntax document (W3C Manchester syntax note, section 2) into an Ontology.
//
// Two passes over the tokens: the first reads the prefixes and the entity kinds that frames declare
// (anywhere in the document, as the OWL API does, so a property may be used before its frame); the second
// parses the document. Each entity frame (`Class: C`, ...) adds its Declaration, as the OWL API does.
//
// Extension, read so that documents earlier Athene versions wrote still load (the writer now writes
// standard Manchester syntax only): `Axiom: [Annotations: ...] Kind(operand, ...)` with Kind an OWL 2
// functional-syntax axiom name and Manchester operands, e.g. `Axiom: SubClassOf(p some A, B)`; it
// declares nothing.

import type {
  Annotation,
  AnnotationValue,
  Atom,
  Axiom,
  ClassExpression,
  DArg,
  DataProperty,
  EntityKind,
  IArg,
  Individual,
  IRI,
  ObjectPropertyExpression,
  CharacteristicKind,
} from '../../terms.js';
import * as T from '../../terms.js';
import { Ontology } from '../../ontology.js';
import { NameError, type NameResolver, type ResolvedName } from '../../names.js';
import {
  BUILT_IN_ANNOTATION_PROPERTIES,
  BUILT_IN_DATATYPES,
  OWL_BOTTOM_DATA_PROPERTY,
  OWL_BOTTOM_OBJECT_PROPERTY,
  OWL_NOTHING,
  OWL_THING,
  OWL_TOP_DATA_PROPERTY,
  OWL_TOP_OBJECT_PROPERTY,
  STANDARD_PREFIXES,
  SWRLB,
} from '../../vocab.js';
import { ExpressionParser } from './expression.js';
import { tokenize, type Token } from './lexer.js';
import { unreachable } from '../../../util/unreachable.js';

export interface ManchesterReadOptions {
  /** Base IRI for relative `<...>` IRIs. */
  readonly base?: string | undefined;
}

/** Frame keyword → kind of the entity the frame declares. */
export const ENTITY_FRAMES: ReadonlyMap<string, EntityKind> = new Map<string, EntityKind>([
  ['Class:', 'Class'],
  ['ObjectProperty:', 'ObjectProperty'],
  ['DataProperty:', 'DataProperty'],
  ['AnnotationProperty:', 'AnnotationProperty'],
  ['Individual:', 'NamedIndividual'],
  ['Datatype:', 'Datatype'],
]);

const MISC_FRAMES = new Set([
  'EquivalentClasses:',
  'DisjointClasses:',
  'EquivalentProperties:',
  'DisjointProperties:',
  'SameIndividual:',
  'DifferentIndividuals:',
]);

export const CHARACTERISTICS: ReadonlyMap<string, CharacteristicKind> = new Map<string, CharacteristicKind>([
  ['Functional', 'FunctionalObjectProperty'],
  ['InverseFunctional', 'InverseFunctionalObjectProperty'],
  ['Reflexive', 'ReflexiveObjectProperty'],
  ['Irreflexive', 'IrreflexiveObjectProperty'],
  ['Symmetric', 'SymmetricObjectProperty'],
  ['Asymmetric', 'AsymmetricObjectProperty'],
  ['Transitive', 'TransitiveObjectProperty'],
]);

/** SWRL variables written `?x` get this namespace (as in the OWL API). */
export const SWRL_VARIABLE_NS = 'urn:swrl:var#';

const BUILT_IN_KINDS: ReadonlyArray<readonly [IRI, EntityKind]> = [
  [OWL_THING, 'Class'],
  [OWL_NOTHING, 'Class'],
  [OWL_TOP_OBJECT_PROPERTY, 'ObjectProperty'],
  [OWL_BOTTOM_OBJECT_PROPERTY, 'ObjectProperty'],
  [OWL_TOP_DATA_PROPERTY, 'DataProperty'],
  [OWL_BOTTOM_DATA_PROPERTY, 'DataProperty'],
  ...[...BUILT_IN_DATATYPES].map((i) => [i, 'Datatype'] as const),
  ...[...BUILT_IN_ANNOTATION_PROPERTIES].map((i) => [i, 'AnnotationProperty'] as const),
];

const hasScheme = (s: string) => {
  const c = s.indexOf(':');
  if (c <= 0) return false;
  for (let i = 0; i < c; i++) {
    const ch = s.charCodeAt(i);
    const ok =
      (ch >= 0x61 && ch <= 0x7a) ||
      (ch >= 0x41 && ch <= 0x5a) ||
      (i > 0 && ((ch >= 0x30 && ch <= 0x39) || ch === 0x2b || ch === 0x2d || ch === 0x2e));
    if (!ok) return false;
  }
  return true;
};

/** Names in a document: `<IRI>` (relative to the base), CURIEs, and simple names in the default prefix `:`. */
class DocumentNames implements NameResolver {
  readonly prefixes = new Map<string, string>(STANDARD_PREFIXES);
  readonly kinds = new Map<IRI, Set<EntityKind>>();
  private readonly cache = new Map<string, ResolvedName>();

  constructor(private readonly base: string | undefined) {
    for (const [iri, k] of BUILT_IN_KINDS) this.addKind(iri, k);
  }

  addKind(iri: IRI, kind: EntityKind): void {
    let s = this.kinds.get(iri);
    if (s === undefined) this.kinds.set(iri, (s = new Set()));
    s.add(kind);
  }

  setPrefix(name: string, ns: string): void {
    this.prefixes.set(name, ns);
    this.cache.clear();
  }

  iri(token: string): IRI {
    if (token[0] === '<') return this.absolute(token.slice(1, -1));
    const name = token[0] === "'" ? token.slice(1, -1) : token;
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? ':' : name.slice(0, colon + 1);
    const ns = this.prefixes.get(prefix);
    if (ns === undefined) {
      throw new NameError(
        colon < 0 ? `no default prefix ':' is declared for the name '${name}'` : `unknown prefix '${prefix}' in '${name}'`,
      );
    }
    return ns + (colon < 0 ? name : name.slice(colon + 1));
  }

  absolute(iri: string): IRI {
    if (this.base === undefined || hasScheme(iri)) return iri;
    try {
      return new URL(iri, this.base).href;
    } catch {
      return iri;
    }
  }

  resolve(token: string): ResolvedName {
    let r = this.cache.get(token);
    if (r === undefined) {
      const iri = this.iri(token);
      r = { iri, kinds: this.kinds.get(iri) ?? new Set() };
      this.cache.set(token, r);
    }
    return r;
  }
}

/** Reads a Manchester document. Throws ManchesterParseError with line and column for bad input. */
export function readManchester(text: string, options: ManchesterReadOptions = {}): Ontology {
  const tokens = tokenize(text);
  const names = new DocumentNames(options.base);
  collectKinds(tokens, names);
  const scope = '~m' + T.documentScope();
  const parser = new DocumentParser(tokens, names, (label) => label + scope);
  return parser.document();
}

/** Pass 1: prefixes and the kinds that frames (and extension declarations) give their entities. */
function collectKinds(tokens: Token[], names: DocumentNames): void {
  // The tokens end with eof: a token that is a word or '(' is never the last one, so the one after it exists.
  for (const [i, t] of tokens.entries()) {
    const next = tokens[i + 1];
    if (t.type !== 'word' || next === undefined) continue;
    if (t.value === 'Prefix:' && next.type === 'word' && next.value.endsWith(':')) {
      const target = tokens[i + 2]!;
      if (target.type === 'iri') {
        names.setPrefix(next.value, names.absolute(target.value));
        continue;
      }
    }
    let kind = ENTITY_FRAMES.get(t.value);
    let nameTok = next;
    if (kind === undefined && t.value === 'Declaration' && next.value === '(') {
      kind = KIND_WORDS.get(tokens[i + 2]!.value);
      if (kind !== undefined) nameTok = tokens[i + 3]!;
    }
    if (
      kind === undefined ||
      !(nameTok.type === 'iri' || nameTok.type === 'quoted' || nameTok.type === 'word') ||
      nameTok.value.startsWith('_:')
    )
      continue;
    try {
      names.addKind(names.iri(nameTok.type === 'iri' ? '<' + nameTok.value + '>' : nameTok.value), kind);
    } catch {
      // an unknown prefix is reported with its position by pass 2
    }
  }
}

/** Entity kind words of the extension `Declaration(Kind name)`. */
export const KIND_WORDS: ReadonlyMap<string, EntityKind> = new Map<string, EntityKind>([
  ['Class', 'Class'],
  ['ObjectProperty', 'ObjectProperty'],
  ['DataProperty', 'DataProperty'],
  ['AnnotationProperty', 'AnnotationProperty'],
  ['NamedIndividual', 'NamedIndividual'],
  ['Datatype', 'Datatype'],
]);

class DocumentParser extends ExpressionParser {
  private readonly o = new Ontology();
  private readonly out: Axiom[] = [];
  /** Tokens of the arguments of the last atom parsed (for error positions). */
  private argTokens: Token[] = [];

  constructor(
    tokens: Token[],
    private readonly docNames: DocumentNames,
    nodeId: (label: string) => string,
  ) {
    super(tokens, docNames, true, nodeId);
  }

  document(): Ontology {
    const o = this.o;
    o.format = 'manchester';
    while (this.tok.type !== 'eof') this.topLevel();
    for (const a of this.out) o.add(a);
    return o;
  }

  private keyword(t: Token = this.tok): string {
    return t.type === 'word' ? t.value : '';
  }

  private topLevel(): void {
    const k = this.keyword();
    const kind = ENTITY_FRAMES.get(k);
    if (kind !== undefined) {
      this.i++;
      this.entityFrame(kind);
      return;
    }
    if (MISC_FRAMES.has(k)) {
      this.i++;
      this.miscFrame(k);
      return;
    }
    switch (k) {
      case 'Prefix:': {
        this.i++;
        const p = this.tok;
        if (p.type !== 'word' || !p.value.endsWith(':')) this.fail("a prefix name ending in ':'");
        this.i++;
        this.o.prefixes.set(p.value, this.docNames.absolute(this.iriToken()));
        return;
      }
      case 'Ontology:':
        this.i++;
        if (this.tok.type === 'iri') {
          const iri = this.docNames.absolute(this.iriToken());
          const version = this.tok.type === 'iri' ? this.docNames.absolute(this.iriToken()) : null;
          this.o.id = { iri, versionIri: version };
        }
        return;
      case 'Import:':
        this.i++;
        this.o.imports.add(this.tok.type === 'iri' ? this.docNames.absolute(this.iriToken()) : this.name('an import IRI').iri);
        return;
      case 'Annotations:':
        this.i++;
        for (const a of this.annotationList()) this.o.annotations.add(a);
        return;
      case 'Rule:':
        this.i++;
        this.rule();
        return;
      case 'Axiom:':
        this.i++;
        this.generalAxiom();
        return;
    }
    this.fail(
      'a frame (Class:, ObjectProperty:, DataProperty:, AnnotationProperty:, Individual:, Datatype:, ' +
        'EquivalentClasses:, DisjointClasses:, EquivalentProperties:, DisjointProperties:, SameIndividual:, ' +
        'DifferentIndividuals:, Rule:), Prefix:, Ontology:, Import: or Annotations:',
    );
  }

  private iriToken(): string {
    const t = this.tok;
    if (t.type !== 'iri') this.fail('an IRI in angle brackets');
    this.i++;
    return t.value;
  }

  // ------------------------------------------------------------ annotations

  /** `[Annotations: ...] annotation {, ...}` as Annotation nodes (axiom and ontology annotations). */
  private annotationList(): Annotation[] {
    const out: Annotation[] = [];
    do {
      const nested = this.optionalAnnotations();
      const p = T.annotationProperty(this.name('an annotation property name').iri);
      out.push(T.annotation(p, this.annotationValue(), nested));
    } while (this.acceptPunct(','));
    return out;
  }

  private optionalAnnotations(): Annotation[] {
    return this.acceptWord('Annotations:') ? this.annotationList() : [];
  }

  private annotationValue(): AnnotationValue {
    const t = this.tok;
    if (this.isLiteralStart(t)) return this.literal();
    if (t.type === 'word' && t.value.startsWith('_:')) return this.individual() as T.AnonymousIndividual;
    return T.iriNode(this.name('an annotation value (literal, IRI or _:node)').iri);
  }

  /** An annotated list: each item may be preceded by `Annotations: ...`; items are separated by commas. */
  private annotated(item: (anns: Annotation[]) => void): void {
    do item(this.optionalAnnotations());
    while (this.acceptPunct(','));
  }

  // ------------------------------------------------------------ entity frames

  private entityFrame(kind: EntityKind): void {
    const subjectTok = this.tok;
    if (kind === 'NamedIndividual' && subjectTok.type === 'word' && subjectTok.value.startsWith('_:')) {
      this.individualFrame(this.individual());
      return;
    }
    const iri = this.name('an entity name after the frame keyword').iri;
    const e = T.entity(kind, iri);
    this.out.push(T.declaration(e));
    switch (e.kind) {
      case 'Class':
        return this.classFrame(e);
      case 'ObjectProperty':
        return this.objectPropertyFrame(e);
      case 'DataProperty':
        return this.dataPropertyFrame(e);
      case 'AnnotationProperty':
        return this.annotationPropertyFrame(e);
      case 'NamedIndividual':
        return this.individualFrame(e);
      case 'Datatype':
        return this.datatypeFrame(e);
      default:
        return unreachable(e);
    }
  }

  /** Parses sections until the next frame; `handle` returns false for a keyword the frame does not have. */
  private sections(frame: string, handle: (keyword: string) => boolean): void {
    for (;;) {
      const k = this.keyword();
      if (
        k === '' ||
        !k.endsWith(':') ||
        ENTITY_FRAMES.has(k) ||
        MISC_FRAMES.has(k) ||
        k === 'Rule:' ||
        k === 'Axiom:' ||
        k === 'Prefix:' ||
        k === 'Ontology:' ||
        k === 'Import:'
      ) {
        if (this.tok.type === 'eof' || k.endsWith(':')) return;
        this.fail(`a section of the ${frame} frame or a new frame`);
      }
      const t = this.tok;
      this.i++;
      if (!handle(k)) this.fail(`a section of the ${frame} frame or a new frame`, t);
    }
  }

  private annotationAssertions(subject: T.AnnotationSubject): void {
    this.annotated((anns) => {
      const p = T.annotationProperty(this.name('an annotation property name').iri);
      this.out.push(T.annotationAssertion(p, subject, this.annotationValue(), anns));
    });
  }

  private classFrame(c: T.Class): void {
    const subject = T.iriNode(c.iri);
    this.sections('Class', (k) => {
      switch (k) {
        case 'Annotations:':
          this.annotationAssertions(subject);
          return true;
        case 'SubClassOf:':
          this.annotated((anns) => this.out.push(T.subClassOf(c, this.description(), anns)));
          return true;
        case 'EquivalentTo:':
          this.annotated((anns) => this.out.push(T.equivalentClasses([c, this.description()], anns)));
          return true;
        case 'DisjointWith:':
          this.annotated((anns) => this.out.push(T.disjointClasses([c, this.description()], anns)));
          return true;
        case 'DisjointUnionOf:': {
          const anns = this.optionalAnnotations();
          this.out.push(T.disjointUnion(c, this.descriptionList(2), anns));
          return true;
        }
        case 'HasKey:': {
          const anns = this.optionalAnnotations();
          this.out.push(this.hasKeyBody(c, anns));
          return true;
        }
      }
      return false;
    });
  }

  /** HasKey properties (separated by commas or spaces); each is an object property unless known as data. */
  private hasKeyBody(c: ClassExpression, anns: Annotation[]): T.HasKey {
    const ops: ObjectPropertyExpression[] = [];
    const dps: DataProperty[] = [];
    do {
      if (this.isWord('inverse')) {
        ops.push(this.objectPropertyExpression());
        continue;
      }
      const r = this.name('a property name');
      if (r.kinds.has('DataProperty') && !r.kinds.has('ObjectProperty')) dps.push(T.dataProperty(r.iri));
      else ops.push(T.objectProperty(r.iri));
    } while (this.acceptPunct(',') || this.isName() || this.isWord('inverse'));
    return T.hasKey(c, ops, dps, anns);
  }

  private descriptionList(min: number): ClassExpression[] {
    const out = [this.description()];
    while (this.acceptPunct(',')) out.push(this.description());
    if (out.length < min) this.fail(`at least ${min} class expressions`);
    return out;
  }

  private objectPropertyFrame(p: T.ObjectProperty): void {
    const subject = T.iriNode(p.iri);
    this.sections('ObjectProperty', (k) => {
      switch (k) {
        case 'Annotations:':
          this.annotationAssertions(subject);
          return true;
        case 'Domain:':
          this.annotated((anns) => this.out.push(T.objectPropertyDomain(p, this.description(), anns)));
          return true;
        case 'Range:':
          this.annotated((anns) => this.out.push(T.objectPropertyRange(p, this.description(), anns)));
          return true;
        case 'Characteristics:':
          this.annotated((anns) => this.out.push(T.objectPropertyCharacteristic(this.characteristic(true), p, anns)));
          return true;
        case 'SubPropertyOf:':
          this.annotated((anns) => this.out.push(T.subObjectPropertyOf(p, this.objectPropertyExpression(), anns)));
          return true;
        case 'EquivalentTo:':
          this.annotated((anns) => this.out.push(T.equivalentObjectProperties([p, this.objectPropertyExpression()], anns)));
          return true;
        case 'DisjointWith:':
          this.annotated((anns) => this.out.push(T.disjointObjectProperties([p, this.objectPropertyExpression()], anns)));
          return true;
        case 'InverseOf:':
          this.annotated((anns) => this.out.push(T.inverseObjectProperties(p, this.objectPropertyExpression(), anns)));
          return true;
        case 'SubPropertyChain:':
          this.annotated((anns) => this.out.push(T.subPropertyChainOf(this.chain(), p, anns)));
          return true;
      }
      return false;
    });
  }

  private chain(): ObjectPropertyExpression[] {
    const out = [this.objectPropertyExpression()];
    while (this.acceptWord('o')) out.push(this.objectPropertyExpression());
    if (out.length < 2) this.fail("'o' and a further property of the chain");
    return out;
  }

  private characteristic(object: boolean): CharacteristicKind {
    const t = this.tok;
    const k = t.type === 'word' ? CHARACTERISTICS.get(t.value) : undefined;
    if (k === undefined || (!object && k !== 'FunctionalObjectProperty')) {
      this.fail(
        object
          ? 'a characteristic (Functional, InverseFunctional, Reflexive, Irreflexive, Symmetric, Asymmetric, Transitive)'
          : "'Functional'",
      );
    }
    this.i++;
    return k;
  }

  private dataPropertyFrame(p: T.DataProperty): void {
    const subject = T.iriNode(p.iri);
    this.sections('DataProperty', (k) => {
      switch (k) {
        case 'Annotations:':
          this.annotationAssertions(subject);
          return true;
        case 'Domain:':
          this.annotated((anns) => this.out.push(T.dataPropertyDomain(p, this.description(), anns)));
          return true;
        case 'Range:':
          this.annotated((anns) => this.out.push(T.dataPropertyRange(p, this.dataRange(), anns)));
          return true;
        case 'Characteristics:':
          this.annotated((anns) => {
            this.characteristic(false);
            this.out.push(T.functionalDataProperty(p, anns));
          });
          return true;
        case 'SubPropertyOf:':
          this.annotated((anns) => this.out.push(T.subDataPropertyOf(p, this.dataPropertyName(), anns)));
          return true;
        case 'EquivalentTo:':
          this.annotated((anns) => this.out.push(T.equivalentDataProperties([p, this.dataPropertyName()], anns)));
          return true;
        case 'DisjointWith:':
          this.annotated((anns) => this.out.push(T.disjointDataProperties([p, this.dataPropertyName()], anns)));
          return true;
      }
      return false;
    });
  }

  private annotationPropertyFrame(p: T.AnnotationProperty): void {
    const subject = T.iriNode(p.iri);
    this.sections('AnnotationProperty', (k) => {
      switch (k) {
        case 'Annotations:':
          this.annotationAssertions(subject);
          return true;
        case 'Domain:':
          this.annotated((anns) => this.out.push(T.annotationPropertyDomain(p, this.name('an IRI').iri, anns)));
          return true;
        case 'Range:':
          this.annotated((anns) => this.out.push(T.annotationPropertyRange(p, this.name('an IRI').iri, anns)));
          return true;
        case 'SubPropertyOf:':
          this.annotated((anns) =>
            this.out.push(T.subAnnotationPropertyOf(p, T.annotationProperty(this.name('an annotation property name').iri), anns)),
          );
          return true;
      }
      return false;
    });
  }

  private datatypeFrame(d: T.Datatype): void {
    const subject = T.iriNode(d.iri);
    this.sections('Datatype', (k) => {
      switch (k) {
        case 'Annotations:':
          this.annotationAssertions(subject);
          return true;
        case 'EquivalentTo:':
          this.annotated((anns) => this.out.push(T.datatypeDefinition(d, this.dataRange(), anns)));
          return true;
      }
      return false;
    });
  }

  private individualFrame(ind: Individual): void {
    const subject: T.AnnotationSubject = ind.kind === 'NamedIndividual' ? T.iriNode(ind.iri) : ind;
    this.sections('Individual', (k) => {
      switch (k) {
        case 'Annotations:':
          this.annotationAssertions(subject);
          return true;
        case 'Types:':
          this.annotated((anns) => this.out.push(T.classAssertion(this.description(), ind, anns)));
          return true;
        case 'Facts:':
          this.annotated((anns) => this.out.push(this.fact(ind, anns)));
          return true;
        case 'SameAs:':
          this.annotated((anns) => this.out.push(T.sameIndividual([ind, this.individual()], anns)));
          return true;
        case 'DifferentFrom:':
          this.annotated((anns) => this.out.push(T.differentIndividuals([ind, this.individual()], anns)));
          return true;
      }
      return false;
    });
  }

  /** `[not] property value`: a data fact when the property is known as data or the value is a literal. */
  private fact(subject: Individual, anns: Annotation[]): Axiom {
    const negative = this.acceptWord('not');
    if (this.isWord('inverse')) {
      const p = this.objectPropertyExpression();
      const o = this.individual();
      return negative ? T.negativeObjectPropertyAssertion(p, subject, o, anns) : T.objectPropertyAssertion(p, subject, o, anns);
    }
    const r = this.name('a property name');
    const isObject = r.kinds.has('ObjectProperty');
    const isData = r.kinds.has('DataProperty');
    const data = isObject !== isData ? isData : this.isLiteralStart();
    if (data) {
      const p = T.dataProperty(r.iri);
      const v = this.literal();
      return negative ? T.negativeDataPropertyAssertion(p, subject, v, anns) : T.dataPropertyAssertion(p, subject, v, anns);
    }
    const p = T.objectProperty(r.iri);
    const o = this.individual();
    return negative ? T.negativeObjectPropertyAssertion(p, subject, o, anns) : T.objectPropertyAssertion(p, subject, o, anns);
  }

  // ------------------------------------------------------------ misc frames

  private miscFrame(k: string): void {
    const anns = this.optionalAnnotations();
    switch (k) {
      case 'EquivalentClasses:':
        this.out.push(T.equivalentClasses(this.descriptionList(2), anns));
        return;
      case 'DisjointClasses:':
        this.out.push(T.disjointClasses(this.descriptionList(2), anns));
        return;
      case 'SameIndividual:':
        this.out.push(T.sameIndividual(this.individualList(), anns));
        return;
      case 'DifferentIndividuals:':
        this.out.push(T.differentIndividuals(this.individualList(), anns));
        return;
    }
    const start = this.i;
    const data = this.propertyListIsData();
    this.i = start;
    if (data) {
      const ps = [this.dataPropertyName()];
      while (this.acceptPunct(',')) ps.push(this.dataPropertyName());
      this.out.push(k === 'EquivalentProperties:' ? T.equivalentDataProperties(ps, anns) : T.disjointDataProperties(ps, anns));
    } else {
      const ps = [this.objectPropertyExpression()];
      while (this.acceptPunct(',')) ps.push(this.objectPropertyExpression());
      this.out.push(k === 'EquivalentProperties:' ? T.equivalentObjectProperties(ps, anns) : T.disjointObjectProperties(ps, anns));
    }
  }

  /** A property list is of data properties when a member is known as a data property and none as object. */
  private propertyListIsData(): boolean {
    let data = false;
    do {
      if (this.isWord('inverse')) return false;
      const r = this.name('a property name');
      if (r.kinds.has('ObjectProperty')) return false;
      if (r.kinds.has('DataProperty')) data = true;
    } while (this.acceptPunct(','));
    return data;
  }

  private individualList(): Individual[] {
    const out = [this.individual()];
    while (this.acceptPunct(',')) out.push(this.individual());
    if (out.length < 2) this.fail("',' and a further individual");
    return out;
  }

  // ------------------------------------------------------------ SWRL rules

  private rule(): void {
    const anns = this.optionalAnnotations();
    const body = this.isPunct('->') ? [] : this.atoms();
    this.expectPunct('->');
    const head = this.tok.type === 'eof' || this.keyword().endsWith(':') ? [] : this.atoms();
    this.out.push(T.dlSafeRule(body, head, anns));
  }

  private atoms(): Atom[] {
    const out = [this.atom()];
    while (this.acceptPunct(',')) out.push(this.atom());
    return out;
  }

  private atom(): Atom {
    if (this.isWord('SameAs') || this.isWord('DifferentFrom')) {
      const same = this.tok.value === 'SameAs';
      this.i++;
      const args = this.atomArgs(2);
      const x = this.iarg(args, 0),
        y = this.iarg(args, 1);
      return same ? T.sameIndividualAtom(x, y) : T.differentIndividualsAtom(x, y);
    }
    if (this.isPunct('(')) {
      const ce = this.atomic();
      return T.classAtom(ce, this.iarg(this.atomArgs(1), 0));
    }
    if (this.isWord('inverse')) {
      const p = this.objectPropertyExpression();
      const args = this.atomArgs(2);
      return T.objectPropertyAtom(p, this.iarg(args, 0), this.iarg(args, 1));
    }
    const t = this.tok;
    const keywordDatatype =
      t.type === 'word' && (t.value === 'integer' || t.value === 'decimal' || t.value === 'float' || t.value === 'string');
    const r = keywordDatatype ? null : this.resolveToken(this.nameToken());
    if (r === null || (r.kinds.has('Datatype') && !r.kinds.has('Class')) || this.isPunct('[', this.peek())) {
      if (r !== null) this.i--;
      const range = this.dataPrimary();
      return T.dataRangeAtom(range, this.darg(this.atomArgs(1), 0));
    }
    const k = r.kinds;
    const args = this.atomArgs(k.has('Class') ? 1 : k.has('ObjectProperty') || k.has('DataProperty') ? 2 : -1);
    if (k.has('Class') && args.length === 1) return T.classAtom(T.cls(r.iri), this.iarg(args, 0));
    if (k.has('ObjectProperty') && args.length === 2)
      return T.objectPropertyAtom(T.objectProperty(r.iri), this.iarg(args, 0), this.iarg(args, 1));
    if (k.has('DataProperty') && args.length === 2)
      return T.dataPropertyAtom(T.dataProperty(r.iri), this.iarg(args, 0), this.darg(args, 1));
    if (k.size === 0 && !r.iri.startsWith(SWRLB)) {
      if (args.length === 1) return T.classAtom(T.cls(r.iri), this.iarg(args, 0));
      if (args.length === 2 && args[1]?.kind !== 'Literal')
        return T.objectPropertyAtom(T.objectProperty(r.iri), this.iarg(args, 0), this.iarg(args, 1));
      if (args.length === 2) return T.dataPropertyAtom(T.dataProperty(r.iri), this.iarg(args, 0), this.darg(args, 1));
    }
    return T.builtInAtom(
      r.iri,
      args.map((_, k) => this.darg(args, k)),
    );
  }

  private nameToken(): Token {
    const t = this.tok;
    if (!this.isName(t)) this.fail('an atom (class, property, datatype or built-in name, SameAs, DifferentFrom)');
    this.i++;
    return t;
  }

  /** `( arg, ... )`; n >= 0 is the required count. Arguments are variables, literals or individuals. */
  private atomArgs(n: number): (T.Variable | T.Literal | Individual)[] {
    const open = this.tok;
    this.expectPunct('(');
    const out: (T.Variable | T.Literal | Individual)[] = [];
    this.argTokens = [];
    if (!this.isPunct(')')) {
      do {
        this.argTokens.push(this.tok);
        out.push(this.atomArg());
      } while (this.acceptPunct(','));
    }
    this.expectPunct(')');
    if (n >= 0 && out.length !== n) this.error(`expected ${n} argument${n === 1 ? '' : 's'} but found ${out.length}`, open);
    return out;
  }

  private atomArg(): T.Variable | T.Literal | Individual {
    const t = this.tok;
    if (t.type === 'var') {
      this.i++;
      return T.variable(t.lang === '<' ? this.docNames.absolute(t.value) : SWRL_VARIABLE_NS + t.value);
    }
    if (this.isLiteralStart()) return this.literal();
    return this.individual();
  }

  /** Argument k of the last atom as an individual argument. */
  private iarg(args: readonly (T.Variable | T.Literal | Individual)[], k: number): IArg {
    const a = args[k]!; // the caller checked args.length
    if (a.kind === 'Literal') this.error('expected a variable or an individual but found a literal', this.argTokens[k]);
    return a;
  }

  /** Argument k of the last atom as a data argument. */
  private darg(args: readonly (T.Variable | T.Literal | Individual)[], k: number): DArg {
    const a = args[k]!; // the caller checked args.length
    if (a.kind !== 'Literal' && a.kind !== 'Variable')
      this.error('expected a variable or a literal but found an individual', this.argTokens[k]);
    return a;
  }

  // ------------------------------------------------------------ extension: general axioms

  private generalAxiom(): void {
    const anns = this.optionalAnnotations();
    const t = this.tok;
    if (t.type !== 'word') this.fail('an axiom kind');
    this.i++;
    this.expectPunct('(');
    const ax = this.generalAxiomBody(t, anns);
    this.expectPunct(')');
    this.out.push(ax);
  }

  private generalAxiomBody(t: Token, anns: Annotation[]): Axiom {
    const comma = () => this.expectPunct(',');
    const ce = () => this.description();
    const ope = () => this.objectPropertyExpression();
    const dp = () => this.dataPropertyName();
    const ap = () => T.annotationProperty(this.name('an annotation property name').iri);
    const ind = () => this.individual();
    const list = <X>(item: () => X): X[] => {
      const out = [item()];
      while (this.acceptPunct(',')) out.push(item());
      return out;
    };
    const pair = <X, Y>(a: () => X, b: () => Y): [X, Y] => {
      const x = a();
      comma();
      return [x, b()];
    };
    switch (t.value) {
      case 'Declaration': {
        const k = this.tok.type === 'word' ? KIND_WORDS.get(this.tok.value) : undefined;
        if (k === undefined)
          this.fail('an entity kind (Class, ObjectProperty, DataProperty, AnnotationProperty, NamedIndividual, Datatype)');
        this.i++;
        return T.declaration(T.entity(k, this.name('an entity name').iri), anns);
      }
      case 'SubClassOf': {
        const [a, b] = pair(ce, ce);
        return T.subClassOf(a, b, anns);
      }
      case 'EquivalentClasses':
        return T.equivalentClasses(list(ce), anns);
      case 'DisjointClasses':
        return T.disjointClasses(list(ce), anns);
      case 'DisjointUnion': {
        const c = T.cls(this.name('a class name').iri);
        comma();
        return T.disjointUnion(c, list(ce), anns);
      }
      case 'SubObjectPropertyOf': {
        const [a, b] = pair(ope, ope);
        return T.subObjectPropertyOf(a, b, anns);
      }
      case 'SubPropertyChainOf': {
        const c = this.chain();
        comma();
        return T.subPropertyChainOf(c, ope(), anns);
      }
      case 'EquivalentObjectProperties':
        return T.equivalentObjectProperties(list(ope), anns);
      case 'DisjointObjectProperties':
        return T.disjointObjectProperties(list(ope), anns);
      case 'InverseObjectProperties': {
        const [a, b] = pair(ope, ope);
        return T.inverseObjectProperties(a, b, anns);
      }
      case 'ObjectPropertyDomain': {
        const [a, b] = pair(ope, ce);
        return T.objectPropertyDomain(a, b, anns);
      }
      case 'ObjectPropertyRange': {
        const [a, b] = pair(ope, ce);
        return T.objectPropertyRange(a, b, anns);
      }
      case 'FunctionalObjectProperty':
      case 'InverseFunctionalObjectProperty':
      case 'ReflexiveObjectProperty':
      case 'IrreflexiveObjectProperty':
      case 'SymmetricObjectProperty':
      case 'AsymmetricObjectProperty':
      case 'TransitiveObjectProperty':
        return T.objectPropertyCharacteristic(t.value, ope(), anns);
      case 'SubDataPropertyOf': {
        const [a, b] = pair(dp, dp);
        return T.subDataPropertyOf(a, b, anns);
      }
      case 'EquivalentDataProperties':
        return T.equivalentDataProperties(list(dp), anns);
      case 'DisjointDataProperties':
        return T.disjointDataProperties(list(dp), anns);
      case 'DataPropertyDomain': {
        const [a, b] = pair(dp, ce);
        return T.dataPropertyDomain(a, b, anns);
      }
      case 'DataPropertyRange': {
        const [a, b] = pair(dp, () => this.dataRange());
        return T.dataPropertyRange(a, b, anns);
      }
      case 'FunctionalDataProperty':
        return T.functionalDataProperty(dp(), anns);
      case 'DatatypeDefinition': {
        const [a, b] = pair(
          () => this.datatypeName(),
          () => this.dataRange(),
        );
        return T.datatypeDefinition(a, b, anns);
      }
      case 'HasKey': {
        const c = ce();
        comma();
        const ops = this.parenList(ope);
        comma();
        return T.hasKey(c, ops, this.parenList(dp), anns);
      }
      case 'SameIndividual':
        return T.sameIndividual(list(ind), anns);
      case 'DifferentIndividuals':
        return T.differentIndividuals(list(ind), anns);
      case 'ClassAssertion': {
        const [a, b] = pair(ce, ind);
        return T.classAssertion(a, b, anns);
      }
      case 'ObjectPropertyAssertion':
      case 'NegativeObjectPropertyAssertion': {
        const p = ope();
        comma();
        const [s, o] = pair(ind, ind);
        return t.value === 'ObjectPropertyAssertion'
          ? T.objectPropertyAssertion(p, s, o, anns)
          : T.negativeObjectPropertyAssertion(p, s, o, anns);
      }
      case 'DataPropertyAssertion':
      case 'NegativeDataPropertyAssertion': {
        const p = dp();
        comma();
        const [s, v] = pair(ind, () => this.literal());
        return t.value === 'DataPropertyAssertion'
          ? T.dataPropertyAssertion(p, s, v, anns)
          : T.negativeDataPropertyAssertion(p, s, v, anns);
      }
      case 'AnnotationAssertion': {
        const p = ap();
        comma();
        const s = this.annotationValue();
        if (s.kind === 'Literal') this.error('expected an IRI or _:node as annotation subject but found a literal', t);
        comma();
        return T.annotationAssertion(p, s, this.annotationValue(), anns);
      }
      case 'SubAnnotationPropertyOf': {
        const [a, b] = pair(ap, ap);
        return T.subAnnotationPropertyOf(a, b, anns);
      }
      case 'AnnotationPropertyDomain': {
        const p = ap();
        comma();
        return T.annotationPropertyDomain(p, this.name('an IRI').iri, anns);
      }
      case 'AnnotationPropertyRange': {
        const p = ap();
        comma();
        return T.annotationPropertyRange(p, this.name('an IRI').iri, anns);
      }
    }
    return this.error(`unknown axiom kind '${t.value}'`, t);
  }

  private parenList<X>(item: () => X): X[] {
    this.expectPunct('(');
    const out: X[] = [];
    if (!this.isPunct(')')) {
      do out.push(item());
      while (this.acceptPunct(','));
    }
    this.expectPunct(')');
    return out;
  }
}
