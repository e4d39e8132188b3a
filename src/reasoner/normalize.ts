// Normalization and indexing of an axiom set for the EL saturation (the ELK approach).
//
// Every class expression the reasoner needs becomes an interned integer "concept"; nested expressions are
// not flattened into fresh names: each sub-expression is itself a concept (playing the role of the fresh
// name of textbook normalization), indexed by the polarity it occurs with:
//   positive (right of ⊑): decomposed when derived   (C ⊓ D → C, D;  ∃r.C → link to a context for C; ¬C → clash)
//   negative (left of ⊑):  composed when its parts are (C, D → C ⊓ D;  link + C → ∃r.C)
// The normal forms are thus A ⊑ B (told), A1 ⊓ A2 ⊑ B, A ⊑ ∃r.B, ∃r.A ⊑ B, r ⊑ s, r1∘r2 ⊑ s, ranges and ⊥.
// Roles are integers too; chains longer than two are binarized with fresh roles.
// As in ELK 0.6, an axiom (or one direction of an equivalence) with a constructor outside its fragment
// (ObjectAllValuesFrom, cardinalities, inverses, ...) is left out whole; the partially supported ones
// (ObjectUnionOf and ObjectOneOf on the right, ObjectComplementOf on the left) are kept as opaque concepts,
// which is sound. Either way the axiom is recorded as unsupported, so the result is known to be possibly
// incomplete. Matching ELK's choice exactly is what lets the corpus taxonomies be compared line for line.

import type {
  Axiom,
  ClassExpression,
  DataProperty,
  DataRange,
  Individual,
  Literal,
  ObjectPropertyExpression,
  ObjectProperty,
} from '../model/terms.js';
import { signature } from '../model/walk.js';
import {
  OWL,
  OWL_NOTHING,
  OWL_THING,
  OWL_BOTTOM_DATA_PROPERTY,
  OWL_BOTTOM_OBJECT_PROPERTY,
  OWL_TOP_DATA_PROPERTY,
  OWL_TOP_OBJECT_PROPERTY,
  RDF_LANG_STRING,
  RDFS_LITERAL,
  XSD,
  XSD_STRING,
} from '../model/vocab.js';
import { unreachable } from '../util/unreachable.js';
import { otherKinds, ANY_AXIOM } from '../model/terms.js';

export const THING = 0;
export const NOTHING = 1;

export const enum Kind {
  Atom,
  Nominal,
  Conj,
  Exist,
  Compl,
  Self,
  Data,
  Union,
  Opaque,
}
export const POS = 1;
export const NEG = 2;

/** What changed in the index since the last saturation: concepts whose rules grew, or roles (forcing a restart). */
export interface IndexDelta {
  readonly concepts: Set<number>;
  rolesChanged: boolean;
}

/** What removing axioms changed: the concepts whose rules lost entries, or that a rebuild is needed. */
export interface RemovalDelta {
  readonly concepts: Set<number>;
  readonly rebuild: boolean;
}

/**
 * The axiom kinds whose index entries (told subsumptions and disjointness groups) can be taken back one by
 * one; removing any other kind (role and data axioms change precomputed tables) needs a rebuild.
 */
const RETRACTABLE: ReadonlySet<Axiom['kind']> = new Set<Axiom['kind']>([
  'Declaration',
  'SubClassOf',
  'EquivalentClasses',
  'DisjointClasses',
  'DisjointUnion',
  'ClassAssertion',
  'ObjectPropertyDomain',
  'SameIndividual',
  'DifferentIndividuals',
  'AnnotationAssertion',
]);

interface DataInfo {
  readonly property: DataProperty;
  readonly value: Literal | null;
  readonly range: DataRange | null;
}

const NUMERIC_PARENT: Readonly<Record<string, string>> = {
  byte: 'short',
  short: 'int',
  int: 'long',
  long: 'integer',
  unsignedByte: 'unsignedShort',
  unsignedShort: 'unsignedInt',
  unsignedInt: 'unsignedLong',
  unsignedLong: 'nonNegativeInteger',
  positiveInteger: 'nonNegativeInteger',
  nonNegativeInteger: 'integer',
  negativeInteger: 'nonPositiveInteger',
  nonPositiveInteger: 'integer',
  integer: 'decimal',
};

/** Whether datatype `sub` is `sup` or derived from it in the XSD / OWL 2 numeric hierarchy. */
function datatypeBelow(sub: string, sup: string): boolean {
  if (sub === sup || sup === RDFS_LITERAL) return true;
  let cur = sub;
  while (cur.startsWith(XSD)) {
    const parent = NUMERIC_PARENT[cur.slice(XSD.length)];
    if (parent === undefined) break;
    cur = XSD + parent;
    if (cur === sup) return true;
  }
  if (cur === XSD + 'decimal') return sup === OWL + 'rational' || sup === OWL + 'real';
  return false;
}

/** Ranges of the EL profile that the data entailment below understands: datatypes and literal enumerations. */
function simpleRange(r: DataRange): boolean {
  return r.kind === 'Datatype' || r.kind === 'DataOneOf';
}

