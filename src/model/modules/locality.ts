// Syntactic locality (Cuenca Grau, Horrocks, Kazakov, Sattler: "Modular reuse of ontologies", JAIR 2008).
// An axiom is local with respect to a signature Σ when it holds in every interpretation that fixes the
// entities outside Σ: ⊥-locality interprets them as empty, ⊤-locality classes as the whole domain and
// properties as the full relation. Locality is decided syntactically, bottom-up over class expressions,
// property expressions and data ranges. Where a case is not decidable syntactically the axiom counts as
// non-local: that only makes a module larger, never wrong. Individuals are never fixed, so nominals are
// never empty and individual equality axioms are never local.

import type { Atom, Axiom, ClassExpression, DataProperty, DataRange, Entity, ObjectPropertyExpression } from '../terms.js';
import {
  BUILT_IN_DATATYPES,
  OWL_BOTTOM_DATA_PROPERTY,
  OWL_BOTTOM_OBJECT_PROPERTY,
  OWL_NOTHING,
  OWL_THING,
  OWL_TOP_DATA_PROPERTY,
  OWL_TOP_OBJECT_PROPERTY,
  RDFS_LITERAL,
} from '../vocab.js';
import { unreachable } from '../../util/unreachable.js';

/** How entities outside the signature are interpreted. */
export type LocalityKind = 'BOT' | 'TOP';

export type Signature = ReadonlySet<Entity>;

/** What a property is fixed to under a locality kind: the empty relation, the full one, or neither. */
type Extent = 'empty' | 'full' | 'free';

/** The locality of one signature: every test below is relative to it. */
export class Locality {
  constructor(
    readonly kind: LocalityKind,
    readonly sig: Signature,
  ) {}

  private outside(): Extent {
    return this.kind === 'BOT' ? 'empty' : 'full';
  }

  objectProperty(p: ObjectPropertyExpression): Extent {
    const named = p.kind === 'ObjectProperty' ? p : p.property;
    if (named.iri === OWL_TOP_OBJECT_PROPERTY) return 'full';
    if (named.iri === OWL_BOTTOM_OBJECT_PROPERTY) return 'empty';
    return this.sig.has(named) ? 'free' : this.outside();
  }

  dataProperty(p: DataProperty): Extent {
    if (p.iri === OWL_TOP_DATA_PROPERTY) return 'full';
    if (p.iri === OWL_BOTTOM_DATA_PROPERTY) return 'empty';
    return this.sig.has(p) ? 'free' : this.outside();
  }

  /** C is empty in every interpretation that fixes the entities outside Σ. */
  bottom(c: ClassExpression): boolean {
    switch (c.kind) {
      case 'Class':
        if (c.iri === OWL_NOTHING) return true;
        if (c.iri === OWL_THING) return false;
        return this.kind === 'BOT' && !this.sig.has(c);
      case 'ObjectComplementOf':
        return this.top(c.operand);
      case 'ObjectIntersectionOf':
        return c.operands.some((o) => this.bottom(o));
      case 'ObjectUnionOf':
        return c.operands.every((o) => this.bottom(o));
      case 'ObjectOneOf':
        return c.individuals.length === 0;
      case 'ObjectSomeValuesFrom':
        return this.objectProperty(c.property) === 'empty' || this.bottom(c.filler);
      case 'ObjectAllValuesFrom':
        return this.objectProperty(c.property) === 'full' && this.bottom(c.filler);
      case 'ObjectHasValue':
      case 'ObjectHasSelf':
        return this.objectProperty(c.property) === 'empty';
      case 'ObjectMinCardinality':
        return c.cardinality > 0 && (this.objectProperty(c.property) === 'empty' || this.bottom(c.filler));
      case 'ObjectExactCardinality':
        return c.cardinality > 0
          ? this.objectProperty(c.property) === 'empty' || this.bottom(c.filler)
          : this.everyoneHasSuccessor(c.property, c.filler);
      case 'ObjectMaxCardinality':
        // ≤0 R.C with R full and C everything: everyone has a successor in C
        return c.cardinality === 0 && this.everyoneHasSuccessor(c.property, c.filler);
      case 'DataSomeValuesFrom':
        return this.dataProperty(c.property) === 'empty' || this.emptyRange(c.filler);
      case 'DataAllValuesFrom':
        return this.dataProperty(c.property) === 'full' && this.emptyRange(c.filler);
      case 'DataHasValue':
        return this.dataProperty(c.property) === 'empty';
      case 'DataMinCardinality':
        return c.cardinality > 0 && (this.dataProperty(c.property) === 'empty' || this.emptyRange(c.filler));
      case 'DataExactCardinality':
        return c.cardinality > 0
          ? this.dataProperty(c.property) === 'empty' || this.emptyRange(c.filler)
          : this.dataProperty(c.property) === 'full' && this.nonEmptyRange(c.filler);
      case 'DataMaxCardinality':
        return c.cardinality === 0 && this.dataProperty(c.property) === 'full' && this.nonEmptyRange(c.filler);
      default:
        return unreachable(c);
    }
  }

