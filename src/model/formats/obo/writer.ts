// OBO 1.4 writer: the inverse of the reader's OBO-to-OWL mapping. Every axiom is first assigned to a
// stanza line; the axioms (and ontology annotations) with no tag of their own go, as the OWL API's OBO
// writer does, into the header's `owl-axioms:` line as an OWL functional-syntax document, so nothing the
// reader reads is lost. A declaration the reader makes again (of an entity the axioms use) is left
// implicit; a version IRI that is no OBO data-version is the owl-axioms document's. Only an IRI with no
// OBO id form raises an OboWriteError, before any text is produced.

import { Ontology } from '../../ontology.js';
import {
  entity,
  type Annotation,
  type AnnotationAssertion,
  type AnnotationValue,
  type Axiom,
  type ClassExpression,
  type Entity,
  type EntityKind,
  type Literal,
  type ObjectPropertyExpression,
  otherKinds,
  ANY_COMPOUND,
  ANY_AXIOM,
} from '../../terms.js';
import { signature } from '../../walk.js';
import { isBuiltIn } from '../../profiles/closure-facts.js';
import { writeFunctional } from '../functional/writer.js';
import { OWL_DEPRECATED, RDFS_COMMENT, RDFS_LABEL, XSD, XSD_BOOLEAN, XSD_STRING } from '../../vocab.js';
import {
  CHARACTERISTIC_TAGS,
  IAO_DEFINITION,
  IAO_REPLACED_BY,
  OBO,
  OIO,
  OIO_FORMAT_VERSION,
  OIO_ID,
  OIO_IN_SUBSET,
  OIO_REVERSIBLE_CHAIN,
  OIO_SCOPE,
  OIO_SHORTHAND,
  OIO_SUBSET_PROPERTY,
  OIO_SYNONYM_TYPE,
  OIO_SYNONYM_TYPE_PROPERTY,
  OIO_XREF,
  OWL_AXIOMS_TAG,
  QUOTED_TEXT_TAGS,
  STRING_TAGS,
  SYNONYM_SCOPES,
} from './vocab.js';
import { escapeToken, escapeUnquoted, quote } from './syntax.js';

/** Thrown by writeObo when an IRI of the ontology has no OBO id form. */
export class OboWriteError extends Error {
  constructor(readonly iris: readonly string[]) {
    super(
      `obo: ${iris.length} IRI(s) have no OBO id form, e.g.:\n  ${iris
        .slice(0, 5)
        .map((i) => '<' + i + '>')
        .join('\n  ')}`,
    );
    this.name = 'OboWriteError';
  }
}

type StanzaType = 'Term' | 'Typedef' | 'Instance';
interface Stanza {
  readonly type: StanzaType;
  readonly iri: string;
  readonly lines: string[];
  metadata: boolean;
}

const TAG_ORDER = [
  'id',
  'name',
  'namespace',
  'alt_id',
  'def',
  'comment',
  'subset',
  'synonym',
  'xref',
  'property_value',
  'instance_of',
  'domain',
  'range',
  'is_metadata_tag',
  'is_transitive',
  'is_symmetric',
  'is_reflexive',
  'is_asymmetric',
  'is_functional',
  'is_inverse_functional',
  'is_irreflexive',
  'is_a',
  'intersection_of',
  'union_of',
  'equivalent_to',
  'disjoint_from',
  'inverse_of',
  'transitive_over',
  'holds_over_chain',
  'equivalent_to_chain',
  'relationship',
  'created_by',
  'creation_date',
  'is_obsolete',
  'replaced_by',
  'consider',
];
const TAG_RANK = new Map(TAG_ORDER.map((t, i) => [t, i]));
/** Tags with their own mapping: an oboInOwl annotation with such a local name must go via property_value. */
const RESERVED_TAGS = new Set([
  ...TAG_ORDER,
  'ontology',
  'data-version',
  'format-version',
  'import',
  'subsetdef',
  'synonymtypedef',
  'idspace',
  'remark',
  'is_class_level_tag',
]);
const REVERSE_STRING_TAGS = new Map([...STRING_TAGS].map(([tag, p]) => [p, tag]));
const REVERSE_SCOPES = new Map([...SYNONYM_SCOPES].map(([scope, p]) => [p, scope]));
const REVERSE_CHARACTERISTICS = new Map([...CHARACTERISTIC_TAGS].map(([tag, kind]) => [kind, tag]));
const REVERSE_QUOTED_TEXT_TAGS = new Map([...QUOTED_TEXT_TAGS].map(([tag, p]) => [p, tag]));
/** Properties OBO allows once per stanza (name, def, comment): further values go to owl-axioms. */
const SINGLE_VALUE_PROPERTIES: ReadonlySet<string> = new Set([RDFS_LABEL, IAO_DEFINITION, RDFS_COMMENT]);
/** The stanza an entity of each kind gets, by preference when one IRI has several kinds. */
const STANZA_KINDS: readonly [EntityKind, StanzaType][] = [
  ['Class', 'Term'],
  ['ObjectProperty', 'Typedef'],
  ['AnnotationProperty', 'Typedef'],
  ['NamedIndividual', 'Instance'],
];