/**
 * Literals whose identity is their value: strings, with or without a language tag. Other values are
 * compared by lexical form and datatype, which misses equal values written differently, ill-typed forms
 * (an inconsistency) and membership in a narrower datatype, so an answer that uses them may be incomplete.
 */
function exactValue(v: Literal): boolean {
  return v.datatype === XSD_STRING || v.datatype === RDF_LANG_STRING;
}

function valueIn(v: Literal, r: DataRange): boolean {
  if (r.kind === 'Datatype') return datatypeBelow(v.datatype, r.iri);
  if (r.kind === 'DataOneOf') return r.literals.includes(v);
  return false;
}

function rangeBelow(a: DataRange, b: DataRange): boolean {
  if (a === b) return true;
  if (b.kind === 'Datatype' && b.iri === RDFS_LITERAL) return true;
  if (a.kind === 'Datatype' && b.kind === 'Datatype') return datatypeBelow(a.iri, b.iri);
  if (a.kind === 'DataOneOf') return a.literals.every((l) => valueIn(l, b));
  return false;
}

const isInverse = (p: ObjectPropertyExpression) => p.kind === 'ObjectInverseOf';

/**
 * Whether a class expression with polarity `pol` is within what is indexed (ELK 0.6's EL fragment). An
 * axiom with any other expression is left out whole, as ELK does, rather than abstracted: abstracting
 * would be sound but would give more than the EL reasoners agree on.
 */
function supportedConcept(ce: ClassExpression, pol: number): boolean {
  switch (ce.kind) {
    case 'Class':
    case 'DataHasValue':
      return true;
    case 'ObjectIntersectionOf':
      return ce.operands.every((o) => supportedConcept(o, pol));
    case 'ObjectMinCardinality':
      return ce.cardinality === 1 && supportedExistential(ce.property, ce.filler, pol);
    case 'ObjectSomeValuesFrom':
      return supportedExistential(ce.property, ce.filler, pol);
    case 'ObjectHasValue':
    case 'ObjectHasSelf':
      return !isInverse(ce.property);
    case 'ObjectOneOf':
      return true;
    case 'ObjectUnionOf':
      return ce.operands.every((o) => supportedConcept(o, ce.operands.length === 1 ? pol : NEG));
    case 'ObjectComplementOf':
      return supportedConcept(ce.operand, NEG);
    case 'DataSomeValuesFrom':
      return simpleRange(ce.filler);
    case 'ObjectMaxCardinality':
    case 'ObjectExactCardinality':
    case 'DataMinCardinality':
    case 'DataMaxCardinality':
    case 'DataExactCardinality':
    case 'ObjectAllValuesFrom':
    case 'DataAllValuesFrom':
      return false;
    default:
      return unreachable(ce);
  }
}

function supportedExistential(p: ObjectPropertyExpression, filler: ClassExpression, pol: number): boolean {
  return !isInverse(p) && ((filler.kind === 'ObjectOneOf' && filler.individuals.length === 1) || supportedConcept(filler, pol));
}

function supportedAxiom(ax: Axiom): boolean {
  switch (ax.kind) {
    case 'DisjointClasses':
      return ax.classes.every((c) => supportedConcept(c, NEG));
    case 'DisjointUnion':
      return supportedConcept(ax.cls, NEG) && ax.classes.every((c) => supportedConcept(c, NEG));
    case 'SubObjectPropertyOf':
      return !isInverse(ax.sub) && !isInverse(ax.sup);
    case 'EquivalentObjectProperties':
      return !ax.properties.some(isInverse);
    case 'SubPropertyChainOf':
      return !isInverse(ax.sup) && !ax.chain.some(isInverse);
    case 'TransitiveObjectProperty':
    case 'ReflexiveObjectProperty':
    case 'ObjectPropertyAssertion':
      return !isInverse(ax.property);
    case 'ObjectPropertyDomain':
      return !isInverse(ax.property) && supportedConcept(ax.domain, POS);
    case 'ObjectPropertyRange':
      return !isInverse(ax.property) && supportedConcept(ax.range, POS);
    case 'ClassAssertion':
      return supportedConcept(ax.cls, POS);
    default:
      otherKinds(ax, ANY_AXIOM);
      return true; // the remaining kinds are handled, or reported, by OntologyIndex.axiom
  }
}