  /** C is the whole domain in every interpretation that fixes the entities outside Σ. */
  top(c: ClassExpression): boolean {
    switch (c.kind) {
      case 'Class':
        if (c.iri === OWL_THING) return true;
        if (c.iri === OWL_NOTHING) return false;
        return this.kind === 'TOP' && !this.sig.has(c);
      case 'ObjectComplementOf':
        return this.bottom(c.operand);
      case 'ObjectIntersectionOf':
        return c.operands.every((o) => this.top(o));
      case 'ObjectUnionOf':
        return c.operands.some((o) => this.top(o));
      case 'ObjectOneOf':
        return false;
      case 'ObjectSomeValuesFrom':
        return this.everyoneHasSuccessor(c.property, c.filler);
      case 'ObjectAllValuesFrom':
        return this.objectProperty(c.property) === 'empty' || this.top(c.filler);
      case 'ObjectHasValue':
      case 'ObjectHasSelf':
        return this.objectProperty(c.property) === 'full';
      case 'ObjectMinCardinality':
        // ≥2 R.⊤ over a full R still fails in a one-element domain
        return c.cardinality === 0 || (c.cardinality === 1 && this.everyoneHasSuccessor(c.property, c.filler));
      case 'ObjectMaxCardinality':
        return this.objectProperty(c.property) === 'empty' || this.bottom(c.filler);
      case 'ObjectExactCardinality':
        return c.cardinality === 0 && (this.objectProperty(c.property) === 'empty' || this.bottom(c.filler));
      case 'DataSomeValuesFrom':
        return this.dataProperty(c.property) === 'full' && this.nonEmptyRange(c.filler);
      case 'DataAllValuesFrom':
        return this.dataProperty(c.property) === 'empty' || this.topRange(c.filler);
      case 'DataHasValue':
        return this.dataProperty(c.property) === 'full';
      case 'DataMinCardinality':
        return c.cardinality === 0 || (c.cardinality === 1 && this.dataProperty(c.property) === 'full' && this.nonEmptyRange(c.filler));
      case 'DataMaxCardinality':
        return this.dataProperty(c.property) === 'empty' || this.emptyRange(c.filler);
      case 'DataExactCardinality':
        return c.cardinality === 0 && (this.dataProperty(c.property) === 'empty' || this.emptyRange(c.filler));
      default:
        return unreachable(c);
    }
  }

  /** ∃R.C is everything: R is the full relation and C the whole (non-empty) domain. */
  private everyoneHasSuccessor(p: ObjectPropertyExpression, filler: ClassExpression): boolean {
    return this.objectProperty(p) === 'full' && this.top(filler);
  }