const isTagName = (s: string) => /^[A-Za-z][A-Za-z0-9_-]*$/.test(s);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface WriteOboOptions {
  /**
   * 'throw' (default): throw OboWriteError if an IRI has no OBO id form. 'drop': write it as it is (the
   * caller has been warned, e.g. by oboCompatibility).
   */
  onLossy?: 'throw' | 'drop';
}

/** Writes the ontology as OBO 1.4; throws OboWriteError listing the IRIs OBO cannot spell. */
export function writeObo(o: Ontology, options: WriteOboOptions = {}): string {
  return new OboWriter(o, options.onLossy === 'drop').write();
}

/** What OBO tags cannot hold: axioms and ontology annotations the `owl-axioms:` line carries. */
export interface OboOverflow {
  readonly axioms: readonly Axiom[];
  readonly annotations: readonly Annotation[];
  /** Whether the version IRI, having no data-version form, is the owl-axioms document's. */
  readonly versionIri: boolean;
  /** IRIs with no OBO id form (written as they are when not refused). */
  readonly unspellable: readonly string[];
}

/** The axioms and ontology annotations a write puts into `owl-axioms:`, and the IRIs it cannot spell. */
export function oboOverflow(o: Ontology): OboOverflow {
  const w = new OboWriter(o, true);
  w.write();
  return { axioms: w.overflowAxioms, annotations: w.overflowAnnotations, versionIri: w.versionInOwlAxioms, unspellable: w.unspellable };
}

class OboWriter {
  private readonly name: string | null;
  private readonly stanzas = new Map<string, Stanza>();
  private readonly header: string[] = [];
  readonly overflowAxioms: Axiom[] = [];
  readonly overflowAnnotations: Annotation[] = [];
  readonly unspellable: string[] = [];
  /** A version IRI that is no OBO data-version travels as the owl-axioms document's version IRI. */
  versionInOwlAxioms = false;
  /** Axioms already written as part of a header construct (subsetdef, synonymtypedef). */
  private readonly consumed = new Set<Axiom>();
  private readonly ids = new Map<string, string>();
  /** Kinds of each IRI: declared, then used (the reader declares what the axioms use). */
  private readonly declaredKinds = new Map<string, Set<EntityKind>>();
  private readonly usedKinds = new Map<string, Set<EntityKind>>();
  /** Annotation properties with a [Typedef] of their own (an oboInOwl:id): written as `relationship:` values. */
  private readonly metadataTypedefs = new Set<string>();