export class OntologyIndex {
  // ---- concepts (parallel arrays indexed by concept id)
  readonly kind: Kind[] = [];
  readonly polarity: number[] = [];
  readonly left: number[] = []; // Conj: first operand; Exist/Self: role; Compl: operand; Nominal/Atom: -1
  readonly right: number[] = []; // Conj: second operand; Exist: filler
  // ---- rules indexed by concept
  // (dense: one entry per concept, undefined when empty, so lookups in the saturation stay in bounds)
  readonly told: (number[] | undefined)[] = [];
  readonly negConj: (number[] | undefined)[] = []; // [other, conj, other, conj, ...]
  readonly negExistByFiller: (number[] | undefined)[] = [];
  readonly complOf: (number[] | undefined)[] = []; // positive ¬C concepts, by C
  readonly disjoint: (number[] | undefined)[] = []; // disjointness groups containing the concept
  readonly topExistByFiller: (number | undefined)[] = []; // negative ∃topObjectProperty.C, by C
  // ---- roles
  readonly roleName: (ObjectProperty | null)[] = [];
  readonly negExistByRole: number[][] = [];
  readonly negSelfByRole: number[][] = [];
  private readonly toldSubRoles: number[][] = []; // direct super-roles, by role
  private readonly chains: number[] = []; // [r1, r2, s, ...]
  private readonly toldRanges: number[][] = [];
  // derived role tables (rebuilt when roles change)
  superRoles: number[][] = [];
  superRoleSet: Set<number>[] = [];
  /** The super-role relation as a bit matrix: row r holds bit s when r ⊑ s (see isSubRole). */
  private supBits = new Uint32Array(0);
  private roleWords = 0;
  ranges: number[][] = [];
  comp: Map<number, Map<number, number[]>> = new Map();
  /** The same table in arrays for the saturation's inner loop: compOf[r1][r2] = the roles s of r1∘r2 ⊑ s. */
  compOf: ((number[] | undefined)[] | undefined)[] = [];
  /** By second role r2: the first roles r1 with r1∘r2 ⊑ s for some s. */
  firstRoles: (number[] | undefined)[] = [];
  /**
   * By role r: a transitive role t (t∘t ⊑ t) with r∘t ⊑ r, or -1. A link x -r-> z derived from x -r-> y -t-> z
   * is "absorbed": the saturation need not compose it with t-links again (see Saturation.addLink).
   */
  absorbing: Int32Array = new Int32Array(0);
  bottomRole: Uint8Array = new Uint8Array(0);
  // ---- signature and bookkeeping
  readonly classes = new Map<string, number>();
  /** The IRI of each named class, by id. */
  private readonly classIris = new Map<number, string>();
  readonly individuals = new Map<Individual, number>();
  disjointGroups = 0;
  readonly unsupported: Axiom[] = [];
  private readonly keyed: Map<number, number>[] = Array.from({ length: Kind.Opaque + 1 }, () => new Map());
  private readonly dataKeys = new Map<string, number>();
  private dataDirty = false;
  private readonly byNode = new Map<object, number>();
  private readonly roles = new Map<object, number>();
  private readonly chainRoles = new Map<number, number>();
  private readonly dataInfo = new Map<number, DataInfo>();
  private readonly dataSub = new Map<DataProperty, Set<DataProperty>>();
  private readonly dataAsserted: DataProperty[] = [];
  private readonly dataRestricted: Axiom[] = [];
  private readonly nominalRanges: number[] = []; // [role, nominal, ...] from property assertions
  private axiomUnsupported = false;
  private delta: IndexDelta = { concepts: new Set(), rolesChanged: false };
  /** While axioms are removed: the concepts that lost entries (addTold and disjointness then take back). */
  private retracted: Set<number> | null = null;
  private current: Axiom | null = null;
  private readonly groupOf = new Map<Axiom, number>();
  /**
   * By atom and nominal id: how many times indexed axioms mention the class or individual (up with each
   * axiom added, down when removed).
   */
  private readonly uses: number[] = [];
  private topRole = -1;

  constructor() {
    this.atom(OWL_THING);
    this.atom(OWL_NOTHING);
  }

  /** Adds axioms; returns what changed since the previous call (the saturation uses it to continue). */
  add(axioms: Iterable<Axiom>): IndexDelta {
    for (const ax of axioms) {
      this.current = ax;
      this.axiomUnsupported = !supportedAxiom(ax);
      if (!this.axiomUnsupported) this.axiom(ax);
      if (this.axiomUnsupported) {
        this.unsupported.push(ax);
        this.declareSignature(ax); // classes of a dropped axiom still belong to the taxonomy
      }
    }
    if (this.delta.rolesChanged) this.buildRoleTables();
    this.linkDataRestrictions();
    const d = this.delta;
    this.delta = { concepts: new Set(), rolesChanged: false };
    return d;
  }

  /**
   * Takes back the entries of axioms added earlier, by indexing them again in a mode where each entry added
   * is removed instead (interning finds the same concepts). Concepts and their polarities stay: a concept
   * rule with nothing left to match, or a kept decomposition of a derived concept, is still sound.
   */
  remove(axioms: readonly Axiom[]): RemovalDelta {
    const concepts = new Set<number>();
    for (const ax of axioms) if (!RETRACTABLE.has(ax.kind)) return { concepts, rebuild: true };
    this.retracted = concepts;
    try {
      for (const ax of axioms) {
        this.current = ax;
        this.axiomUnsupported = !supportedAxiom(ax);
        if (!this.axiomUnsupported) this.axiom(ax);
        if (this.axiomUnsupported) {
          const i = this.unsupported.indexOf(ax);
          if (i >= 0) this.unsupported.splice(i, 1);
          this.declareSignature(ax);
        }
      }
    } finally {
      this.retracted = null;
    }
    return { concepts, rebuild: this.delta.rolesChanged };
  }

  private declareSignature(ax: Axiom): void {
    for (const e of signature(ax)) {
      if (e.kind === 'Class') this.atom(e.iri);
      else if (e.kind === 'NamedIndividual') this.nominal(e);
    }
  }

  get conceptCount(): number {
    return this.kind.length;
  }

