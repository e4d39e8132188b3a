// OBO 1.4 flat file reader, translated to OWL by the standard OBO-to-OWL mapping (the one the OWL API's
// OBO parser and the OBO Foundry tools use): ids `PREFIX:LOCAL` become `http://purl.obolibrary.org/obo/
// PREFIX_LOCAL`, [Term] stanzas classes, [Typedef] stanzas object (or, with is_metadata_tag, annotation)
// properties, [Instance] stanzas named individuals; tags without a logical meaning become oboInOwl / IAO
// annotation assertions, and tags this mapping does not know become `oboInOwl:<tag>` annotations. A
// `relationship:` whose relation is an `is_metadata_tag` Typedef is an annotation, not a restriction; the
// header's `owl-axioms:` holds functional-syntax axioms OBO has no tag for. Every entity the document
// introduces or only refers to is declared (Structural Specification §5.8.1), so the result is OWL 2 DL.

import { Ontology } from '../../ontology.js';
import { ParseError } from '../errors.js';
import { readFunctional } from '../functional/reader.js';
import { isBuiltIn } from '../../profiles/closure-facts.js';
import { signature } from '../../walk.js';
import { OWL_DEPRECATED, RDFS_COMMENT, RDFS_LABEL, STANDARD_PREFIXES, XSD, XSD_BOOLEAN, XSD_STRING } from '../../vocab.js';
import {
  type Annotation,
  type AnnotationValue,
  type Axiom,
  type ClassExpression,
  type CharacteristicKind,
  type Entity,
  annotation,
  annotationAssertion,
  annotationProperty,
  annotationPropertyDomain,
  annotationPropertyRange,
  classAssertion,
  cls,
  declaration,
  disjointClasses,
  disjointObjectProperties,
  equivalentClasses,
  equivalentObjectProperties,
  inverseObjectProperties,
  iriNode,
  literal,
  namedIndividual,
  objectAllValuesFrom,
  objectExactCardinality,
  objectIntersectionOf,
  objectMaxCardinality,
  objectMinCardinality,
  objectProperty,
  objectPropertyAssertion,
  objectPropertyCharacteristic,
  objectPropertyDomain,
  objectPropertyRange,
  objectSomeValuesFrom,
  objectUnionOf,
  subAnnotationPropertyOf,
  subClassOf,
  subObjectPropertyOf,
  subPropertyChainOf,
} from '../../terms.js';
import {
  CHARACTERISTIC_TAGS,
  STRING_TAGS,
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
  SYNONYM_SCOPES,
} from './vocab.js';
import { type RawClause, type Qualifier, parseQualifiers, readQuoted, readXrefList, splitValue, tokens, unescape } from './syntax.js';

export interface ReadOboOptions {
  /** Base IRI for unprefixed ids when the document has no `ontology:` header tag. */
  base?: string | undefined;
}

/** Parses an OBO 1.4 document. Throws ParseError (with line and column) for malformed input. */
export function readObo(text: string, options: ReadOboOptions = {}): Ontology {
  return new OboReader(options.base ?? null).parse(text);
}

interface Stanza {
  readonly type: string;
  readonly line: number;
  readonly clauses: RawClause[];
}

/** Relationship qualifiers that shape the class expression rather than annotate the axiom. */
const SHAPE_QUALIFIERS = new Set(['cardinality', 'minCardinality', 'maxCardinality', 'all_only', 'all_some']);

class OboReader {
  private readonly o = new Ontology();
  private ontologyName: string | null = null;
  /** An `ontology:` value with a colon is the ontology IRI itself (as the OWL API's OBO parser reads it). */
  private ontologyIri: string | null = null;
  /** The version IRI of the owl-axioms document: the writer's place for one that is no OBO data-version. */
  private owlAxiomsVersionIri: string | null = null;
  private readonly idspaces = new Map<string, string>();
  private headerDone = false;
  private readonly header: RawClause[] = [];
  private readonly shorthands = new Map<string, string>();
  /** Relation ids whose [Typedef] says `is_metadata_tag: true`: their relationship lines are annotations. */
  private readonly metadataTags = new Set<string>();

  constructor(private readonly base: string | null) {}

