// The OWL 2 DL restrictions every profile includes: typing constraints and reserved vocabulary (Structural
// Specification §5.8, §2.4), declarations, the global restrictions of §11 (simple properties, regular
// property hierarchy, datatype definitions, anonymous individuals) and the ontology header (§3.1).

import {
  entity as makeEntity,
  type Annotation,
  type AnonymousIndividual,
  type Axiom,
  type DataRange,
  type EntityKind,
  type IRI,
  type Node,
  type ObjectPropertyExpression,
  otherKinds,
  ANY_NODE,
} from '../terms.js';
import type { Ontology } from '../ontology.js';
import { forEachChild } from '../walk.js';
import { BUILT_IN_ANNOTATION_PROPERTIES, BUILT_IN_DATATYPES, FACETS, OWL_TOP_DATA_PROPERTY } from '../vocab.js';
import { hasScheme, isBuiltIn, isReserved, misusesReservedVocabulary, type ClosureFacts } from './closure-facts.js';
import { displayKey, simplePositions } from './property-hierarchy.js';
import type { ViolationSink } from './report.js';

/** Calls `visit` on every node of an axiom's logical content (annotations are skipped). */
export function walkLogical(n: Node, visit: (n: Node) => void): void {
  forEachChild(n, (c) => {
    if (c.kind === 'Annotation') return;
    visit(c);
    walkLogical(c, visit);
  });
}

/** Kinds one IRI may not have together (§5.8.1: properties of different sorts, a class that is a datatype). */
const CONFLICTS: readonly (readonly [EntityKind, EntityKind])[] = [
  ['ObjectProperty', 'DataProperty'],
  ['ObjectProperty', 'AnnotationProperty'],
  ['DataProperty', 'AnnotationProperty'],
  ['Class', 'Datatype'],
];

const KIND_NAMES: Readonly<Record<EntityKind, string>> = {
  Class: 'class',
  ObjectProperty: 'object property',
  DataProperty: 'data property',
  AnnotationProperty: 'annotation property',
  NamedIndividual: 'individual',
  Datatype: 'datatype',
};

const namedIri = (p: ObjectPropertyExpression): IRI => (p.kind === 'ObjectProperty' ? p.iri : p.property.iri);

/** Per-axiom DL restrictions: simple properties where required, datatype restrictions, owl:topDataProperty. */
export function checkAxiomDl(a: Axiom, o: Ontology, facts: ClosureFacts, sink: ViolationSink): void {
  for (const { property, where } of simplePositions(a)) {
    if (facts.hierarchy.isNonSimple(property)) {
      sink.add(
        o,
        'non_simple_property_in_' + where,
        `Non-simple property ${sink.expr(property)} used in a ${where.replace('_', '-')} axiom (§11.1 requires a simple property).`,
        a,
        namedIri(property),
      );
    }
  }
  if (a.kind === 'SubDataPropertyOf' && a.sub.iri === OWL_TOP_DATA_PROPERTY) {
    sink.add(o, 'top_data_property_as_subproperty', 'owl:topDataProperty used as a sub-property (§11.2).', a, OWL_TOP_DATA_PROPERTY);
  }
  if (a.kind === 'DatatypeDefinition' && (BUILT_IN_DATATYPES.has(a.datatype.iri) || isReserved(a.datatype.iri))) {
    sink.add(
      o,
      'builtin_datatype_defined',
      `Datatype definition of built-in or reserved datatype <${a.datatype.iri}> (§9.4).`,
      a,
      a.datatype.iri,
    );
  }
  if (a.kind === 'Declaration' || a.kind === 'AnnotationAssertion') return;
  walkLogical(a, (n) => {
    switch (n.kind) {
      case 'ObjectMinCardinality':
      case 'ObjectMaxCardinality':
      case 'ObjectExactCardinality':
        if (facts.hierarchy.isNonSimple(n.property)) {
          sink.add(
            o,
            'non_simple_property_in_cardinality',
            `Non-simple property ${sink.expr(n.property)} in cardinality restriction ${sink.expr(n)} (§11.1).`,
            a,
            namedIri(n.property),
          );
        }
        return;
      case 'ObjectHasSelf':
        if (facts.hierarchy.isNonSimple(n.property)) {
          sink.add(
            o,
            'non_simple_property_in_has_self',
            `Non-simple property ${sink.expr(n.property)} in ${sink.expr(n)} (§11.1).`,
            a,
            namedIri(n.property),
          );
        }
        return;
      case 'DatatypeRestriction':
        if (facts.definedDatatypes.has(n.datatype.iri)) {
          sink.add(
            o,
            'defined_datatype_in_restriction',
            `Datatype restriction on defined datatype <${n.datatype.iri}> (§11.2).`,
            a,
            n.datatype.iri,
          );
        }
        for (const f of n.restrictions) {
          if (!FACETS.has(f.facet))
            sink.add(o, 'illegal_facet', `Facet <${f.facet}> is not a facet of the OWL 2 datatype map (§4).`, a, f.facet);
        }
        return;
      default:
        otherKinds(n, ANY_NODE);
    }
  });
}