  /** Whether r ⊑ s in the role closure (both roles known when the role tables were built). */
  isSubRole(r: number, s: number): boolean {
    return (this.supBits[r * this.roleWords + (s >>> 5)]! & (1 << (s & 31))) !== 0;
  }

  /** The context a positive ∃r.C leads to: C, or C ⊓ ranges(r) when r (or a super-role) has ranges. */
  fillerRoot(exist: number): number {
    const f = this.right[exist]!;
    const rs = this.ranges[this.left[exist]!];
    if (rs === undefined || rs.length === 0 || this.kind[f] === Kind.Nominal) return f;
    return this.conjunction([f, ...rs], POS);
  }

  /**
   * DataPropertyRange and FunctionalDataProperty axioms are not reasoned with; they matter (and are reported
   * as unsupported) only when their property, or a sub-property, is used in a data restriction or assertion.
   */
  ignoredDataAxioms(): Axiom[] {
    const used = new Set<DataProperty>(this.dataAsserted);
    for (const info of this.dataInfo.values()) used.add(info.property);
    const reached = new Set<DataProperty>();
    for (const q of used) for (const p of this.dataSuper(q)) reached.add(p);
    return this.dataRestricted.filter((ax) => reached.has((ax as { property: DataProperty }).property));
  }

  // ------------------------------------------------------------------ axioms

  private axiom(ax: Axiom): void {
    switch (ax.kind) {
      case 'Declaration':
        if (ax.entity.kind === 'Class') this.atom(ax.entity.iri);
        else if (ax.entity.kind === 'NamedIndividual') this.nominal(ax.entity);
        return;
      case 'SubClassOf':
        this.subsumption(ax.sub, ax.sup);
        return;
      case 'EquivalentClasses':
        // Both directions between the first class and each other one, each kept or left out alone.
        {
          const [first, ...others] = ax.classes;
          if (first === undefined) return;
          for (const other of others) {
            this.subsumption(first, other);
            this.subsumption(other, first);
          }
        }
        return;
      case 'DisjointClasses':
        this.disjointness(ax.classes.map((c) => this.concept(c, NEG)));
        return;
      case 'DisjointUnion': {
        const a = this.concept(ax.cls, NEG);
        const parts = ax.classes.map((c) => this.concept(c, NEG));
        for (const p of parts) this.addTold(p, a);
        this.axiomUnsupported = true; // A ⊑ C1 ⊔ ... ⊔ Cn is outside EL
        this.disjointness(parts);
        return;
      }
      case 'SubObjectPropertyOf': {
        const r = this.role(ax.sub);
        const s = this.role(ax.sup);
        if (r >= 0 && s >= 0) this.subRole(r, s);
        return;
      }
      case 'EquivalentObjectProperties': {
        const rs = ax.properties.map((p) => this.role(p)).filter((r) => r >= 0);
        for (const [i, r] of rs.entries()) this.subRole(r, rs[(i + 1) % rs.length]!);
        return;
      }
      case 'SubPropertyChainOf':
        this.chain(ax.chain, ax.sup);
        return;
      case 'TransitiveObjectProperty':
        this.chain([ax.property, ax.property], ax.property);
        return;
      case 'ReflexiveObjectProperty': {
        const r = this.role(ax.property);
        if (r >= 0) this.addTold(THING, this.self(r, POS));
        return;
      }
      case 'ObjectPropertyDomain': {
        const r = this.role(ax.property);
        if (r >= 0) this.addTold(this.exist(r, THING, NEG), this.concept(ax.domain, POS));
        return;
      }
      case 'ObjectPropertyRange': {
        const r = this.role(ax.property);
        if (r < 0) return;
        (this.toldRanges[r] ??= []).push(this.concept(ax.range, POS));
        this.delta.rolesChanged = true;
        return;
      }
      case 'ClassAssertion':
        this.addTold(this.nominal(ax.individual), this.concept(ax.cls, POS));
        return;
      case 'ObjectPropertyAssertion': {
        const r = this.role(ax.property);
        if (r < 0) return;
        const a = this.nominal(ax.subject);
        const b = this.nominal(ax.object);
        this.addTold(a, a === b ? this.self(r, POS) : this.exist(r, b, POS));
        this.nominalRanges.push(r, b);
        this.delta.rolesChanged = true; // the object's ranges are applied when role tables are built
        return;
      }
      case 'SameIndividual': {
        const ns = ax.individuals.map((i) => this.nominal(i));
        for (const [i, n] of ns.entries()) this.addTold(n, ns[(i + 1) % ns.length]!);
        return;
      }
      case 'DifferentIndividuals':
        this.disjointness(ax.individuals.map((i) => this.nominal(i)));
        return;
      case 'DataPropertyAssertion':
        this.dataAsserted.push(ax.property);
        this.addTold(this.nominal(ax.subject), this.data(ax.property, ax.value, null, POS));
        return;
      case 'SubDataPropertyOf':
        this.subData(ax.sub, ax.sup);
        return;
      case 'EquivalentDataProperties':
        for (const [i, p] of ax.properties.entries()) this.subData(p, ax.properties[(i + 1) % ax.properties.length]!);
        return;
      case 'DataPropertyRange':
      case 'FunctionalDataProperty':
        this.dataRestricted.push(ax);
        return;
      case 'AnnotationAssertion':
      case 'SubAnnotationPropertyOf':
      case 'AnnotationPropertyDomain':
      case 'AnnotationPropertyRange':
        return;
      default:
        otherKinds(ax, ANY_AXIOM);
        // Property characteristics outside EL, keys, negative assertions, datatype definitions, rules, and
        // DataPropertyDomain, which ELK 0.6 leaves out too (with it, koala's Koala is unsatisfiable, as HermiT finds).
        this.axiomUnsupported = true;
        break;
    }
  }

