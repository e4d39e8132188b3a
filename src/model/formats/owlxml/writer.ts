// OWL/XML writer: a complete, deterministic document. Declarations come first, then the other axioms,
// each group sorted by its XML text; set-like operands are sorted by their XML text too, so the output
// does not depend on interning order. One axiom per line keeps diffs of saved files line-based.

import type { Ontology } from '../../ontology.js';
import type {
  Annotation,
  AnnotationValue,
  AnonymousIndividual,
  AnnotationSubject,
  Atom,
  Axiom,
  ClassExpression,
  DArg,
  DataRange,
  Entity,
  IArg,
  Individual,
  Literal,
  ObjectPropertyExpression,
} from '../../terms.js';
import { axiomTypeName } from '../../terms.js';
import { OWL, OWL_THING, RDFS_LITERAL, XSD_STRING } from '../../vocab.js';
import { anonymousLabels } from '../../render/anonymous-labels.js';
import { unreachable } from '../../../util/unreachable.js';

/** Serialises the ontology (header and axioms) as OWL/XML. */
export function writeOwlXml(o: Ontology): string {
  const w = new OwlXmlWriter(o.prefixes, anonymousLabels(o, 'a'));
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  let root = '<Ontology xmlns="' + OWL + '"';
  if (o.id.iri !== null) root += ' ontologyIRI="' + escapeAttr(o.id.iri) + '"';
  if (o.id.versionIri !== null) root += ' versionIRI="' + escapeAttr(o.id.versionIri) + '"';
  out.push(root + '>');
  const prefixes = [...o.prefixes].sort((a, b) => cmp(a[0], b[0]));
  for (const [name, ns] of prefixes) {
    out.push('    <Prefix name="' + escapeAttr(name.slice(0, -1)) + '" IRI="' + escapeAttr(ns) + '"/>');
  }
  for (const iri of [...o.imports].sort()) out.push('    <Import>' + escapeText(iri) + '</Import>');
  for (const a of sorted([...o.annotations].map((x) => w.annotation(x)))) out.push('    ' + a);
  const declarations: string[] = [];
  const others: string[] = [];
  for (const a of o.axioms()) (a.kind === 'Declaration' ? declarations : others).push(w.axiom(a));
  for (const line of sorted(declarations)) out.push('    ' + line);
  for (const line of sorted(others)) out.push('    ' + line);
  out.push('</Ontology>', '');
  return out.join('\n');
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (xs: string[]) => xs.sort(cmp);

/** Escapes attribute text; tab, LF and CR as character references so attribute normalisation keeps them. */
export function escapeAttr(s: string): string {
  return escape(s, true);
}

export function escapeText(s: string): string {
  return escape(s, false);
}

function escape(s: string, attr: boolean): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | null = null;
    if (c === 38) rep = '&amp;';
    else if (c === 60) rep = '&lt;';
    else if (c === 62) rep = '&gt;';
    else if (c === 34 && attr) rep = '&quot;';
    else if (c === 13) rep = '&#13;';
    else if (attr && (c === 9 || c === 10)) rep = c === 9 ? '&#9;' : '&#10;';
    else if ((c < 32 && c !== 9 && c !== 10) || c === 0xfffe || c === 0xffff) {
      throw new Error(
        `OWL/XML (XML 1.0) cannot represent the character U+${c.toString(16).toUpperCase().padStart(4, '0')} in "${s.slice(0, 60)}"`,
      );
    }
    if (rep !== null) {
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return start === 0 ? s : out + s.slice(start);
}

class OwlXmlWriter {
  /** Prefixes by namespace, longest first, for abbreviated IRIs. */
  private readonly namespaces: [string, string][];
  private readonly abbreviations = new Map<string, string>();

  constructor(
    prefixes: ReadonlyMap<string, string>,
    private readonly anonymous: ReadonlyMap<AnonymousIndividual, string>,
  ) {
    this.namespaces = [...prefixes]
      .filter(([name]) => name !== ':' && isNcName(name.slice(0, -1)))
      .map(([name, ns]) => [ns, name] as [string, string])
      .sort((a, b) => b[0].length - a[0].length || cmp(a[1], b[1]));
  }

  /** ` IRI="..."` or ` abbreviatedIRI="p:local"` for an element naming an IRI. */
  private iriAttr(iri: string): string {
    let ab = this.abbreviations.get(iri);
    if (ab === undefined) {
      ab = '';
      for (const [ns, name] of this.namespaces) {
        if (iri.length > ns.length && iri.startsWith(ns) && isLocalName(iri.slice(ns.length))) {
          ab = name + iri.slice(ns.length);
          break;
        }
      }
      this.abbreviations.set(iri, ab);
    }
    return ab ? ' abbreviatedIRI="' + escapeAttr(ab) + '"' : ' IRI="' + escapeAttr(iri) + '"';
  }

  private el(name: string, iri: string): string {
    return '<' + name + this.iriAttr(iri) + '/>';
  }

  entity(e: Entity): string {
    return this.el(e.kind, e.iri);
  }

  individual(i: Individual): string {
    return i.kind === 'AnonymousIndividual'
      ? '<AnonymousIndividual nodeID="' + escapeAttr(this.anonymous.get(i)!) + '"/>'
      : this.el('NamedIndividual', i.iri);
  }

  literal(l: Literal): string {
    if (l.lang) return '<Literal xml:lang="' + escapeAttr(l.lang) + '">' + escapeText(l.lex) + '</Literal>';
    const dt = l.datatype === XSD_STRING ? '' : ' datatypeIRI="' + escapeAttr(l.datatype) + '"';
    return '<Literal' + dt + '>' + escapeText(l.lex) + '</Literal>';
  }

  private iriElement(iri: string): string {
    const attr = this.iriAttr(iri);
    return attr.startsWith(' IRI=')
      ? '<IRI>' + escapeText(iri) + '</IRI>'
      : '<AbbreviatedIRI>' + escapeText(attr.slice(' abbreviatedIRI="'.length, -1)) + '</AbbreviatedIRI>';
  }

  private annotationValue(v: AnnotationValue | AnnotationSubject): string {
    switch (v.kind) {
      case 'IRI':
        return this.iriElement(v.iri);
      case 'AnonymousIndividual':
        return this.individual(v);
      case 'Literal':
        return this.literal(v);
      default:
        return unreachable(v);
    }
  }

  annotation(a: Annotation): string {
    return (
      '<Annotation>' +
      this.annotations(a.annotations) +
      this.el('AnnotationProperty', a.property.iri) +
      this.annotationValue(a.value) +
      '</Annotation>'
    );
  }

  private annotations(anns: readonly Annotation[]): string {
    return anns.length === 0 ? '' : this.set(anns, (a) => this.annotation(a));
  }

  /** Set-like operands in text order. */
  private set<T>(items: readonly T[], render: (x: T) => string): string {
    return items.map(render).sort(cmp).join('');
  }

  ope(p: ObjectPropertyExpression): string {
    return p.kind === 'ObjectProperty'
      ? this.el('ObjectProperty', p.iri)
      : '<ObjectInverseOf>' + this.el('ObjectProperty', p.property.iri) + '</ObjectInverseOf>';
  }

  dataRange(d: DataRange): string {
    switch (d.kind) {
      case 'Datatype':
        return this.el('Datatype', d.iri);
      case 'DataIntersectionOf':
      case 'DataUnionOf':
        return wrap(
          d.kind,
          this.set(d.operands, (x) => this.dataRange(x)),
        );
      case 'DataComplementOf':
        return wrap(d.kind, this.dataRange(d.operand));
      case 'DataOneOf':
        return wrap(
          d.kind,
          this.set(d.literals, (x) => this.literal(x)),
        );
      case 'DatatypeRestriction':
        return wrap(
          d.kind,
          this.el('Datatype', d.datatype.iri) +
            this.set(
              d.restrictions,
              (r) => '<FacetRestriction facet="' + escapeAttr(r.facet) + '">' + this.literal(r.value) + '</FacetRestriction>',
            ),
        );
      default:
        return unreachable(d);
    }
  }

  classExpression(c: ClassExpression): string {
    switch (c.kind) {
      case 'Class':
        return this.el('Class', c.iri);
      case 'ObjectIntersectionOf':
      case 'ObjectUnionOf':
        return wrap(
          c.kind,
          this.set(c.operands, (x) => this.classExpression(x)),
        );
      case 'ObjectComplementOf':
        return wrap(c.kind, this.classExpression(c.operand));
      case 'ObjectOneOf':
        return wrap(
          c.kind,
          this.set(c.individuals, (x) => this.individual(x)),
        );
      case 'ObjectSomeValuesFrom':
      case 'ObjectAllValuesFrom':
        return wrap(c.kind, this.ope(c.property) + this.classExpression(c.filler));
      case 'ObjectHasValue':
        return wrap(c.kind, this.ope(c.property) + this.individual(c.individual));
      case 'ObjectHasSelf':
        return wrap(c.kind, this.ope(c.property));
      case 'ObjectMinCardinality':
      case 'ObjectMaxCardinality':
      case 'ObjectExactCardinality': {
        const filler = c.filler.kind === 'Class' && c.filler.iri === OWL_THING ? '' : this.classExpression(c.filler);
        return '<' + c.kind + ' cardinality="' + c.cardinality + '">' + this.ope(c.property) + filler + '</' + c.kind + '>';
      }
      case 'DataSomeValuesFrom':
      case 'DataAllValuesFrom':
        return wrap(c.kind, this.el('DataProperty', c.property.iri) + this.dataRange(c.filler));
      case 'DataHasValue':
        return wrap(c.kind, this.el('DataProperty', c.property.iri) + this.literal(c.value));
      case 'DataMinCardinality':
      case 'DataMaxCardinality':
      case 'DataExactCardinality': {
        const filler = c.filler.kind === 'Datatype' && c.filler.iri === RDFS_LITERAL ? '' : this.dataRange(c.filler);
        return (
          '<' + c.kind + ' cardinality="' + c.cardinality + '">' + this.el('DataProperty', c.property.iri) + filler + '</' + c.kind + '>'
        );
      }
      default:
        return unreachable(c);
    }
  }

  private iarg(a: IArg): string {
    return a.kind === 'Variable' ? this.el('Variable', a.iri) : this.individual(a);
  }

  private darg(a: DArg): string {
    return a.kind === 'Variable' ? this.el('Variable', a.iri) : this.literal(a);
  }

  private atom(a: Atom): string {
    switch (a.kind) {
      case 'ClassAtom':
        return wrap(a.kind, this.classExpression(a.cls) + this.iarg(a.arg));
      case 'DataRangeAtom':
        return wrap(a.kind, this.dataRange(a.range) + this.darg(a.arg));
      case 'ObjectPropertyAtom':
        return wrap(a.kind, this.ope(a.property) + this.iarg(a.first) + this.iarg(a.second));
      case 'DataPropertyAtom':
        return wrap(a.kind, this.el('DataProperty', a.property.iri) + this.iarg(a.first) + this.darg(a.second));
      case 'BuiltInAtom':
        return '<BuiltInAtom' + this.iriAttr(a.iri) + '>' + a.args.map((x) => this.darg(x)).join('') + '</BuiltInAtom>';
      case 'SameIndividualAtom':
      case 'DifferentIndividualsAtom':
        return wrap(a.kind, this.iarg(a.first) + this.iarg(a.second));
      default:
        return unreachable(a);
    }
  }

  axiom(a: Axiom): string {
    const body = this.annotations(a.annotations) + this.operands(a);
    const name = axiomTypeName(a);
    return wrap(name, body);
  }

  private operands(a: Axiom): string {
    const ce = (c: ClassExpression) => this.classExpression(c);
    const ope = (p: ObjectPropertyExpression) => this.ope(p);
    const dp = (iri: string) => this.el('DataProperty', iri);
    const ap = (iri: string) => this.el('AnnotationProperty', iri);
    switch (a.kind) {
      case 'Declaration':
        return this.entity(a.entity);
      case 'SubClassOf':
        return ce(a.sub) + ce(a.sup);
      case 'EquivalentClasses':
      case 'DisjointClasses':
        return this.set(a.classes, ce);
      case 'DisjointUnion':
        return this.el('Class', a.cls.iri) + this.set(a.classes, ce);
      case 'SubObjectPropertyOf':
        return ope(a.sub) + ope(a.sup);
      case 'SubPropertyChainOf':
        return wrap('ObjectPropertyChain', a.chain.map(ope).join('')) + ope(a.sup);
      case 'EquivalentObjectProperties':
      case 'DisjointObjectProperties':
        return this.set(a.properties, ope);
      case 'InverseObjectProperties':
        return [ope(a.first), ope(a.second)].sort(cmp).join('');
      case 'ObjectPropertyDomain':
        return ope(a.property) + ce(a.domain);
      case 'ObjectPropertyRange':
        return ope(a.property) + ce(a.range);
      case 'FunctionalObjectProperty':
      case 'InverseFunctionalObjectProperty':
      case 'ReflexiveObjectProperty':
      case 'IrreflexiveObjectProperty':
      case 'SymmetricObjectProperty':
      case 'AsymmetricObjectProperty':
      case 'TransitiveObjectProperty':
        return ope(a.property);
      case 'SubDataPropertyOf':
        return dp(a.sub.iri) + dp(a.sup.iri);
      case 'EquivalentDataProperties':
      case 'DisjointDataProperties':
        return this.set(a.properties, (p) => dp(p.iri));
      case 'DataPropertyDomain':
        return dp(a.property.iri) + ce(a.domain);
      case 'DataPropertyRange':
        return dp(a.property.iri) + this.dataRange(a.range);
      case 'FunctionalDataProperty':
        return dp(a.property.iri);
      case 'DatatypeDefinition':
        return this.el('Datatype', a.datatype.iri) + this.dataRange(a.range);
      case 'HasKey':
        return ce(a.cls) + this.set(a.objectProperties, ope) + this.set(a.dataProperties, (p) => dp(p.iri));
      case 'SameIndividual':
      case 'DifferentIndividuals':
        return this.set(a.individuals, (i) => this.individual(i));
      case 'ClassAssertion':
        return ce(a.cls) + this.individual(a.individual);
      case 'ObjectPropertyAssertion':
      case 'NegativeObjectPropertyAssertion':
        return ope(a.property) + this.individual(a.subject) + this.individual(a.object);
      case 'DataPropertyAssertion':
      case 'NegativeDataPropertyAssertion':
        return dp(a.property.iri) + this.individual(a.subject) + this.literal(a.value);
      case 'AnnotationAssertion':
        return ap(a.property.iri) + this.annotationValue(a.subject) + this.annotationValue(a.value);
      case 'SubAnnotationPropertyOf':
        return ap(a.sub.iri) + ap(a.sup.iri);
      case 'AnnotationPropertyDomain':
        return ap(a.property.iri) + this.iriElement(a.domain);
      case 'AnnotationPropertyRange':
        return ap(a.property.iri) + this.iriElement(a.range);
      case 'DLSafeRule':
        return (
          wrap(
            'Body',
            this.set(a.body, (x) => this.atom(x)),
          ) +
          wrap(
            'Head',
            this.set(a.head, (x) => this.atom(x)),
          )
        );
      default:
        return unreachable(a);
    }
  }
}

const wrap = (name: string, body: string) => '<' + name + '>' + body + '</' + name + '>';

/** Prefix names usable in abbreviated IRIs (a conservative NCName check). */
function isNcName(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(s);
}

/** Local parts written abbreviated: conservative so the expansion reads back exactly. */
function isLocalName(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45 || c === 46;
    if (!ok) return false;
  }
  return true;
}