  parse(text: string): Ontology {
    let stanza: Stanza | null = null;
    const stanzas: Stanza[] = [];
    let lineNo = 0;
    let pos = 0;
    while (pos < text.length) {
      let nl = text.indexOf('\n', pos);
      if (nl < 0) nl = text.length;
      let line = text.slice(pos, nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
      pos = nl + 1;
      lineNo++;
      const startLine = lineNo;
      // a trailing unescaped backslash continues the line
      while (endsWithContinuation(line) && pos < text.length) {
        let next = text.indexOf('\n', pos);
        if (next < 0) next = text.length;
        line = line.slice(0, -1) + text.slice(pos, next > pos && text.charCodeAt(next - 1) === 13 ? next - 1 : next);
        pos = next + 1;
        lineNo++;
      }
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('!')) continue;
      if (trimmed.startsWith('[')) {
        if (!trimmed.endsWith(']')) throw new ParseError('obo', `malformed stanza header "${trimmed}"`, startLine, 1);
        stanza = { type: trimmed.slice(1, -1).trim(), line: startLine, clauses: [] };
        stanzas.push(stanza);
        continue;
      }
      const clause = parseLine(line, startLine);
      if (stanza === null) this.header.push(clause);
      else stanza.clauses.push(clause);
    }
    // translation waits for the whole document: relation ids may be used before their [Typedef]
    this.finishHeader();
    for (const st of stanzas) if (st.type === 'Typedef') this.noteTypedef(st);
    for (const st of stanzas) this.stanza(st);
    this.declareSignature();
    this.o.format = 'obo';
    return this.o;
  }

  // ---------------------------------------------------------------- ids

  /** The IRI of an OBO id: full IRIs as they are, `P:L` via idspace or the OBO PURL, `L` in the ontology. */
  iri(id: string): string {
    const expanded = this.shorthands.get(id);
    if (expanded !== undefined) return this.iri(expanded);
    if (id.includes('://') || id.startsWith('urn:') || id.startsWith('mailto:')) return id;
    const colon = id.indexOf(':');
    if (colon > 0) {
      const prefix = id.slice(0, colon);
      const ns = this.idspaces.get(prefix);
      return (ns ?? OBO + prefix + '_') + id.slice(colon + 1);
    }
    if (this.ontologyName !== null) return OBO + this.ontologyName + '#' + id;
    if (this.base !== null) return this.base + '#' + id;
    return OBO + id;
  }

  /**
   * Notes a metadata tag, and the shorthand convention of OBO Foundry ontologies: a [Typedef] with an
   * unprefixed id (`part_of`) and a prefixed xref (`BFO:0000050`) names the xref's relation.
   */
  private noteTypedef(s: Stanza): void {
    const id = s.clauses.find((c) => c.tag === 'id');
    if (id !== undefined && s.clauses.some((c) => c.tag === 'is_metadata_tag' && this.bool(c))) this.metadataTags.add(unescape(id.value));
    if (id === undefined || id.value.includes(':')) return;
    for (const c of s.clauses) {
      if (c.tag !== 'xref') continue;
      const [first] = tokens(c.value);
      if (first?.includes(':')) {
        this.shorthands.set(unescape(id.value), first);
        return;
      }
    }
  }

  private add(a: Axiom): void {
    this.o.add(a);
  }

  /** Declares every entity the axioms and the header use that is neither declared nor built in. */
  private declareSignature(): void {
    const used = new Set<Entity>();
    for (const a of this.o.axioms()) if (a.kind !== 'Declaration') for (const e of signature(a)) used.add(e);
    for (const a of this.o.annotations) for (const e of signature(a)) used.add(e);
    for (const e of used) if (!isBuiltIn(e)) this.add(declaration(e));
  }

  private annotate(p: string, subject: string, value: AnnotationValue, anns: Annotation[] = []): void {
    this.add(annotationAssertion(annotationProperty(p), iriNode(subject), value, anns));
  }

  /** Axiom annotations from trailing qualifiers: `{source="PMID:1"}` → oboInOwl:source "PMID:1". */
  private qualifierAnnotations(qs: readonly Qualifier[], shaped = false): Annotation[] {
    const out: Annotation[] = [];
    for (const q of qs)
      if (!shaped || !SHAPE_QUALIFIERS.has(q.name)) out.push(annotation(annotationProperty(OIO + q.name), literal(q.value)));
    return out;
  }

  private qualifiers(c: RawClause): Qualifier[] {
    return c.qualifiers ? parseQualifiers(c.qualifiers, c.line, c.col) : [];
  }