  /** sub ⊑ sup, leaving out (and reporting) what is outside the indexed fragment. */
  private subsumption(sub: ClassExpression, sup: ClassExpression): void {
    if (!supportedConcept(sub, NEG)) {
      this.axiomUnsupported = true;
      return;
    }
    if (supportedConcept(sup, POS)) this.addTold(this.concept(sub, NEG), this.concept(sup, POS));
    else this.axiomUnsupported = true;
  }

  private addTold(sub: number, sup: number): void {
    if (this.retracted !== null) {
      const list = this.told[sub];
      const i = list === undefined ? -1 : list.indexOf(sup);
      if (i >= 0) list!.splice(i, 1);
      this.retracted.add(sub);
      return;
    }
    (this.told[sub] ??= []).push(sup);
    this.delta.concepts.add(sub);
  }

  private disjointness(members: number[]): void {
    const removing = this.retracted !== null;
    const g = removing ? this.groupOf.get(this.current!)! : this.disjointGroups++;
    if (!removing) this.groupOf.set(this.current!, g);
    const seen = new Set<number>();
    for (const m of members) {
      if (seen.has(m))
        this.addTold(m, NOTHING); // DisjointClasses(A B A): A is disjoint with itself
      else if (removing) {
        seen.add(m);
        const groups = this.disjoint[m]!;
        groups.splice(groups.indexOf(g), 1);
        this.retracted!.add(m);
      } else {
        seen.add(m);
        (this.disjoint[m] ??= []).push(g);
        this.delta.concepts.add(m);
      }
    }
  }

  // ------------------------------------------------------------------ concepts

  private newConcept(k: Kind, l: number, r: number): number {
    const id = this.kind.length;
    this.kind.push(k);
    this.polarity.push(0);
    this.left.push(l);
    this.right.push(r);
    this.told.push(undefined);
    this.negConj.push(undefined);
    this.negExistByFiller.push(undefined);
    this.complOf.push(undefined);
    this.disjoint.push(undefined);
    this.topExistByFiller.push(undefined);
    return id;
  }

  private atom(iri: string): number {
    let id = this.classes.get(iri);
    if (id === undefined) {
      id = this.newConcept(Kind.Atom, -1, -1);
      this.classes.set(iri, id);
      this.classIris.set(id, iri);
    }
    this.uses[id] = (this.uses[id] ?? 0) + (this.retracted === null ? 1 : -1);
    return id;
  }

  /** The IRI of a named class. */
  iriOf(id: number): string {
    return this.classIris.get(id)!;
  }

  /**
   * Whether a named class or individual occurs in no indexed axiom any more (after removals; a class then
   * leaves the taxonomy, an individual is no longer known).
   */
  unused(id: number): boolean {
    return this.uses[id] === 0;
  }

  private nominal(ind: Individual): number {
    let id = this.individuals.get(ind);
    if (id === undefined) {
      id = this.newConcept(Kind.Nominal, -1, -1);
      this.individuals.set(ind, id);
    }
    this.uses[id] = (this.uses[id] ?? 0) + (this.retracted === null ? 1 : -1);
    return id;
  }

  /** Records that concept `c` occurs with polarity `pol`, registering its rules the first time. */
  private mark(c: number, pol: number): number {
    // c is an interned concept: it has its entry in every per-concept table
    const added = pol & ~this.polarity[c]!;
    if (added === 0) return c;
    this.polarity[c]! |= added;
    this.delta.concepts.add(c);
    const k = this.kind[c];
    if (added & NEG) {
      if (k === Kind.Conj) {
        const a = this.left[c]!;
        const b = this.right[c]!;
        (this.negConj[a] ??= []).push(b, c);
        (this.negConj[b] ??= []).push(a, c);
        this.delta.concepts.add(a).add(b);
      } else if (k === Kind.Exist) {
        const r = this.left[c]!;
        const f = this.right[c]!;
        (this.negExistByFiller[f] ??= []).push(c);
        (this.negExistByRole[r] ??= []).push(c);
        if (r === this.topRole) {
          this.topExistByFiller[f] = c;
          this.addTold(THING, this.self(r, POS)); // owl:topObjectProperty is reflexive
        }
        this.delta.concepts.add(f);
      } else if (k === Kind.Self) {
        (this.negSelfByRole[this.left[c]!] ??= []).push(c);
        this.delta.rolesChanged = true;
      }
    }
    if (added & POS && k === Kind.Compl) {
      const d = this.left[c]!;
      (this.complOf[d] ??= []).push(c);
      this.delta.concepts.add(d);
    }
    return c;
  }