  constructor(
    private readonly o: Ontology,
    private readonly approximate: boolean,
  ) {
    const iri = o.id.iri;
    const m = iri === null ? null : /^http:\/\/purl\.obolibrary\.org\/obo\/([^/#]+)\.owl$/.exec(iri);
    this.name = m?.[1] ?? null;
  }

  write(): string {
    this.survey();
    this.chooseShorthandIds();
    this.chooseSingleValues();
    this.writeHeader();
    for (const a of this.o.axioms())
      if (a.kind !== 'Declaration' && a.kind !== 'AnnotationAssertion' && !this.consumed.has(a)) this.axiom(a);
    for (const a of this.o.axiomsOfKind('AnnotationAssertion')) if (!this.consumed.has(a)) this.axiom(a);
    // declarations last: one of an entity that has a stanza, or that the axioms use, is implicit
    for (const d of this.o.axiomsOfKind('Declaration')) if (!this.consumed.has(d)) this.axiom(d);
    for (const st of this.stanzas.values()) this.id(st.iri);
    if (!this.approximate && this.unspellable.length > 0) throw new OboWriteError(this.unspellable);
    this.writeOwlAxioms();
    const out: string[] = [...this.header, ''];
    const order: StanzaType[] = ['Term', 'Typedef', 'Instance'];
    const stanzas = [...this.stanzas.values()].sort(
      (a, b) => order.indexOf(a.type) - order.indexOf(b.type) || cmp(this.id(a.iri), this.id(b.iri)),
    );
    for (const s of stanzas) {
      out.push('[' + s.type + ']', 'id: ' + escapeToken(this.id(s.iri)));
      if (s.metadata) s.lines.push('is_metadata_tag: true');
      const lines = s.lines.sort((x, y) => rank(x) - rank(y) || cmp(x, y));
      for (const l of lines) out.push(l);
      out.push('');
    }
    return out.join('\n');
  }

  /** Declared kinds, the entities the axioms and header use, and the metadata Typedefs. */
  private survey(): void {
    for (const d of this.o.axiomsOfKind('Declaration')) {
      let ks = this.declaredKinds.get(d.entity.iri);
      if (ks === undefined) this.declaredKinds.set(d.entity.iri, (ks = new Set()));
      ks.add(d.entity.kind);
    }
    const use = (e: Entity) => {
      let ks = this.usedKinds.get(e.iri);
      if (ks === undefined) this.usedKinds.set(e.iri, (ks = new Set()));
      ks.add(e.kind);
    };
    for (const a of this.o.axioms()) if (a.kind !== 'Declaration') signature(a).forEach(use);
    for (const a of this.o.annotations) signature(a).forEach(use);
    for (const a of this.o.axiomsOfKind('AnnotationAssertion')) {
      if (
        a.property.iri === OIO_ID &&
        a.subject.kind === 'IRI' &&
        this.declaredKinds.get(a.subject.iri)?.has('AnnotationProperty') &&
        !this.isRelation(a.subject.iri)
      ) {
        this.metadataTypedefs.add(a.subject.iri);
      }
    }
  }

  /** OBO has one name, def and comment per stanza: the first value in text order stays, the others overflow. */
  private chooseSingleValues(): void {
    const seen = new Map<string, AnnotationAssertion[]>();
    for (const a of this.o.axiomsOfKind('AnnotationAssertion')) {
      if (!SINGLE_VALUE_PROPERTIES.has(a.property.iri) || a.subject.kind !== 'IRI' || this.text(a.value) === null) continue;
      const key = a.subject.iri + ' ' + a.property.iri;
      const list = seen.get(key);
      if (list === undefined) seen.set(key, [a]);
      else list.push(a);
    }
    for (const list of seen.values()) {
      if (list.length < 2) continue;
      const keyOf = (a: AnnotationAssertion) => (a.value as Literal).lex + '\u0000' + a.annotations.length;
      list.sort((x, y) => cmp(keyOf(x), keyOf(y)));
      for (const extra of list.slice(1)) {
        this.overflow(extra);
        this.consumed.add(extra);
      }
    }
  }

  /** The axioms and ontology annotations with no OBO tag, as one `owl-axioms:` functional-syntax document. */
  private writeOwlAxioms(): void {
    if (this.overflowAxioms.length === 0 && this.overflowAnnotations.length === 0 && !this.versionInOwlAxioms) return;
    const doc = new Ontology();
    if (this.versionInOwlAxioms) doc.id = this.o.id;
    for (const [k, v] of this.o.prefixes) doc.prefixes.set(k, v);
    for (const a of this.overflowAxioms) doc.add(a);
    for (const a of this.overflowAnnotations) doc.annotations.add(a);
    this.header.push(OWL_AXIOMS_TAG + ': ' + escapeUnquoted(writeFunctional(doc).trimEnd()));
  }

  // ---------------------------------------------------------------- ids

  /** The OBO id of an IRI: `P:L` for OBO PURLs, a bare name inside the ontology's namespace, else the IRI. */
  id(iri: string): string {
    const known = this.ids.get(iri);
    if (known !== undefined) return known;
    let id = iri;
    if (this.name !== null && iri.startsWith(OBO + this.name + '#')) id = iri.slice(OBO.length + this.name.length + 1);
    else if (iri.startsWith(OBO)) {
      const m = /^([A-Za-z][A-Za-z0-9]*)_([^/#]+)$/.exec(iri.slice(OBO.length));
      if (m) id = m[1] + ':' + m[2];
    }
    if (id === iri && !iri.includes('://') && !iri.startsWith('urn:') && !iri.startsWith('mailto:')) {
      this.unspellable.push(iri);
    }
    this.ids.set(iri, id);
    return id;
  }

  /** Relations written under their shorthand (`part_of`) keep their IRI through the xref the reader follows. */
  private chooseShorthandIds(): void {
    for (const a of this.o.axiomsOfKind('AnnotationAssertion')) {
      if (a.property.iri !== OIO_SHORTHAND || a.subject.kind !== 'IRI' || a.value.kind !== 'Literal' || a.annotations.length) continue;
      const iri = a.subject.iri;
      const canonical = this.id(iri);
      const hasXref = [...(this.o.index.annotationsBySubject.get(iri) ?? [])].some(
        (x) => x.property.iri === OIO_XREF && x.value.kind === 'Literal' && x.value.lex === canonical,
      );
      if (hasXref && isTagName(a.value.lex)) {
        this.ids.set(iri, a.value.lex);
        this.consumed.add(a);
      }
    }
  }

  private stanza(iri: string, type: StanzaType): Stanza {
    let s = this.stanzas.get(iri);
    if (s === undefined) {
      s = { type, iri, lines: [], metadata: false };
      this.stanzas.set(iri, s);
    }
    return s;
  }

  /** The stanza an annotated IRI gets: its own, else one for the kind it is declared (or used) as; null if none fits. */
  private stanzaForIri(iri: string): Stanza | null {
    const s = this.stanzas.get(iri);
    if (s !== undefined) return s;
    const kinds = this.declaredKinds.get(iri) ?? this.usedKinds.get(iri) ?? new Set();
    for (const [kind] of STANZA_KINDS) if (kinds.has(kind)) return this.stanzaFor(entity(kind, iri));
    return null;
  }

  /** The stanza of an entity that already has (or may get) one of the given type; null if it is another type. */
  private stanzaFor(e: Entity): Stanza | null {
    const type = stanzaType(e.kind);
    // one [Typedef] is either a relation or a metadata tag: a punned IRI's is the relation's
    if (type === null || (e.kind === 'AnnotationProperty' && this.isRelation(e.iri))) return null;
    const s = this.stanza(e.iri, type);
    if (s.type !== type) return null;
    if (e.kind === 'AnnotationProperty') s.metadata = true;
    return s;
  }

  private isRelation(iri: string): boolean {
    return (this.declaredKinds.get(iri)?.has('ObjectProperty') || this.usedKinds.get(iri)?.has('ObjectProperty')) ?? false;
  }

  // ---------------------------------------------------------------- header

  private writeHeader(): void {
    const h: string[] = [];
    const tagged: string[] = [];
    for (const a of this.o.annotations) {
      const q = this.qualifiers(a.annotations);
      if (q === null) {
        this.overflowAnnotations.push(a);
        continue;
      }
      const v = a.value;
      const plain = this.text(v);
      if (a.property.iri === OIO_FORMAT_VERSION && plain !== null) h.push('format-version: ' + escapeUnquoted(plain) + q);
      else if (a.property.iri === RDFS_COMMENT && plain !== null) tagged.push('remark: ' + escapeUnquoted(plain) + q);
      else if (plain !== null && isFreeTag(a.property.iri, true)) {
        tagged.push(a.property.iri.slice(OIO.length) + ': ' + escapeUnquoted(plain) + q);
      } else {
        const pv = this.propertyValue(a.property.iri, v);
        if (pv === null) this.overflowAnnotations.push(a);
        else tagged.push('property_value: ' + pv + q);
      }
    }
    if (this.o.id.versionIri !== null && this.name !== null) {
      const prefix = OBO + this.name + '/';
      const suffix = '/' + this.name + '.owl';
      const v = this.o.id.versionIri;
      if (v.startsWith(prefix) && v.endsWith(suffix) && v.length > prefix.length + suffix.length) {
        h.push('data-version: ' + escapeUnquoted(v.slice(prefix.length, -suffix.length)));
      } else {
        this.versionInOwlAxioms = true;
      }
    } else if (this.o.id.versionIri !== null) {
      this.versionInOwlAxioms = true;
    }
    // an ontology IRI that is not an OBO PURL is written whole; the reader takes an `ontology:` with a colon as an IRI
    if (this.name !== null) h.push('ontology: ' + escapeUnquoted(this.name));
    else if (this.o.id.iri !== null) h.push('ontology: ' + escapeUnquoted(this.o.id.iri));
    for (const i of [...this.o.imports].sort()) tagged.push('import: ' + escapeUnquoted(i));
    for (const sub of this.o.axiomsOfKind('SubAnnotationPropertyOf')) {
      if (sub.annotations.length) continue;
      if (sub.sup.iri === OIO_SUBSET_PROPERTY) this.headerProperty(sub, 'subsetdef', RDFS_COMMENT, tagged);
      else if (sub.sup.iri === OIO_SYNONYM_TYPE_PROPERTY) this.headerProperty(sub, 'synonymtypedef', RDFS_LABEL, tagged);
    }
    this.header.push(...h, ...tagged.sort());
  }

  /** subsetdef / synonymtypedef: the property's declaration, sub-property axiom and description, as one line. */
  private headerProperty(sub: Axiom & { kind: 'SubAnnotationPropertyOf' }, tag: string, descProp: string, out: string[]): void {
    const iri = sub.sub.iri;
    const own = [...(this.o.index.annotationsBySubject.get(iri) ?? [])];
    const desc = own.filter((a) => a.property.iri === descProp && isPlain(a.value) && !a.annotations.length);
    const scope = own.filter((a) => a.property.iri === OIO_SCOPE && isPlain(a.value) && !a.annotations.length);
    const [only] = desc;
    const [scoped] = scope;
    if (only === undefined || desc.length !== 1 || scope.length > 1 || (tag === 'subsetdef' && scoped !== undefined)) return;
    let line = tag + ': ' + escapeToken(this.id(iri)) + ' ' + quote((only.value as Literal).lex);
    if (scoped !== undefined) line += ' ' + escapeToken((scoped.value as Literal).lex);
    out.push(line);
    this.consumed.add(sub);
    this.consumed.add(only);
    for (const s of scope) this.consumed.add(s);
    for (const d of this.o.axiomsOfKind('Declaration')) {
      if (d.entity.kind === 'AnnotationProperty' && d.entity.iri === iri && !d.annotations.length) this.consumed.add(d);
    }
  }

  // ---------------------------------------------------------------- axioms

  /** The text of a plain string value (OBO has no language tags). */
  private text(v: AnnotationValue): string | null {
    return v.kind === 'Literal' && v.datatype === XSD_STRING ? v.lex : null;
  }

  private overflow(a: Axiom): void {
    this.overflowAxioms.push(a);
  }

  private axiom(a: Axiom): void {
    switch (a.kind) {
      case 'Declaration': {
        // a built-in gets no stanza and the reader does not declare it
        if (a.annotations.length || isBuiltIn(a.entity)) return this.overflow(a);
        const existing = this.stanzas.get(a.entity.iri);
        if (existing !== undefined && stanzaKind(existing) === a.entity.kind) return;
        if (this.usedKinds.get(a.entity.iri)?.has(a.entity.kind)) return; // the reader declares what the axioms use
        if (this.stanzaFor(a.entity) === null) this.overflow(a);
        return;
      }
      case 'AnnotationAssertion':
        this.annotationAssertion(a);
        return;
      case 'SubClassOf': {
        const s = a.sub.kind === 'Class' ? this.stanzaFor(a.sub) : null;
        const line = s ? this.superClassLine(a.sup, a.annotations) : null;
        if (s && line) s.lines.push(line);
        else this.overflow(a);
        return;
      }
      case 'EquivalentClasses':
        this.equivalentClasses(a);
        return;
      case 'DisjointClasses': {
        const [x, y] = a.classes;
        if (a.classes.length !== 2 || x?.kind !== 'Class' || y?.kind !== 'Class') return this.overflow(a);
        this.tagLine(a, this.stanzaFor(x), 'disjoint_from: ' + escapeToken(this.id(y.iri)));
        return;
      }
      case 'SubObjectPropertyOf':
        if (a.sub.kind !== 'ObjectProperty' || a.sup.kind !== 'ObjectProperty') return this.overflow(a);
        this.tagLine(a, this.stanzaFor(a.sub), 'is_a: ' + escapeToken(this.id(a.sup.iri)));
        return;
      case 'SubAnnotationPropertyOf':
        this.tagLine(a, this.stanzaFor(a.sub), 'is_a: ' + escapeToken(this.id(a.sup.iri)));
        return;
      case 'AnnotationPropertyDomain':
      case 'AnnotationPropertyRange':
        this.tagLine(
          a,
          this.stanzaFor(a.property),
          (a.kind === 'AnnotationPropertyDomain' ? 'domain: ' : 'range: ') +
            escapeToken(this.id(a.kind === 'AnnotationPropertyDomain' ? a.domain : a.range)),
        );
        return;
      case 'ObjectPropertyDomain':
      case 'ObjectPropertyRange': {
        const c = a.kind === 'ObjectPropertyDomain' ? a.domain : a.range;
        if (a.property.kind !== 'ObjectProperty' || c.kind !== 'Class') return this.overflow(a);
        this.tagLine(
          a,
          this.stanzaFor(a.property),
          (a.kind === 'ObjectPropertyDomain' ? 'domain: ' : 'range: ') + escapeToken(this.id(c.iri)),
        );
        return;
      }
      case 'FunctionalObjectProperty':
      case 'InverseFunctionalObjectProperty':
      case 'ReflexiveObjectProperty':
      case 'IrreflexiveObjectProperty':
      case 'SymmetricObjectProperty':
      case 'AsymmetricObjectProperty':
      case 'TransitiveObjectProperty':
        if (a.property.kind !== 'ObjectProperty') return this.overflow(a);
        this.tagLine(a, this.stanzaFor(a.property), REVERSE_CHARACTERISTICS.get(a.kind) + ': true');
        return;
      case 'InverseObjectProperties':
      case 'EquivalentObjectProperties':
      case 'DisjointObjectProperties': {
        const ps = a.kind === 'InverseObjectProperties' ? [a.first, a.second] : a.properties;
        const [p, q] = ps;
        if (ps.length !== 2 || p?.kind !== 'ObjectProperty' || q?.kind !== 'ObjectProperty') return this.overflow(a);
        const tag =
          a.kind === 'InverseObjectProperties' ? 'inverse_of' : a.kind === 'EquivalentObjectProperties' ? 'equivalent_to' : 'disjoint_from';
        this.tagLine(a, this.stanzaFor(p), tag + ': ' + escapeToken(this.id(q.iri)));
        return;
      }
      case 'SubPropertyChainOf':
        this.chain(a);
        return;
      case 'ClassAssertion':
        if (a.cls.kind !== 'Class' || a.individual.kind !== 'NamedIndividual') return this.overflow(a);
        this.tagLine(a, this.stanzaFor(a.individual), 'instance_of: ' + escapeToken(this.id(a.cls.iri)));
        return;
      case 'ObjectPropertyAssertion':
        if (a.property.kind !== 'ObjectProperty' || a.subject.kind !== 'NamedIndividual' || a.object.kind !== 'NamedIndividual')
          return this.overflow(a);
        this.tagLine(
          a,
          this.stanzaFor(a.subject),
          'relationship: ' + escapeToken(this.id(a.property.iri)) + ' ' + escapeToken(this.id(a.object.iri)),
        );
        return;
      default:
        otherKinds(a, ANY_AXIOM);
        this.overflow(a);
        break;
    }
  }

  /** Adds `line` plus the axiom's annotations as qualifiers, or sends the axiom to owl-axioms. */
  private tagLine(a: Axiom, s: Stanza | null, line: string): void {
    const q = this.qualifiers(a.annotations);
    if (s === null || q === null) this.overflow(a);
    else s.lines.push(line + q);
  }

  private chain(a: Axiom & { kind: 'SubPropertyChainOf' }): void {
    const [p, q] = a.chain;
    const sup = a.sup;
    if (a.chain.length !== 2 || p?.kind !== 'ObjectProperty' || q?.kind !== 'ObjectProperty' || sup.kind !== 'ObjectProperty')
      return this.overflow(a);
    const reversible = a.annotations.filter(
      (x) => x.property.iri === OIO_REVERSIBLE_CHAIN && isPlain(x.value) && (x.value as Literal).lex === 'true',
    );
    const rest = a.annotations.filter((x) => !reversible.includes(x));
    const q2 = this.qualifiers(rest);
    const s = this.stanzaFor(sup);
    if (q2 === null || s === null) return this.overflow(a);
    if (reversible.length) s.lines.push('equivalent_to_chain: ' + escapeToken(this.id(p.iri)) + ' ' + escapeToken(this.id(q.iri)) + q2);
    else if (p === sup) s.lines.push('transitive_over: ' + escapeToken(this.id(q.iri)) + q2);
    else s.lines.push('holds_over_chain: ' + escapeToken(this.id(p.iri)) + ' ' + escapeToken(this.id(q.iri)) + q2);
  }

  /** is_a / relationship line for a superclass expression; null when OBO cannot say it. */
  private superClassLine(sup: ClassExpression, anns: readonly Annotation[]): string | null {
    const q = this.qualifierPairs(anns);
    if (q === null) return null;
    if (sup.kind === 'Class') return 'is_a: ' + escapeToken(this.id(sup.iri)) + renderQualifiers(q);
    const rel = (p: ObjectPropertyExpression, filler: ClassExpression, extra: [string, string][]) => {
      if (p.kind !== 'ObjectProperty' || filler.kind !== 'Class') return null;
      return 'relationship: ' + escapeToken(this.id(p.iri)) + ' ' + escapeToken(this.id(filler.iri)) + renderQualifiers([...extra, ...q]);
    };
    switch (sup.kind) {
      case 'ObjectSomeValuesFrom':
        return rel(sup.property, sup.filler, []);
      case 'ObjectAllValuesFrom':
        return rel(sup.property, sup.filler, [['all_only', 'true']]);
      case 'ObjectExactCardinality':
        return rel(sup.property, sup.filler, [['cardinality', String(sup.cardinality)]]);
      case 'ObjectMinCardinality':
        return rel(sup.property, sup.filler, [['minCardinality', String(sup.cardinality)]]);
      case 'ObjectMaxCardinality':
        return rel(sup.property, sup.filler, [['maxCardinality', String(sup.cardinality)]]);
      default:
        otherKinds(sup, ANY_COMPOUND);
        return null;
    }
  }

  private equivalentClasses(a: Axiom & { kind: 'EquivalentClasses' }): void {
    const [x, y] = a.classes;
    if (a.classes.length !== 2 || x === undefined || y === undefined) return this.overflow(a);
    const named = x.kind === 'Class' ? x : y.kind === 'Class' ? y : null;
    if (named === null || named.kind !== 'Class') return this.overflow(a);
    const other = named === x ? y : x;
    const s = this.stanzaFor(named);
    if (s === null) return this.overflow(a);
    if (other.kind === 'Class') {
      this.tagLine(a, s, 'equivalent_to: ' + escapeToken(this.id(other.iri)));
      return;
    }
    // the reader builds one intersection and one union equivalence per class from all their lines
    if (s.lines.some((l) => l.startsWith(other.kind === 'ObjectUnionOf' ? 'union_of:' : 'intersection_of:'))) return this.overflow(a);
    const q = this.qualifiers(a.annotations);
    if (other.kind === 'ObjectUnionOf' && other.operands.every((c) => c.kind === 'Class') && q !== null) {
      const lines = other.operands.map((c) => 'union_of: ' + escapeToken(this.id((c as Entity).iri))).sort(cmp);
      lines[0] += q;
      s.lines.push(...lines);
      return;
    }
    if (other.kind === 'ObjectIntersectionOf' && q !== null) {
      const lines: string[] = [];
      for (const c of other.operands) {
        if (c.kind === 'Class') lines.push('intersection_of: ' + escapeToken(this.id(c.iri)));
        else if (c.kind === 'ObjectSomeValuesFrom' && c.property.kind === 'ObjectProperty' && c.filler.kind === 'Class') {
          lines.push('intersection_of: ' + escapeToken(this.id(c.property.iri)) + ' ' + escapeToken(this.id(c.filler.iri)));
        } else return this.overflow(a);
      }
      // the axiom's annotations ride on one line; the reader gathers them from all of them
      lines.sort(cmp);
      lines[0] += q;
      s.lines.push(...lines);
      return;
    }
    this.overflow(a);
  }

  private annotationAssertion(a: AnnotationAssertion): void {
    if (a.subject.kind !== 'IRI') return this.overflow(a);
    const s = this.stanzaForIri(a.subject.iri);
    if (s === null) return this.overflow(a);
    const p = a.property.iri;
    const v = a.value;
    const plain = this.text(v);
    // the reader gives each stanza its oboInOwl:id, unless the id is the IRI itself
    if (p === OIO_ID && plain !== null && !a.annotations.length && plain !== s.iri) {
      if (plain !== this.id(s.iri)) this.overflow(a);
      return;
    }
    if (p === IAO_DEFINITION && plain !== null) return this.withXrefs(a, s, 'def: ' + quote(plain), null);
    const quotedTag = REVERSE_QUOTED_TEXT_TAGS.get(p);
    if (quotedTag !== undefined && plain !== null) return this.withXrefs(a, s, quotedTag + ': ' + quote(plain), null);
    const scope = REVERSE_SCOPES.get(p);
    if (scope !== undefined && plain !== null) return this.withXrefs(a, s, 'synonym: ' + quote(plain) + ' ' + scope, OIO_SYNONYM_TYPE);
    if (p === OIO_XREF && plain !== null) {
      const label = a.annotations.filter((x) => x.property.iri === RDFS_LABEL && isPlain(x.value) && !x.annotations.length);
      const q = this.qualifiers(a.annotations.filter((x) => !label.includes(x)));
      if (q === null || label.length > 1) return this.overflow(a);
      const [labelled] = label;
      s.lines.push('xref: ' + escapeToken(plain) + (labelled !== undefined ? ' ' + quote((labelled.value as Literal).lex) : '') + q);
      return;
    }
    const q = this.qualifiers(a.annotations);
    if (q === null) return this.overflow(a);
    const tag = REVERSE_STRING_TAGS.get(p);
    if (tag !== undefined && plain !== null) s.lines.push(tag + ': ' + escapeUnquoted(plain) + q);
    else if (p === OIO_IN_SUBSET && v.kind === 'IRI') s.lines.push('subset: ' + escapeToken(this.id(v.iri)) + q);
    else if (p === OWL_DEPRECATED && v.kind === 'Literal' && v.datatype === XSD_BOOLEAN && v.lex === 'true')
      s.lines.push('is_obsolete: true' + q);
    else if (p === IAO_REPLACED_BY && v.kind === 'IRI') s.lines.push('replaced_by: ' + escapeToken(this.id(v.iri)) + q);
    else if (this.metadataTypedefs.has(p) && v.kind === 'IRI' && s.type !== 'Typedef') {
      s.lines.push('relationship: ' + escapeToken(this.id(p)) + ' ' + escapeToken(this.id(v.iri)) + q);
    } else if (plain !== null && isFreeTag(p, false)) {
      s.lines.push(p.slice(OIO.length) + ': ' + escapeUnquoted(plain) + q);
    } else {
      const pv = this.propertyValue(p, v);
      if (pv === null) this.overflow(a);
      else s.lines.push('property_value: ' + pv + q);
    }
  }

  /** def / synonym lines: hasDbXref annotations become the `[...]` list, a synonym type the type name. */
  private withXrefs(a: AnnotationAssertion, s: Stanza, head: string, typeProp: string | null): void {
    const xrefs: string[] = [];
    const rest: Annotation[] = [];
    let type: string | null = null;
    for (const x of a.annotations) {
      if (x.property.iri === OIO_XREF && isPlain(x.value)) {
        const [only] = x.annotations;
        const label =
          x.annotations.length === 1 && only?.property.iri === RDFS_LABEL && isPlain(only.value)
            ? ' ' + quote((only.value as Literal).lex)
            : null;
        if (x.annotations.length && label === null) return this.overflow(a);
        xrefs.push(escapeToken((x.value as Literal).lex) + (label ?? ''));
      } else if (typeProp !== null && x.property.iri === typeProp && x.value.kind === 'IRI' && type === null && !x.annotations.length) {
        type = this.id(x.value.iri);
      } else {
        rest.push(x);
      }
    }
    const q = this.qualifiers(rest);
    if (q === null) return this.overflow(a);
    s.lines.push(head + (type !== null ? ' ' + escapeToken(type) : '') + ' [' + xrefs.sort().join(', ') + ']' + q);
  }

  private propertyValue(p: string, v: AnnotationValue): string | null {
    if (v.kind === 'AnonymousIndividual') return null;
    const prop = escapeToken(this.id(p));
    if (v.kind === 'IRI') return prop + ' ' + escapeToken(this.id(v.iri));
    const dt = v.lang ? null : v.datatype.startsWith(XSD) ? 'xsd:' + v.datatype.slice(XSD.length) : this.id(v.datatype);
    if (dt === null) return null; // OBO property values have no language tags
    return prop + ' ' + quote(v.lex) + ' ' + dt;
  }

  /** Axiom annotations as ` {name="value", ...}`: only oboInOwl:<name> plain literals fit. */
  private qualifiers(anns: readonly Annotation[]): string | null {
    const pairs = this.qualifierPairs(anns);
    return pairs === null ? null : renderQualifiers(pairs);
  }

  private qualifierPairs(anns: readonly Annotation[]): [string, string][] | null {
    const out: [string, string][] = [];
    for (const a of anns) {
      const name = a.property.iri.slice(OIO.length);
      if (!a.property.iri.startsWith(OIO) || !isTagName(name) || !isPlain(a.value) || a.annotations.length) return null;
      if (name === 'cardinality' || name === 'minCardinality' || name === 'maxCardinality' || name === 'all_only' || name === 'all_some')
        return null;
      out.push([name, (a.value as Literal).lex]);
    }
    return out.sort((x, y) => cmp(x[0], y[0]) || cmp(x[1], y[1]));
  }
}

function stanzaType(kind: EntityKind): StanzaType | null {
  return STANZA_KINDS.find(([k]) => k === kind)?.[1] ?? null;
}

/** The kind of entity a stanza declares when read. */
function stanzaKind(s: Stanza): EntityKind {
  return s.type === 'Term' ? 'Class' : s.type === 'Instance' ? 'NamedIndividual' : s.metadata ? 'AnnotationProperty' : 'ObjectProperty';
}

function renderQualifiers(pairs: readonly [string, string][]): string {
  return pairs.length === 0 ? '' : ' {' + pairs.map(([n, v]) => n + '=' + quote(v)).join(', ') + '}';
}

/**
 * An oboInOwl:<tag> property the reader produces for a tag it has no special mapping for, so the writer
 * can write it back as `<tag>: value`. In the header, data-version without an ontology name is one.
 */
function isFreeTag(iri: string, header: boolean): boolean {
  if (!iri.startsWith(OIO)) return false;
  const tag = iri.slice(OIO.length);
  return isTagName(tag) && (!RESERVED_TAGS.has(tag) || (header && tag === 'data-version'));
}

function isPlain(v: AnnotationValue): boolean {
  return v.kind === 'Literal' && v.datatype === XSD_STRING;
}

function rank(line: string): number {
  return TAG_RANK.get(line.slice(0, line.indexOf(':'))) ?? TAG_ORDER.length;
}
