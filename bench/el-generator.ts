// Generated EL ontologies of the synthetic family of ../shared/reasoning/synthetic (a SNOMED-like shape):
// a taxonomy in five regions (findings/procedures, body structures, substances, organisms, qualifiers),
// existential restrictions from the first region into the others over a role hierarchy, definitions
// (EquivalentClasses of a parent and one or two existentials), role groups, transitive partOf / derivedFrom
// with chains into the site roles, and a few unsatisfiable classes (below two disjoint classes, and reached
// through an existential). Deterministic for a given size and seed.

import {
  cls,
  declaration,
  disjointClasses,
  equivalentClasses,
  objectIntersectionOf,
  objectProperty,
  objectPropertyCharacteristic,
  objectSomeValuesFrom,
  subClassOf,
  subObjectPropertyOf,
  subPropertyChainOf,
  type Axiom,
  type Class,
  type ObjectProperty,
} from '../src/model/terms.js';

export const SYN_NS = 'http://example.org/syn-el#';

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
/** The entry at i of a list a generator built (an index past its end is a bug of the generator). */
export function entry<T>(list: readonly T[], i: number): T {
  const e = list[i];
  if (e === undefined) throw new Error(`generator: no entry ${i} in a list of ${list.length}`);
  return e;
}

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROLE_HIERARCHY: readonly (readonly [string, string])[] = [
  ['site', 'attribute'],
  ['findingSite', 'site'],
  ['procedureSite', 'site'],
  ['directSite', 'procedureSite'],
  ['regionSite', 'attribute'],
  ['causativeAgent', 'attribute'],
  ['substanceAgent', 'causativeAgent'],
  ['organismAgent', 'causativeAgent'],
  ['hasQualifier', 'attribute'],
  ['qualifier0', 'hasQualifier'],
  ['qualifier1', 'hasQualifier'],
];
const CHAINS: readonly (readonly [string, string, string])[] = [
  ['site', 'partOf', 'site'],
  ['findingSite', 'partOf', 'findingSite'],
  ['procedureSite', 'partOf', 'procedureSite'],
  ['findingSite', 'partOf', 'regionSite'],
  ['substanceAgent', 'derivedFrom', 'substanceAgent'],
];

interface Region {
  readonly start: number;
  readonly end: number;
}

/** The axioms of a generated ontology with `classes` classes (plus four per 5,000, two of them unsatisfiable). */
export function generateElOntology(classes: number, seed = 1): Axiom[] {
  const rnd = random(seed);
  const pick = (r: Region) => r.start + Math.floor(rnd() * (r.end - r.start));
  const at = (f: number) => Math.floor(classes * f);
  const findings: Region = { start: 0, end: at(0.55) };
  const body: Region = { start: at(0.55), end: at(0.75) };
  const bodyCore: Region = { start: at(0.55), end: at(0.57) };
  const substances: Region = { start: at(0.75), end: at(0.85) };
  const substanceCore: Region = { start: at(0.75), end: at(0.76) };
  const organisms: Region = { start: at(0.85), end: at(0.93) };
  const qualifiers: Region = { start: at(0.93), end: classes };
  const regions = [findings, body, substances, organisms, qualifiers];

  const out: Axiom[] = [];
  const extra = 4 * Math.max(1, Math.floor(classes / 5000));
  const all = Array.from({ length: classes + extra }, (_, i) => cls(`${SYN_NS}C${i}`));
  for (const k of all) out.push(declaration(k));
  const c = (i: number): Class => entry(all, i);
  const roles = new Map<string, ObjectProperty>();
  const role = (name: string) => {
    let p = roles.get(name);
    if (p === undefined) roles.set(name, (p = objectProperty(SYN_NS + name)));
    return p;
  };
  for (const name of ['partOf', 'derivedFrom', 'roleGroup']) out.push(declaration(role(name)));
  for (const [sub, sup] of ROLE_HIERARCHY) out.push(declaration(role(sub)), subObjectPropertyOf(role(sub), role(sup)));
  for (const name of ['partOf', 'derivedFrom']) out.push(objectPropertyCharacteristic('TransitiveObjectProperty', role(name)));
  for (const [r1, r2, s] of CHAINS) out.push(subPropertyChainOf([role(r1), role(r2)], role(s)));

  // Roles from the findings region, with the region of their fillers.
  const attributes: readonly (readonly [string, Region])[] = [
    ['site', body],
    ['findingSite', body],
    ['procedureSite', body],
    ['directSite', body],
    ['causativeAgent', { start: substances.start, end: organisms.end }],
    ['substanceAgent', substances],
    ['organismAgent', organisms],
    ['hasQualifier', qualifiers],
    ['qualifier0', qualifiers],
    ['qualifier1', qualifiers],
  ];
  const definitionRoles: readonly (readonly [string, Region])[] = [...attributes, ['attribute', body], ['regionSite', body]];
  const some = (roles: readonly (readonly [string, Region])[]) => {
    const [name, region] = entry(roles, Math.floor(rnd() * roles.length));
    return objectSomeValuesFrom(role(name), c(pick(region)));
  };

  for (const region of regions) {
    for (let i = region.start + 1; i < region.end; i++) {
      const parent = c(region.start + Math.floor(rnd() * (i - region.start)));
      const p = rnd();
      if (region === findings) {
        if (p < 0.17) {
          // Definitions are over any class of the region, as in the reference family (not only earlier ones).
          const parts = [c(pick(findings)), some(definitionRoles)];
          if (rnd() < 0.09) parts.push(some(definitionRoles));
          out.push(equivalentClasses([c(i), objectIntersectionOf(parts)]));
          continue;
        }
        out.push(subClassOf(c(i), parent));
        if (rnd() < 0.11) out.push(subClassOf(c(i), c(region.start + Math.floor(rnd() * (i - region.start)))));
        if (p < 0.24)
          out.push(subClassOf(c(i), objectSomeValuesFrom(role('roleGroup'), objectIntersectionOf([some(attributes), some(attributes)]))));
        else if (p < 0.7) out.push(subClassOf(c(i), some(attributes)));
        continue;
      }
      if ((region === body || region === substances) && p < 0.05) {
        const r = region === body ? role('partOf') : role('derivedFrom');
        out.push(
          equivalentClasses([
            c(i),
            objectIntersectionOf([parent, objectSomeValuesFrom(r, c(pick(region === body ? bodyCore : substanceCore)))]),
          ]),
        );
        continue;
      }
      out.push(subClassOf(c(i), parent));
      if (rnd() < 0.07) out.push(subClassOf(c(i), c(region.start + Math.floor(rnd() * (i - region.start)))));
      if (region === body && p < 0.25) out.push(subClassOf(c(i), objectSomeValuesFrom(role('partOf'), c(pick(bodyCore)))));
      if (region === substances && p < 0.12) out.push(subClassOf(c(i), objectSomeValuesFrom(role('derivedFrom'), c(pick(substanceCore)))));
    }
  }

  // Unsatisfiable groups: A ⊑ X, B ⊑ Y, A ⊓ B ⊑ ⊥, C ⊑ A ⊓ B, and D ⊑ ∃roleGroup.C.
  for (let k = classes; k < classes + extra; k += 4) {
    const [a, b, u, d] = [c(k), c(k + 1), c(k + 2), c(k + 3)];
    out.push(subClassOf(a, c(pick(findings))), subClassOf(b, c(pick(findings))), disjointClasses([a, b]));
    out.push(subClassOf(u, a), subClassOf(u, b), subClassOf(d, objectSomeValuesFrom(role('roleGroup'), u)));
  }
  return out;
}