  /** The concept of kind k over (l, r), interned by its integer key in the map of that kind. */
  private keyedConcept(k: Kind, l: number, r: number, pol: number): number {
    const table = this.keyed[k]!; // one map per kind
    const key = l * 0x4000000 + r + 1;
    let id = table.get(key);
    if (id === undefined) {
      id = this.newConcept(k, l, r);
      table.set(key, id);
    }
    return this.mark(id, pol);
  }

  private exist(role: number, filler: number, pol: number): number {
    this.mark(filler, pol);
    return this.keyedConcept(Kind.Exist, role, filler, pol);
  }

  private self(role: number, pol: number): number {
    return this.keyedConcept(Kind.Self, role, -1, pol);
  }

  private conj2(a: number, b: number, pol: number): number {
    return a < b ? this.keyedConcept(Kind.Conj, a, b, pol) : this.keyedConcept(Kind.Conj, b, a, pol);
  }

  /** A binarized conjunction of concept ids (duplicates removed, canonical order). */
  conjunction(ops: readonly number[], pol: number): number {
    const [first, ...rest] = [...new Set(ops)].sort((a, b) => a - b);
    if (first === undefined) return this.mark(THING, pol); // the empty conjunction
    let acc = this.mark(first, pol);
    for (const op of rest) acc = this.conj2(acc, this.mark(op, pol), pol);
    return acc;
  }

  private opaque(ce: object, k: Kind, pol: number, unsupported: boolean): number {
    if (unsupported) this.axiomUnsupported = true;
    let id = this.byNode.get(ce);
    if (id === undefined) {
      id = this.newConcept(k, -1, -1);
      this.byNode.set(ce, id);
    }
    return this.mark(id, pol);
  }

  /** A data restriction as an opaque concept: DataHasValue(p v), or DataSomeValuesFrom(p range) (null: rdfs:Literal). */
  private data(p: DataProperty, value: Literal | null, range: DataRange | null, pol: number): number {
    // owl:topDataProperty relates every individual to every literal: a restriction on it is not an opaque
    // concept, and entailing it is not done
    if (p.iri === OWL_TOP_DATA_PROPERTY) this.axiomUnsupported = true;
    if ((value !== null && !exactValue(value)) || (range?.kind === 'DataOneOf' && !range.literals.every(exactValue)))
      this.axiomUnsupported = true;
    const key = p.id + (value !== null ? '|v' + value.id : range !== null ? '|r' + range.id : '|*');
    let id = this.dataKeys.get(key);
    if (id === undefined) {
      id = this.newConcept(Kind.Data, -1, -1);
      this.dataKeys.set(key, id);
      this.dataInfo.set(id, { property: p, value, range });
    }
    if (pol & ~this.polarity[id]!) this.dataDirty = true;
    return this.mark(id, pol);
  }

  private someValuesFrom(p: ObjectPropertyExpression, filler: ClassExpression, ce: ClassExpression, pol: number): number {
    const r = this.role(p);
    if (r < 0) return this.opaque(ce, Kind.Opaque, pol, true);
    const f =
      filler.kind === 'ObjectOneOf' && filler.individuals.length === 1 ? this.nominal(filler.individuals[0]!) : this.concept(filler, pol);
    return this.exist(r, f, pol);
  }

  /** The concept of a class expression occurring with polarity `pol` (POS, NEG or both). */
  concept(ce: ClassExpression, pol: number): number {
    switch (ce.kind) {
      case 'Class':
        return this.mark(this.atom(ce.iri), pol);
      case 'ObjectIntersectionOf':
        return this.conjunction(
          ce.operands.map((o) => this.concept(o, pol)),
          pol,
        );
      case 'ObjectSomeValuesFrom':
        return this.someValuesFrom(ce.property, ce.filler, ce, pol);
      case 'ObjectHasValue': {
        const r = this.role(ce.property);
        if (r < 0) return this.opaque(ce, Kind.Opaque, pol, true);
        return this.exist(r, this.nominal(ce.individual), pol);
      }
      case 'ObjectOneOf': {
        // {a} ⊑ C is EL; C ⊑ {a} (outside an existential filler) needs nominal merging, which is not done.
        if (pol & POS) this.axiomUnsupported = true;
        const ns = ce.individuals.map((i) => this.mark(this.nominal(i), pol));
        const [only] = ns;
        if (ns.length === 1 && only !== undefined) return only;
        const u = this.opaque(ce, Kind.Union, pol, false);
        for (const n of ns) this.addTold(n, u);
        return u;
      }
      case 'ObjectUnionOf': {
        const [only] = ce.operands;
        if (ce.operands.length === 1 && only !== undefined) return this.concept(only, pol);
        if (pol & POS) this.axiomUnsupported = true;
        const u = this.opaque(ce, Kind.Union, pol, false);
        for (const o of ce.operands) this.addTold(this.concept(o, NEG), u);
        return u;
      }
      case 'ObjectComplementOf': {
        if (pol & NEG) this.axiomUnsupported = true;
        const d = this.concept(ce.operand, NEG);
        return this.keyedConcept(Kind.Compl, d, -1, pol);
      }
      case 'ObjectHasSelf': {
        const r = this.role(ce.property);
        if (r < 0) return this.opaque(ce, Kind.Opaque, pol, true);
        return this.self(r, pol);
      }
      case 'ObjectMinCardinality':
        if (ce.cardinality === 1) return this.someValuesFrom(ce.property, ce.filler, ce, pol);
        return this.opaque(ce, Kind.Opaque, pol, true);
      case 'DataHasValue':
        return this.data(ce.property, ce.value, null, pol);
      case 'DataSomeValuesFrom':
        if (!simpleRange(ce.filler)) return this.opaque(ce, Kind.Opaque, pol, true);
        return this.data(ce.property, null, ce.filler.kind === 'Datatype' && ce.filler.iri === RDFS_LITERAL ? null : ce.filler, pol);
      case 'ObjectMaxCardinality':
      case 'ObjectExactCardinality':
      case 'DataMinCardinality':
      case 'DataMaxCardinality':
      case 'DataExactCardinality':
      case 'ObjectAllValuesFrom':
      case 'DataAllValuesFrom':
        return this.opaque(ce, Kind.Opaque, pol, true);
      default:
        return unreachable(ce);
    }
  }