  /** The data range holds every data value (only rdfs:Literal and what is built from it are known to). */
  topRange(r: DataRange): boolean {
    switch (r.kind) {
      case 'Datatype':
        return r.iri === RDFS_LITERAL;
      case 'DataUnionOf':
        return r.operands.some((o) => this.topRange(o));
      case 'DataIntersectionOf':
        return r.operands.every((o) => this.topRange(o));
      case 'DataComplementOf':
        return this.emptyRange(r.operand);
      case 'DataOneOf':
      case 'DatatypeRestriction':
        return false;
      default:
        return unreachable(r);
    }
  }

  /** The data range holds no value. */
  emptyRange(r: DataRange): boolean {
    switch (r.kind) {
      case 'DataOneOf':
        return r.literals.length === 0;
      case 'DataComplementOf':
        return this.topRange(r.operand);
      case 'DataUnionOf':
        return r.operands.every((o) => this.emptyRange(o));
      case 'DataIntersectionOf':
        return r.operands.some((o) => this.emptyRange(o));
      case 'Datatype':
      case 'DatatypeRestriction':
        return false;
      default:
        return unreachable(r);
    }
  }

  /** The data range holds some value: built-in datatypes and non-empty enumerations do. */
  private nonEmptyRange(r: DataRange): boolean {
    switch (r.kind) {
      case 'Datatype':
        return BUILT_IN_DATATYPES.has(r.iri);
      case 'DataOneOf':
        return r.literals.length > 0;
      case 'DataUnionOf':
        return r.operands.some((o) => this.nonEmptyRange(o));
      case 'DataIntersectionOf':
      case 'DataComplementOf':
      case 'DatatypeRestriction':
        return this.topRange(r);
      default:
        return unreachable(r);
    }
  }

  /** A rule body atom that no binding satisfies makes the rule hold vacuously. */
  private unsatisfiableAtom(a: Atom): boolean {
    switch (a.kind) {
      case 'ClassAtom':
        return this.bottom(a.cls);
      case 'DataRangeAtom':
        return this.emptyRange(a.range);
      case 'ObjectPropertyAtom':
        return this.objectProperty(a.property) === 'empty';
      case 'DataPropertyAtom':
        return this.dataProperty(a.property) === 'empty';
      case 'BuiltInAtom':
      case 'SameIndividualAtom':
      case 'DifferentIndividualsAtom':
        return false;
      default:
        return unreachable(a);
    }
  }

  /** A rule head atom that every binding satisfies. */
  private validAtom(a: Atom): boolean {
    switch (a.kind) {
      case 'ClassAtom':
        return this.top(a.cls);
      case 'DataRangeAtom':
        return this.topRange(a.range);
      case 'ObjectPropertyAtom':
        return this.objectProperty(a.property) === 'full';
      case 'DataPropertyAtom':
        return this.dataProperty(a.property) === 'full';
      case 'BuiltInAtom':
      case 'SameIndividualAtom':
      case 'DifferentIndividualsAtom':
        return false;
      default:
        return unreachable(a);
    }
  }

  private allSame(extents: readonly Extent[]): boolean {
    return extents.every((e) => e === 'empty') || extents.every((e) => e === 'full');
  }