  // ---------------------------------------------------------------- header

  private finishHeader(): void {
    if (this.headerDone) return;
    this.headerDone = true;
    for (const c of this.header) {
      if (c.tag === 'ontology') {
        const v = unescape(c.value);
        if (v.includes(':')) this.ontologyIri = v;
        else this.ontologyName = v;
      } else if (c.tag === 'idspace') {
        const [prefix, ns] = tokens(c.value);
        if (!prefix || !ns) throw new ParseError('obo', 'idspace needs a prefix and an IRI', c.line, c.col);
        this.idspaces.set(prefix, ns);
        this.o.prefixes.set(prefix + ':', ns);
      }
    }
    for (const [k, v] of STANDARD_PREFIXES) this.o.prefixes.set(k, v);
    this.o.prefixes.set('obo:', OBO);
    this.o.prefixes.set('oboInOwl:', OIO);
    let versionIri: string | null = null;
    for (const c of this.header) {
      const anns = this.qualifierAnnotations(this.qualifiers(c));
      switch (c.tag) {
        case 'ontology':
        case 'idspace':
          break;
        case 'data-version': {
          const v = unescape(c.value);
          // with an ontology name the data version is the version IRI; without one it stays an annotation
          if (this.ontologyName !== null) versionIri = OBO + this.ontologyName + '/' + v + '/' + this.ontologyName + '.owl';
          else this.o.annotations.add(annotation(annotationProperty(OIO + 'data-version'), literal(v), anns));
          break;
        }
        case 'format-version':
          this.o.annotations.add(annotation(annotationProperty(OIO_FORMAT_VERSION), literal(unescape(c.value)), anns));
          break;
        case 'remark':
          this.o.annotations.add(annotation(annotationProperty(RDFS_COMMENT), literal(unescape(c.value)), anns));
          break;
        case 'import': {
          const v = unescape(c.value);
          this.o.imports.add(v.includes(':') ? v : OBO + (v.endsWith('.owl') ? v : v + '.owl'));
          break;
        }
        case 'subsetdef':
          this.subsetdef(c);
          break;
        case 'synonymtypedef':
          this.synonymtypedef(c);
          break;
        case 'property_value': {
          const [p, v] = this.propertyValue(c);
          this.o.annotations.add(annotation(annotationProperty(p), v, anns));
          break;
        }
        case OWL_AXIOMS_TAG:
          this.owlAxioms(c);
          break;
        default:
          this.o.annotations.add(annotation(annotationProperty(OIO + c.tag), literal(unescape(c.value)), anns));
      }
    }
    if (this.ontologyName !== null)
      this.o.id = { iri: OBO + this.ontologyName + '.owl', versionIri: versionIri ?? this.owlAxiomsVersionIri };
    else if (this.ontologyIri !== null) this.o.id = { iri: this.ontologyIri, versionIri: this.owlAxiomsVersionIri };
  }

  /** `owl-axioms:` holds a functional-syntax document; its axioms belong to this ontology. */
  private owlAxioms(c: RawClause): void {
    let doc: Ontology;
    try {
      doc = readFunctional(unescape(c.value), { base: this.o.id.iri ?? undefined });
    } catch (err) {
      const detail = err instanceof ParseError ? err.detail : String(err);
      throw new ParseError('obo', `owl-axioms is not an OWL functional-syntax document: ${detail}`, c.line, c.col);
    }
    for (const a of doc.axioms()) this.add(a);
    for (const a of doc.annotations) this.o.annotations.add(a);
    if (doc.id.versionIri !== null) this.owlAxiomsVersionIri = doc.id.versionIri;
    for (const [k, v] of doc.prefixes) if (!this.o.prefixes.has(k)) this.o.prefixes.set(k, v);
  }

  private subsetdef(c: RawClause): void {
    const sp = c.value.search(/\s/);
    if (sp < 0) throw new ParseError('obo', 'subsetdef needs a name and a quoted description', c.line, c.col);
    const p = this.iri(unescape(c.value.slice(0, sp)));
    const rest = c.value.slice(sp).trim();
    const [desc] = readQuoted(rest, 0, c.line, c.col);
    this.add(declaration(annotationProperty(p)));
    this.add(subAnnotationPropertyOf(annotationProperty(p), annotationProperty(OIO_SUBSET_PROPERTY)));
    this.annotate(RDFS_COMMENT, p, literal(desc));
  }