  // ------------------------------------------------------------------ roles

  /** The role of a property expression, or -1 for an inverse (unsupported: the caller drops or abstracts it). */
  role(p: ObjectPropertyExpression): number {
    if (p.kind === 'ObjectInverseOf') {
      this.axiomUnsupported = true;
      return -1;
    }
    let id = this.roles.get(p);
    if (id === undefined) {
      id = this.newRole(p);
      this.roles.set(p, id);
      if (p.iri === OWL_TOP_OBJECT_PROPERTY) this.topRole = id;
    }
    return id;
  }

  private newRole(p: ObjectProperty | null): number {
    this.roleName.push(p);
    this.delta.rolesChanged = true;
    return this.roleName.length - 1;
  }

  private subRole(r: number, s: number): void {
    (this.toldSubRoles[r] ??= []).push(s);
    this.delta.rolesChanged = true;
  }

  private chain(chain: readonly ObjectPropertyExpression[], sup: ObjectPropertyExpression): void {
    const s = this.role(sup);
    const rs = chain.map((p) => this.role(p));
    const first = rs[0];
    const last = rs.pop();
    if (s < 0 || first === undefined || last === undefined || rs.some((r) => r < 0) || last < 0) return;
    if (rs.length === 0) {
      this.subRole(last, s);
      return;
    }
    // r1∘r2∘...∘rn ⊑ s  becomes  r1∘r2 ⊑ u1, u1∘r3 ⊑ u2, ..., u(n-2)∘rn ⊑ s with fresh roles shared by prefix.
    let acc = first;
    for (const r of rs.slice(1)) {
      const key = acc * 0x4000000 + r;
      let u = this.chainRoles.get(key);
      if (u === undefined) {
        u = this.newRole(null);
        this.chainRoles.set(key, u);
        this.chains.push(acc, r, u);
      }
      acc = u;
    }
    this.chains.push(acc, last, s);
    this.delta.rolesChanged = true;
  }

  /** Role closure, composition table (closed under sub-roles), ranges and bottom roles. */
  private buildRoleTables(): void {
    const n = this.roleName.length;
    const bottom = this.roles.get(this.bottomProperty()) ?? -1;
    this.superRoles = [];
    this.superRoleSet = [];
    for (let r = 0; r < n; r++) {
      const seen = new Set<number>([r]);
      const stack = [r];
      while (stack.length)
        for (const s of this.toldSubRoles[stack.pop()!] ?? [])
          if (!seen.has(s)) {
            seen.add(s);
            stack.push(s);
          }
      if (this.topRole >= 0) seen.add(this.topRole);
      this.superRoleSet.push(seen);
      this.superRoles.push([...seen]);
    }
    // the tables below have an entry per role id (0 .. n-1), and chains holds (r1, r2, s) triples of them
    this.roleWords = (n + 31) >>> 5;
    this.supBits = new Uint32Array(n * this.roleWords);
    const subRoles: number[][] = Array.from({ length: n }, () => []);
    for (const [r, sups] of this.superRoles.entries()) {
      for (const s of sups) {
        this.supBits[r * this.roleWords + (s >>> 5)]! |= 1 << (s & 31);
        subRoles[s]!.push(r);
      }
    }
    // Only compositions into roles that can matter are kept: roles with negative existentials (or their
    // sub-roles), roles that compose further, and roles below owl:bottomObjectProperty.
    const base = new Uint8Array(n);
    for (let r = 0; r < n; r++) if (this.negExistByRole[r] !== undefined || r === bottom) base[r] = 1;
    const chains = this.chains;
    for (let i = 0; i < chains.length; i += 3) base[chains[i]!] = base[chains[i + 1]!] = 1;
    const useful = this.superRoles.map((sups) => sups.some((s) => base[s] === 1));
    this.comp = new Map();
    this.firstRoles = [];
    for (let i = 0; i < chains.length; i += 3) {
      const s = chains[i + 2]!;
      if (!useful[s]) continue;
      for (const r1 of subRoles[chains[i]!]!) {
        let m = this.comp.get(r1);
        if (m === undefined) this.comp.set(r1, (m = new Map()));
        for (const r2 of subRoles[chains[i + 1]!]!) {
          const list = m.get(r2);
          if (list === undefined) {
            m.set(r2, [s]);
            (this.firstRoles[r2] ??= []).push(r1);
          } else if (!list.includes(s)) list.push(s);
        }
      }
    }
    for (const m of this.comp.values()) for (const [r2, sups] of m) m.set(r2, this.mostSpecific(sups));
    this.compOf = [];
    for (const [r1, m] of this.comp) {
      const row: (number[] | undefined)[] = (this.compOf[r1] = new Array(n).fill(undefined));
      for (const [r2, sups] of m) row[r2] = sups;
    }
    while (this.compOf.length < n) this.compOf.push(undefined);
    this.absorbing = this.absorbingRoles(n);
    this.ranges = [];
    this.bottomRole = new Uint8Array(n);
    for (const [r, sups] of this.superRoles.entries()) {
      const rs = new Set<number>();
      for (const s of sups) for (const c of this.toldRanges[s] ?? []) rs.add(c);
      this.ranges.push([...rs]);
      if (bottom >= 0 && sups.includes(bottom)) this.bottomRole[r] = 1;
    }
    // (role, nominal) pairs
    const nominalRanges = this.nominalRanges;
    for (let i = 0; i < nominalRanges.length; i += 2) {
      const b = nominalRanges[i + 1]!;
      for (const c of this.ranges[nominalRanges[i]!]!) if (!(this.told[b] ?? []).includes(c)) this.addTold(b, c);
    }
    // A positive ObjectHasSelf(r) (reflexivity included) puts its subject in the ranges of r.
    for (const [c, k] of this.kind.entries()) {
      if (k !== Kind.Self || (this.polarity[c]! & POS) === 0) continue;
      for (const d of this.ranges[this.left[c]!]!) if (!(this.told[c] ?? []).includes(d)) this.addTold(c, d);
    }
  }

