// The axioms a materialization publishes: each inferred tuple as its logical axiom, annotated with a
// provenance IRI derived from the source, closure, reasoner, category and content; a category's axioms in
// the order of their canonical lines; the canonical serialization that `materialization_digest` covers; and
// which generated axioms the destination already asserts in another form (collisions).

import type { Axiom, IRI } from '../model/terms.js';
import {
  annotation,
  annotationProperty,
  axiomWithoutAnnotations,
  classAssertion,
  cls,
  equivalentClasses,
  iriNode,
  namedIndividual,
  objectProperty,
  objectPropertyAssertion,
  subClassOf,
  subObjectPropertyOf,
  withAnnotations,
} from '../model/terms.js';
import { LineRenderer } from '../model/render/axiom-lines.js';
import { sha256Digest } from '../util/digest.js';
import type { Category } from './categories.js';
import type { InputIdentity } from './identity.js';
import { PROVENANCE_PREFIX, PROVENANCE_PROPERTY } from './provenance.js';
import { unreachable } from '../util/unreachable.js';

export interface GeneratedAxiom {
  /** The logical form (no annotations). */
  readonly plain: Axiom;
  /** The logical form annotated with its provenance IRI: what is published. */
  readonly axiom: Axiom;
  readonly provenance: IRI;
  /** Canonical functional-syntax line of `axiom`. */
  readonly line: string;
  /** Canonical line of `plain`: the order of a category's axioms. */
  readonly plainLine: string;
}

const lineRenderer = new LineRenderer(() => '_:?');

/** The provenance IRI of one generated axiom: a digest of its source, closure, reasoner, category and content. */
export function provenanceIri(identity: InputIdentity, category: Category, plainLine: string): IRI {
  const basis = JSON.stringify([
    identity.source,
    identity.provenance_basis,
    identity.reasoner.implementation_digest,
    identity.reasoner.configuration_digest,
    category,
    plainLine,
  ]);
  return PROVENANCE_PREFIX + sha256Digest(basis).slice('sha256:'.length);
}

/** The tuple's IRI at `i`; a tuple shorter than its category's arity is a programming error. */
function iriAt(t: readonly IRI[], i: number): IRI {
  const iri = t[i];
  if (iri === undefined) throw new Error(`a tuple of ${t.length} IRIs has none at ${i}`);
  return iri;
}

function plainAxiom(category: Category, t: readonly IRI[]): Axiom {
  switch (category) {
    case 'subclass_axioms':
      return subClassOf(cls(iriAt(t, 0)), cls(iriAt(t, 1)));
    case 'equivalent_class_axioms':
      return equivalentClasses(t.map((iri) => cls(iri)));
    case 'class_assertions':
      return classAssertion(cls(iriAt(t, 0)), namedIndividual(iriAt(t, 1)));
    case 'property_hierarchy_axioms':
      return subObjectPropertyOf(objectProperty(iriAt(t, 0)), objectProperty(iriAt(t, 1)));
    case 'object_property_assertions':
      return objectPropertyAssertion(objectProperty(iriAt(t, 0)), namedIndividual(iriAt(t, 1)), namedIndividual(iriAt(t, 2)));
    case 'data_property_assertions':
      throw new Error(`no axiom form for ${category}`);
    default:
      return unreachable(category);
  }
}

/** The category's generated axioms, sorted by the canonical line of their logical form (never by enumeration order). */
export function generate(identity: InputIdentity, category: Category, tuples: readonly (readonly IRI[])[]): GeneratedAxiom[] {
  const prov = annotationProperty(PROVENANCE_PROPERTY);
  const out = tuples.map((t) => {
    const plain = plainAxiom(category, t);
    const plainLine = lineRenderer.axiom(plain);
    const provenance = provenanceIri(identity, category, plainLine);
    const axiom = withAnnotations(plain, [annotation(prov, iriNode(provenance))]);
    return { plain, axiom, provenance, line: lineRenderer.axiom(axiom), plainLine };
  });
  return out.sort((a, b) => (a.plainLine < b.plainLine ? -1 : a.plainLine > b.plainLine ? 1 : 0));
}

/** The canonical serialization: every published line, sorted, one per line. */
export function canonicalText(categories: readonly { readonly axioms: readonly GeneratedAxiom[] }[]): string {
  const lines = categories.flatMap((c) => c.axioms.map((a) => a.line)).sort();
  return lines.length === 0 ? '' : lines.join('\n') + '\n';
}

/** Generated axioms whose logical form the active ontology asserts in another form (plain or other provenance). */
export function collisionCount(axioms: readonly GeneratedAxiom[], forms: ReadonlyMap<Axiom, readonly Axiom[]>): number {
  let n = 0;
  for (const g of axioms) if ((forms.get(g.plain) ?? []).some((f) => f !== g.axiom)) n++;
  return n;
}

const MATERIALIZED_KINDS: ReadonlySet<Axiom['kind']> = new Set([
  'SubClassOf',
  'EquivalentClasses',
  'ClassAssertion',
  'SubObjectPropertyOf',
  'ObjectPropertyAssertion',
]);

/** The axioms of the kinds materialization generates, grouped by logical form. */
export function formsByLogicalAxiom(axioms: Iterable<Axiom>): Map<Axiom, Axiom[]> {
  const out = new Map<Axiom, Axiom[]>();
  for (const a of axioms) {
    if (!MATERIALIZED_KINDS.has(a.kind)) continue;
    const key = axiomWithoutAnnotations(a);
    const list = out.get(key);
    if (list === undefined) out.set(key, [a]);
    else list.push(a);
  }
  return out;
}