  private synonymtypedef(c: RawClause): void {
    const sp = c.value.search(/\s/);
    if (sp < 0) throw new ParseError('obo', 'synonymtypedef needs a name and a quoted description', c.line, c.col);
    const p = this.iri(unescape(c.value.slice(0, sp)));
    const rest = c.value.slice(sp).trim();
    if (!rest.startsWith('"')) throw new ParseError('obo', 'synonymtypedef description must be quoted', c.line, c.col + sp);
    const [desc, next] = readQuoted(rest, 0, c.line, c.col);
    this.add(declaration(annotationProperty(p)));
    this.add(subAnnotationPropertyOf(annotationProperty(p), annotationProperty(OIO_SYNONYM_TYPE_PROPERTY)));
    this.annotate(RDFS_LABEL, p, literal(desc));
    const scope = rest.slice(next).trim();
    if (scope) this.annotate(OIO_SCOPE, p, literal(scope));
  }

  // ---------------------------------------------------------------- stanzas

  private stanza(s: Stanza): void {
    this.finishHeader();
    const idClause = s.clauses.find((c) => c.tag === 'id');
    if (idClause === undefined) throw new ParseError('obo', `[${s.type}] stanza without id`, s.line, 1);
    const id = unescape(idClause.value);
    const iri = this.iri(id);
    switch (s.type) {
      case 'Term':
        this.term(iri, s);
        break;
      case 'Typedef':
        this.typedef(iri, s);
        break;
      case 'Instance':
        this.instance(iri, s);
        break;
      default:
        this.o.unmapped.push({ text: `[${s.type}] id: ${id}`, reason: `stanza type ${s.type} has no OWL mapping (line ${s.line})` });
        return;
    }
    // an id that is the IRI itself says nothing oboInOwl:id would add
    if (id !== iri) this.annotate(OIO_ID, iri, literal(id));
    if (this.shorthands.has(id)) this.annotate(OIO_SHORTHAND, iri, literal(id));
  }

  private term(iri: string, s: Stanza): void {
    const c0 = cls(iri);
    this.add(declaration(c0));
    const intersection: ClassExpression[] = [];
    const intersectionAnns: Annotation[] = [];
    const union: ClassExpression[] = [];
    const unionAnns: Annotation[] = [];
    for (const c of s.clauses) {
      const qs = this.qualifiers(c);
      const anns = this.qualifierAnnotations(qs, c.tag === 'relationship');
      switch (c.tag) {
        case 'is_a':
          this.add(subClassOf(c0, cls(this.iri(this.single(c))), anns));
          break;
        case 'intersection_of':
          intersection.push(this.classOrRestriction(c, qs));
          intersectionAnns.push(...this.qualifierAnnotations(qs, true));
          break;
        case 'union_of':
          union.push(cls(this.iri(this.single(c))));
          unionAnns.push(...anns);
          break;
        case 'disjoint_from':
          this.add(disjointClasses([c0, cls(this.iri(this.single(c)))], anns));
          break;
        case 'equivalent_to':
          this.add(equivalentClasses([c0, cls(this.iri(this.single(c)))], anns));
          break;
        case 'relationship':
          if (!this.metadataRelationship(iri, c, qs)) this.add(subClassOf(c0, this.restriction(c, qs), anns));
          break;
        default:
          this.common(iri, c, anns);
      }
    }
    if (intersection.length > 0) {
      const [only] = intersection;
      const e = only !== undefined && intersection.length === 1 ? only : objectIntersectionOf(intersection);
      // qualifiers of the intersection_of lines annotate the one equivalence they form together
      this.add(equivalentClasses([c0, e], intersectionAnns));
    }
    const [onlyUnion] = union;
    if (onlyUnion !== undefined) this.add(equivalentClasses([c0, union.length === 1 ? onlyUnion : objectUnionOf(union)], unionAnns));
  }