/** Signature-level rules, per ontology: declarations, reserved vocabulary, punning, absolute IRIs. */
function checkSignature(o: Ontology, facts: ClosureFacts, sink: ViolationSink): void {
  const punned = new Set<IRI>();
  for (const [k, axioms] of o.index.referencing) {
    if (k.kind === 'AnonymousIndividual') continue;
    const e = k;
    if (!hasScheme(e.iri)) {
      sink.add(o, 'non_absolute_iri', `${KIND_NAMES[e.kind]} IRI <${e.iri}> is not absolute (§2.3).`, sink.witness(axioms), e.iri);
    }
    if (misusesReservedVocabulary(e)) {
      if (e.kind === 'Datatype') {
        sink.add(
          o,
          'unknown_datatype',
          `Datatype <${e.iri}> is in the reserved vocabulary but not in the OWL 2 datatype map (§4).`,
          sink.witness(axioms),
          e.iri,
        );
      } else {
        sink.add(
          o,
          'reserved_vocabulary',
          `Reserved IRI <${e.iri}> used as a ${KIND_NAMES[e.kind]} (§2.4, §5).`,
          sink.witness(axioms),
          e.iri,
        );
      }
    } else if (e.kind !== 'NamedIndividual' && !isBuiltIn(e) && !facts.declared.has(e)) {
      // §5.8.1 asks declarations of classes, datatypes and properties only; individuals may go undeclared
      sink.add(
        o,
        'undeclared_entity',
        `${KIND_NAMES[e.kind]} <${e.iri}> is used but not declared in the imports closure (§5.8.1).`,
        sink.witness(axioms),
        e.iri,
      );
    }
    const kinds = facts.kindsByIri.get(e.iri);
    if (kinds !== undefined && kinds.size > 1 && !punned.has(e.iri)) {
      for (const [x, y] of CONFLICTS) {
        if (!kinds.has(x) || !kinds.has(y)) continue;
        punned.add(e.iri);
        const uses = [...kinds].flatMap((kind) => [...(o.index.referencing.get(makeEntity(kind, e.iri)) ?? [])]);
        sink.add(
          o,
          'illegal_punning',
          `<${e.iri}> is used both as a ${KIND_NAMES[x]} and as a ${KIND_NAMES[y]} (§5.8.1).`,
          sink.witness(uses),
          e.iri,
        );
        break;
      }
    }
  }
}

/** Header rules: the ontology and version IRIs are absolute and not reserved; header annotations use declared properties. */
function checkHeader(o: Ontology, facts: ClosureFacts, sink: ViolationSink): void {
  const ids: readonly [string, IRI | null][] = [
    ['ontology', o.id.iri],
    ['version', o.id.versionIri],
  ];
  for (const [what, iri] of ids) {
    if (iri === null) continue;
    if (!hasScheme(iri)) sink.add(o, what + '_iri_not_absolute', `The ${what} IRI <${iri}> is not absolute (§3.1).`, null, iri);
    else if (isReserved(iri))
      sink.add(o, what + '_iri_reserved', `The ${what} IRI <${iri}> is in the reserved vocabulary (§3.1).`, null, iri);
  }
  const visit = (anns: Iterable<Annotation>) => {
    for (const a of anns) {
      const iri = a.property.iri;
      if (!BUILT_IN_ANNOTATION_PROPERTIES.has(iri) && !facts.declared.has(makeEntity('AnnotationProperty', iri))) {
        sink.add(
          o,
          'undeclared_entity',
          `annotation property <${iri}> is used in the ontology header but not declared (§5.8.1).`,
          null,
          iri,
        );
      }
      visit(a.annotations);
    }
  };
  visit(o.annotations);
}