  /** Whether the axiom is local with respect to Σ. Declarations and annotation axioms always are. */
  local(a: Axiom): boolean {
    switch (a.kind) {
      case 'Declaration':
      case 'AnnotationAssertion':
      case 'SubAnnotationPropertyOf':
      case 'AnnotationPropertyDomain':
      case 'AnnotationPropertyRange':
        return true;
      case 'SubClassOf':
        return this.bottom(a.sub) || this.top(a.sup);
      case 'EquivalentClasses':
        return a.classes.every((c) => this.bottom(c)) || a.classes.every((c) => this.top(c));
      case 'DisjointClasses':
        return atMostOne(a.classes, (c) => !this.bottom(c));
      case 'DisjointUnion':
        // A ≡ C1 ⊔ … ⊔ Cn with the Ci pairwise disjoint
        return (
          atMostOne(a.classes, (c) => !this.bottom(c)) &&
          ((this.bottom(a.cls) && a.classes.every((c) => this.bottom(c))) || (this.top(a.cls) && a.classes.some((c) => this.top(c))))
        );
      case 'SubObjectPropertyOf':
        return this.objectProperty(a.sub) === 'empty' || this.objectProperty(a.sup) === 'full';
      case 'SubPropertyChainOf':
        return a.chain.some((p) => this.objectProperty(p) === 'empty') || this.objectProperty(a.sup) === 'full';
      case 'EquivalentObjectProperties':
        return this.allSame(a.properties.map((p) => this.objectProperty(p)));
      case 'DisjointObjectProperties':
        return atMostOne(a.properties, (p) => this.objectProperty(p) !== 'empty');
      case 'InverseObjectProperties':
        return this.allSame([this.objectProperty(a.first), this.objectProperty(a.second)]);
      case 'ObjectPropertyDomain':
        return this.objectProperty(a.property) === 'empty' || this.top(a.domain);
      case 'ObjectPropertyRange':
        return this.objectProperty(a.property) === 'empty' || this.top(a.range);
      case 'FunctionalObjectProperty':
      case 'InverseFunctionalObjectProperty':
      case 'AsymmetricObjectProperty':
      case 'IrreflexiveObjectProperty':
        return this.objectProperty(a.property) === 'empty';
      case 'ReflexiveObjectProperty':
        return this.objectProperty(a.property) === 'full';
      case 'SymmetricObjectProperty':
      case 'TransitiveObjectProperty':
        return this.objectProperty(a.property) !== 'free';
      case 'SubDataPropertyOf':
        return this.dataProperty(a.sub) === 'empty' || this.dataProperty(a.sup) === 'full';
      case 'EquivalentDataProperties':
        return this.allSame(a.properties.map((p) => this.dataProperty(p)));
      case 'DisjointDataProperties':
        return atMostOne(a.properties, (p) => this.dataProperty(p) !== 'empty');
      case 'DataPropertyDomain':
        return this.dataProperty(a.property) === 'empty' || this.top(a.domain);
      case 'DataPropertyRange':
        return this.dataProperty(a.property) === 'empty' || this.topRange(a.range);
      case 'FunctionalDataProperty':
        return this.dataProperty(a.property) === 'empty';
      // naming a datatype outside Σ constrains nothing Σ can see
      case 'DatatypeDefinition':
        return !this.sig.has(a.datatype);
      case 'HasKey':
        return (
          this.bottom(a.cls) ||
          a.objectProperties.some((p) => this.objectProperty(p) === 'empty') ||
          a.dataProperties.some((p) => this.dataProperty(p) === 'empty')
        );
      case 'SameIndividual':
      case 'DifferentIndividuals':
        return false;
      case 'ClassAssertion':
        return this.top(a.cls);
      case 'ObjectPropertyAssertion':
        return this.objectProperty(a.property) === 'full';
      case 'NegativeObjectPropertyAssertion':
        return this.objectProperty(a.property) === 'empty';
      case 'DataPropertyAssertion':
        return this.dataProperty(a.property) === 'full';
      case 'NegativeDataPropertyAssertion':
        return this.dataProperty(a.property) === 'empty';
      case 'DLSafeRule':
        return a.body.some((x) => this.unsatisfiableAtom(x)) || (a.head.length > 0 && a.head.every((x) => this.validAtom(x)));
      default:
        return unreachable(a);
    }
  }
}

function atMostOne<T>(xs: readonly T[], test: (x: T) => boolean): boolean {
  let n = 0;
  for (const x of xs) if (test(x) && ++n > 1) return false;
  return true;
}

/** Whether `a` is `kind`-local with respect to `sig`. */
export function isLocal(a: Axiom, kind: LocalityKind, sig: Signature): boolean {
  return new Locality(kind, sig).local(a);
}