  private typedef(iri: string, s: Stanza): void {
    const metadata = s.clauses.some((c) => c.tag === 'is_metadata_tag' && this.bool(c));
    if (metadata) {
      const p = annotationProperty(iri);
      this.add(declaration(p));
      for (const c of s.clauses) {
        const anns = this.qualifierAnnotations(this.qualifiers(c));
        switch (c.tag) {
          case 'is_metadata_tag':
            break;
          case 'is_a':
            this.add(subAnnotationPropertyOf(p, annotationProperty(this.iri(this.single(c))), anns));
            break;
          case 'domain':
            this.add(annotationPropertyDomain(p, this.iri(this.single(c)), anns));
            break;
          case 'range':
            this.add(annotationPropertyRange(p, this.iri(this.single(c)), anns));
            break;
          default:
            this.common(iri, c, anns);
        }
      }
      return;
    }
    const p = objectProperty(iri);
    this.add(declaration(p));
    for (const c of s.clauses) {
      const anns = this.qualifierAnnotations(this.qualifiers(c));
      const characteristic = CHARACTERISTIC_TAGS.get(c.tag);
      if (characteristic !== undefined) {
        if (this.bool(c)) this.add(objectPropertyCharacteristic(characteristic as CharacteristicKind, p, anns));
        continue;
      }
      switch (c.tag) {
        case 'is_metadata_tag':
          break;
        case 'is_a':
          this.add(subObjectPropertyOf(p, objectProperty(this.iri(this.single(c))), anns));
          break;
        case 'domain':
          this.add(objectPropertyDomain(p, cls(this.iri(this.single(c))), anns));
          break;
        case 'range':
          this.add(objectPropertyRange(p, cls(this.iri(this.single(c))), anns));
          break;
        case 'inverse_of':
          this.add(inverseObjectProperties(p, objectProperty(this.iri(this.single(c))), anns));
          break;
        case 'equivalent_to':
          this.add(equivalentObjectProperties([p, objectProperty(this.iri(this.single(c)))], anns));
          break;
        case 'disjoint_from':
          this.add(disjointObjectProperties([p, objectProperty(this.iri(this.single(c)))], anns));
          break;
        case 'transitive_over':
          this.add(subPropertyChainOf([p, objectProperty(this.iri(this.single(c)))], p, anns));
          break;
        case 'holds_over_chain':
        case 'equivalent_to_chain': {
          const ts = tokens(c.value);
          if (ts.length !== 2) throw new ParseError('obo', `${c.tag} needs two relation ids`, c.line, c.col);
          const chainAnns =
            c.tag === 'equivalent_to_chain' ? [...anns, annotation(annotationProperty(OIO_REVERSIBLE_CHAIN), literal('true'))] : anns;
          this.add(
            subPropertyChainOf(
              ts.map((t) => objectProperty(this.iri(t))),
              p,
              chainAnns,
            ),
          );
          break;
        }
        default:
          this.common(iri, c, anns);
      }
    }
  }

  private instance(iri: string, s: Stanza): void {
    const i = namedIndividual(iri);
    this.add(declaration(i));
    for (const c of s.clauses) {
      const anns = this.qualifierAnnotations(this.qualifiers(c));
      switch (c.tag) {
        case 'instance_of':
          this.add(classAssertion(cls(this.iri(this.single(c))), i, anns));
          break;
        case 'relationship': {
          const ts = tokens(c.value);
          const [relation, target] = ts;
          if (relation === undefined || target === undefined || ts.length > 2)
            throw new ParseError('obo', 'relationship needs a relation id and a target id', c.line, c.col);
          if (this.metadataRelationship(iri, c, this.qualifiers(c))) break;
          this.add(objectPropertyAssertion(objectProperty(this.iri(relation)), i, namedIndividual(this.iri(target)), anns));
          break;
        }
        default:
          this.common(iri, c, anns);
      }
    }
  }

  /** `relationship: R X` with R a metadata tag: the annotation R of the subject with value X. */
  private metadataRelationship(subject: string, c: RawClause, qs: readonly Qualifier[]): boolean {
    const ts = tokens(c.value);
    const [tag, value] = ts;
    if (tag === undefined || value === undefined || ts.length > 2 || !this.metadataTags.has(tag)) return false;
    this.annotate(this.iri(tag), subject, iriNode(this.iri(value)), this.qualifierAnnotations(qs));
    return true;
  }