  /** The table `absorbing` (a role is its own absorbing role when transitive). */
  private absorbingRoles(n: number): Int32Array {
    const keeps = (r: number, t: number) => this.comp.get(r)?.get(t)?.includes(r) === true;
    const out = new Int32Array(n).fill(-1);
    for (let r = 0; r < n; r++) {
      if (keeps(r, r)) out[r] = r;
      else
        for (const t of this.comp.get(r)?.keys() ?? [])
          if (keeps(t, t) && keeps(r, t)) {
            out[r] = t;
            break;
          }
    }
    return out;
  }

  /**
   * The roles of a list that have no other member below them (one of each set of equivalent roles): a link
   * with role s1 ⊑ s2 does all a link with s2 would (rules look super-roles up, and the composition table is
   * closed under sub-roles), so composing into both would only derive redundant links.
   */
  private mostSpecific(roles: number[]): number[] {
    const sups = this.superRoleSet;
    return roles.filter((s, i) => !roles.some((t, j) => j !== i && sups[t]!.has(s) && (!sups[s]!.has(t) || j < i)));
  }

  private bottomProperty(): object {
    for (const p of this.roles.keys()) if ((p as ObjectProperty).iri === OWL_BOTTOM_OBJECT_PROPERTY) return p;
    return {};
  }

  // ------------------------------------------------------------------ data properties

  private subData(sub: DataProperty, sup: DataProperty): void {
    let s = this.dataSub.get(sub);
    if (s === undefined) this.dataSub.set(sub, (s = new Set()));
    s.add(sup);
    this.dataDirty = true;
  }

  private dataSuper(p: DataProperty): Set<DataProperty> {
    const seen = new Set<DataProperty>([p]);
    const stack = [p];
    while (stack.length)
      for (const q of this.dataSub.get(stack.pop()!) ?? [])
        if (!seen.has(q)) {
          seen.add(q);
          stack.push(q);
        }
    return seen;
  }

  /**
   * Told subsumptions between data restrictions (treated as opaque concepts): value ⊑ range, sub-property ⊑
   * super, and ⊥ for a restriction on owl:bottomDataProperty or a sub-property of it (it relates nothing).
   */
  private linkDataRestrictions(): void {
    if (!this.dataDirty) return;
    this.dataDirty = false;
    // data restrictions are interned concepts, with a polarity each
    const negs = [...this.dataInfo.keys()].filter((c) => this.polarity[c]! & NEG);
    for (const [x, ix] of this.dataInfo) {
      if ((this.polarity[x]! & POS) === 0) continue;
      const sup = this.dataSuper(ix.property);
      if ([...sup].some((q) => q.iri === OWL_BOTTOM_DATA_PROPERTY) && !(this.told[x] ?? []).includes(NOTHING)) this.addTold(x, NOTHING);
      for (const y of negs) {
        const iy = this.dataInfo.get(y)!;
        if (x === y || !sup.has(iy.property) || (this.told[x] ?? []).includes(y)) continue;
        if (this.dataEntails(ix, iy)) this.addTold(x, y);
      }
    }
  }

  private dataEntails(x: DataInfo, y: DataInfo): boolean {
    if (y.value !== null) return x.value === y.value;
    if (y.range === null) return true; // DataSomeValuesFrom(q rdfs:Literal)
    if (x.value !== null) return valueIn(x.value, y.range);
    return x.range !== null && rangeBelow(x.range, y.range);
  }
}