/** Datatype definitions must not be cyclic (§11.2): no datatype may depend on itself through definitions. */
function checkDatatypeCycles(closure: readonly Ontology[], sink: ViolationSink): void {
  const deps = new Map<IRI, Set<IRI>>();
  const defs: { o: Ontology; a: Extract<Axiom, { kind: 'DatatypeDefinition' }> }[] = [];
  const mentioned = (r: DataRange, into: Set<IRI>) => {
    if (r.kind === 'Datatype') into.add(r.iri);
    walkLogical(r, (n) => {
      if (n.kind === 'Datatype') into.add(n.iri);
    });
  };
  for (const o of closure) {
    for (const a of o.axiomsOfKind('DatatypeDefinition')) {
      defs.push({ o, a });
      let s = deps.get(a.datatype.iri);
      if (s === undefined) deps.set(a.datatype.iri, (s = new Set()));
      mentioned(a.range, s);
    }
  }
  for (const { o, a } of defs) {
    const seen = new Set<IRI>();
    const stack = [...(deps.get(a.datatype.iri) ?? [])];
    while (stack.length > 0) {
      const d = stack.pop()!;
      if (d === a.datatype.iri) {
        sink.add(o, 'datatype_definition_cycle', `Datatype <${d}> is defined in terms of itself (§11.2).`, a, d);
        break;
      }
      if (seen.has(d)) continue;
      seen.add(d);
      stack.push(...(deps.get(d) ?? []));
    }
  }
}

/**
 * Anonymous individuals must form a forest (§11.2): the object property assertions between anonymous
 * individuals may not connect two of them twice (a cycle, or two assertions between the same pair).
 */
function checkAnonymousForest(closure: readonly Ontology[], sink: ViolationSink): void {
  const parent = new Map<AnonymousIndividual, AnonymousIndividual>();
  const find = (x: AnonymousIndividual): AnonymousIndividual => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  for (const o of closure) {
    for (const a of o.axiomsOfKind('ObjectPropertyAssertion')) {
      if (a.subject.kind !== 'AnonymousIndividual' || a.object.kind !== 'AnonymousIndividual') continue;
      const x = find(a.subject),
        y = find(a.object);
      if (x === y) {
        sink.add(
          o,
          'anonymous_individual_cycle',
          `Object property assertions between anonymous individuals form a cycle at ${sink.expr(a.subject)} (§11.2).`,
          a,
        );
      } else {
        parent.set(x, y);
      }
    }
  }
}

/** Chain axioms whose members cannot all be ordered below the super-property (§11.2 regularity). */
function checkRegularity(facts: ClosureFacts, sink: ViolationSink): void {
  for (const p of facts.hierarchy.chainProblems()) {
    sink.add(
      p.ontology,
      'irregular_property_hierarchy',
      `Property chain makes the hierarchy irregular: ${displayKey(p.member)} cannot be ordered below ${sink.expr(p.axiom.sup)} (§11.2).`,
      p.axiom,
      namedIri(p.axiom.sup),
    );
  }
}

/** Every closure-level DL rule (the per-axiom ones run in the caller's single pass over the axioms). */
export function checkClosureDl(closure: readonly Ontology[], facts: ClosureFacts, sink: ViolationSink): void {
  for (const o of closure) {
    checkHeader(o, facts, sink);
    checkSignature(o, facts, sink);
  }
  checkRegularity(facts, sink);
  checkDatatypeCycles(closure, sink);
  checkAnonymousForest(closure, sink);
}