  /** Tags shared by every stanza type: annotations of the entity. */
  private common(iri: string, c: RawClause, anns: Annotation[]): void {
    const stringProp = STRING_TAGS.get(c.tag);
    if (stringProp !== undefined) {
      this.annotate(stringProp, iri, literal(unescape(c.value)), anns);
      return;
    }
    switch (c.tag) {
      case 'id':
        break;
      case 'def':
      case 'expand_expression_to':
      case 'expand_assertion_to': {
        if (!c.value.startsWith('"')) throw new ParseError('obo', `${c.tag} text must be quoted`, c.line, c.col);
        const [text, next] = readQuoted(c.value, 0, c.line, c.col);
        this.annotate(c.tag === 'def' ? IAO_DEFINITION : QUOTED_TEXT_TAGS.get(c.tag)!, iri, literal(text), [
          ...anns,
          ...this.xrefAnnotations(c, next),
        ]);
        break;
      }
      case 'synonym':
        this.synonym(iri, c, anns);
        break;
      case 'xref': {
        const v = c.value;
        const q = v.indexOf(' "');
        const id = unescape(q < 0 ? v : v.slice(0, q).trim());
        const extra = q < 0 ? [] : [annotation(annotationProperty(RDFS_LABEL), literal(readQuoted(v, q + 1, c.line, c.col)[0]))];
        this.annotate(OIO_XREF, iri, literal(id), [...anns, ...extra]);
        break;
      }
      case 'subset':
        this.annotate(OIO_IN_SUBSET, iri, iriNode(this.iri(this.single(c))), anns);
        break;
      case 'is_obsolete':
        if (this.bool(c)) this.annotate(OWL_DEPRECATED, iri, literal('true', XSD_BOOLEAN), anns);
        break;
      case 'replaced_by':
        this.annotate(IAO_REPLACED_BY, iri, iriNode(this.iri(this.single(c))), anns);
        break;
      case 'property_value': {
        const [p, v] = this.propertyValue(c);
        this.annotate(p, iri, v, anns);
        break;
      }
      default:
        this.annotate(OIO + c.tag, iri, literal(unescape(c.value)), anns);
    }
  }

  /** `synonym: "text" SCOPE [TYPE] [xrefs]`; the scope defaults to RELATED. */
  private synonym(iri: string, c: RawClause, anns: Annotation[]): void {
    if (!c.value.startsWith('"')) throw new ParseError('obo', 'synonym text must be quoted', c.line, c.col);
    const [text, next] = readQuoted(c.value, 0, c.line, c.col);
    const bracket = c.value.indexOf('[', next);
    const xrefStart = bracket < 0 ? c.value.length : bracket;
    const [scope = 'RELATED', synonymType, extra] = tokens(c.value.slice(next, xrefStart));
    const property = SYNONYM_SCOPES.get(scope);
    if (property === undefined) throw new ParseError('obo', `unknown synonym scope "${scope}"`, c.line, c.col + next);
    if (extra !== undefined) throw new ParseError('obo', `unexpected "${extra}" in synonym`, c.line, c.col + next);
    const type = synonymType !== undefined ? [annotation(annotationProperty(OIO_SYNONYM_TYPE), iriNode(this.iri(synonymType)))] : [];
    this.annotate(property, iri, literal(text), [...anns, ...type, ...this.xrefAnnotations(c, xrefStart)]);
  }

  /** The `[xref, ...]` list after a quoted text, as oboInOwl:hasDbXref annotations. */
  private xrefAnnotations(c: RawClause, from: number): Annotation[] {
    let i = from;
    while (i < c.value.length && c.value[i] === ' ') i++;
    if (i >= c.value.length) return [];
    if (c.value[i] !== '[') throw new ParseError('obo', `expected a dbxref list, found "${c.value.slice(i)}"`, c.line, c.col + i);
    const [xrefs] = readXrefList(c.value, i, c.line, c.col);
    return xrefs.map((x) =>
      annotation(
        annotationProperty(OIO_XREF),
        literal(x.id),
        x.description !== null ? [annotation(annotationProperty(RDFS_LABEL), literal(x.description))] : [],
      ),
    );
  }

  /** `P value` or `P "value" xsd:type`: the property IRI and the annotation value. */
  private propertyValue(c: RawClause): [string, AnnotationValue] {
    const sp = c.value.search(/\s/);
    if (sp < 0) throw new ParseError('obo', 'property_value needs a property and a value', c.line, c.col);
    const p = this.iri(unescape(c.value.slice(0, sp)));
    const rest = c.value.slice(sp).trim();
    if (rest.startsWith('"')) {
      const [text, next] = readQuoted(rest, 0, c.line, c.col);
      const dt = rest.slice(next).trim();
      return [p, literal(text, dt ? this.datatypeIri(unescape(dt)) : XSD_STRING)];
    }
    const ts = tokens(rest);
    const [value, dt] = ts;
    if (value === undefined || ts.length > 2) throw new ParseError('obo', `malformed property_value "${c.value}"`, c.line, c.col);
    return [p, dt !== undefined ? literal(value, this.datatypeIri(dt)) : iriNode(this.iri(value))];
  }

  private datatypeIri(t: string): string {
    if (t.startsWith('xsd:')) return XSD + t.slice(4);
    const colon = t.indexOf(':');
    const ns = colon > 0 ? this.o.prefixes.get(t.slice(0, colon + 1)) : undefined;
    return ns !== undefined && !this.idspaces.has(t.slice(0, colon)) ? ns + t.slice(colon + 1) : this.iri(t);
  }

  /** A class id, or `relation class` as a some-values-from restriction (intersection_of). */
  private classOrRestriction(c: RawClause, qs: readonly Qualifier[]): ClassExpression {
    const ts = tokens(c.value);
    const [id] = ts;
    if (id !== undefined && ts.length === 1) return cls(this.iri(id));
    return this.restriction(c, qs);
  }

  /** `relation class` with cardinality / all_only qualifiers shaping the restriction. */
  private restriction(c: RawClause, qs: readonly Qualifier[]): ClassExpression {
    const ts = tokens(c.value);
    const [relation, target] = ts;
    if (relation === undefined || target === undefined || ts.length > 2)
      throw new ParseError('obo', `${c.tag} needs a relation id and a class id`, c.line, c.col);
    const p = objectProperty(this.iri(relation));
    const filler = cls(this.iri(target));
    const q = (name: string) => qs.find((x) => x.name === name)?.value;
    const card = (name: string): number | undefined => {
      const v = q(name);
      if (v === undefined) return undefined;
      if (!/^\d+$/.test(v)) throw new ParseError('obo', `${name} must be a non-negative integer, found "${v}"`, c.line, c.col);
      return Number(v);
    };
    const exact = card('cardinality');
    if (exact !== undefined) return objectExactCardinality(exact, p, filler);
    const min = card('minCardinality');
    const max = card('maxCardinality');
    if (min !== undefined && max !== undefined)
      return objectIntersectionOf([objectMinCardinality(min, p, filler), objectMaxCardinality(max, p, filler)]);
    if (min !== undefined) return objectMinCardinality(min, p, filler);
    if (max !== undefined) return objectMaxCardinality(max, p, filler);
    if (q('all_only') === 'true') return objectAllValuesFrom(p, filler);
    return objectSomeValuesFrom(p, filler);
  }

  /** The value as exactly one id. */
  private single(c: RawClause): string {
    const ts = tokens(c.value);
    const [id] = ts;
    if (id === undefined || ts.length > 1) throw new ParseError('obo', `${c.tag} expects one id, found "${c.value}"`, c.line, c.col);
    return id;
  }

  private bool(c: RawClause): boolean {
    if (c.value === 'true') return true;
    if (c.value === 'false') return false;
    throw new ParseError('obo', `${c.tag} expects true or false, found "${c.value}"`, c.line, c.col);
  }
}

function endsWithContinuation(line: string): boolean {
  let n = 0;
  for (let i = line.length - 1; i >= 0 && line.charCodeAt(i) === 92; i--) n++;
  return n % 2 === 1;
}

/** Splits `tag: value {qualifiers} ! comment`. */
function parseLine(line: string, lineNo: number): RawClause {
  const colon = line.indexOf(':');
  if (colon <= 0) throw new ParseError('obo', `expected "tag: value", found "${line.trim()}"`, lineNo, 1);
  const tag = line.slice(0, colon).trim();
  if (tag === '' || /\s/.test(tag)) throw new ParseError('obo', `malformed tag "${tag}"`, lineNo, 1);
  let start = colon + 1;
  while (start < line.length && (line[start] === ' ' || line[start] === '\t')) start++;
  const [value, qualifiers] = splitValue(line.slice(start), lineNo, start + 1);
  return { tag, value, qualifiers, line: lineNo, col: start + 1 };
}
