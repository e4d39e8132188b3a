// Syntactic locality modules on small hand-built ontologies whose ⊥, ⊤ and STAR modules are known.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as t from '../../src/model/terms.js';
import type { Axiom, Entity } from '../../src/model/terms.js';
import { extractModule, logicalModule } from '../../src/model/modules/extract.js';
import { isLocal } from '../../src/model/modules/locality.js';
import { RDFS_LABEL } from '../../src/model/vocab.js';
import { signature } from '../../src/model/walk.js';
import { ModuleExtractor } from '../../src/reasoner/explain/module.js';

const NS = 'http://example.org/m#';
const c = (n: string) => t.cls(NS + n);
const r = (n: string) => t.objectProperty(NS + n);
const d = (n: string) => t.dataProperty(NS + n);

const ax = {
  AsubB: t.subClassOf(c('A'), c('B')),
  BsubC: t.subClassOf(c('B'), c('C')),
  DsubA: t.subClassOf(c('D'), c('A')),
  EsubRF: t.subClassOf(c('E'), t.objectSomeValuesFrom(r('r'), c('F'))),
  domRK: t.objectPropertyDomain(r('r'), c('K')),
  KsubL: t.subClassOf(c('K'), c('L')),
  CsubAllSG: t.subClassOf(c('C'), t.objectAllValuesFrom(r('s'), c('G'))),
};
const logical: Axiom[] = Object.values(ax);

/** Module axioms as the keys of `ax`, sorted, so a failure names what differs. */
function names(axioms: readonly Axiom[]): string[] {
  const byAxiom = new Map<Axiom, string>(Object.entries(ax).map(([k, a]) => [a, k]));
  return axioms.map((a) => byAxiom.get(a) ?? t.axiomTypeName(a)).sort();
}

test('the ⊥-module of a class holds its told superclasses, never its subclasses', () => {
  assert.deepEqual(names(logicalModule(logical, [c('A')], 'BOT')), ['AsubB', 'BsubC']);
});

test('the ⊥-module follows existential fillers, property domains and what they use', () => {
  assert.deepEqual(names(logicalModule(logical, [c('E')], 'BOT')), ['EsubRF', 'KsubL', 'domRK']);
});

test('the ⊤-module of a class holds what uses it: its subclasses', () => {
  assert.deepEqual(names(logicalModule(logical, [c('A')], 'TOP')), ['DsubA']);
  assert.deepEqual(names(logicalModule(logical, [c('A'), c('C')], 'TOP')), ['AsubB', 'BsubC', 'DsubA']);
});

test('the STAR module keeps only what relates the seeds in both directions', () => {
  // A ⊑ B ⊑ C links A and C; D ⊑ A and C's ∀s.G say nothing about {A, C} alone
  assert.deepEqual(names(logicalModule(logical, [c('A'), c('C')], 'STAR')), ['AsubB', 'BsubC']);
  // nothing is entailed over {A} alone
  assert.deepEqual(logicalModule(logical, [c('A')], 'STAR'), []);
});

test('an axiom that is non-local for every signature joins every ⊥-module', () => {
  const global = t.subClassOf(t.thing(), c('H'));
  assert.equal(isLocal(global, 'BOT', new Set()), false);
  assert.equal(isLocal(global, 'TOP', new Set()), true);
  const mod = logicalModule([...logical, global], [c('K')], 'BOT');
  assert.ok(mod.includes(global));
  assert.ok(mod.includes(ax.KsubL));
});

test('locality of property axioms and assertions follows the fixed extents', () => {
  const none = new Set<Entity>();
  const chain = t.subPropertyChainOf([r('p'), r('q')], r('t'));
  assert.equal(isLocal(chain, 'BOT', new Set<Entity>([r('t')])), true, 'an empty chain link makes the chain empty');
  assert.equal(isLocal(chain, 'BOT', new Set<Entity>([r('p'), r('q')])), false);
  assert.equal(isLocal(chain, 'TOP', new Set<Entity>([r('p'), r('q')])), true, 'a full super-property contains everything');
  const transitive = t.objectPropertyCharacteristic('TransitiveObjectProperty', r('p'));
  assert.equal(isLocal(transitive, 'BOT', none), true);
  assert.equal(isLocal(transitive, 'TOP', none), true);
  assert.equal(isLocal(transitive, 'BOT', new Set<Entity>([r('p')])), false);
  const functional = t.objectPropertyCharacteristic('FunctionalObjectProperty', r('p'));
  assert.equal(isLocal(functional, 'TOP', none), false, 'the full relation is not functional');
  const a = t.namedIndividual(NS + 'a');
  assert.equal(isLocal(t.classAssertion(c('A'), a), 'BOT', none), false, 'an individual cannot be in an empty class');
  assert.equal(isLocal(t.classAssertion(c('A'), a), 'TOP', none), true);
  assert.equal(isLocal(t.sameIndividual([a, t.namedIndividual(NS + 'b')]), 'TOP', none), false);
  assert.equal(isLocal(t.dataPropertyRange(d('age'), t.datatype('http://www.w3.org/2001/XMLSchema#integer')), 'BOT', none), true);
  assert.equal(isLocal(t.disjointClasses([c('A'), c('B'), c('C')]), 'BOT', new Set<Entity>([c('A')])), true);
  assert.equal(isLocal(t.disjointClasses([c('A'), c('B'), c('C')]), 'BOT', new Set<Entity>([c('A'), c('B')])), false);
});

test('class expression cases: cardinalities, nominals and complements', () => {
  const sigA = new Set<Entity>([c('A')]);
  const atLeastTwo = t.subClassOf(c('A'), t.objectMinCardinality(2, r('p'), t.thing()));
  assert.equal(isLocal(atLeastTwo, 'TOP', sigA), false, '≥2 of a full relation fails in a one-element domain');
  const atLeastOne = t.subClassOf(c('A'), t.objectMinCardinality(1, r('p'), t.thing()));
  assert.equal(isLocal(atLeastOne, 'TOP', sigA), true);
  assert.equal(
    isLocal(t.subClassOf(c('A'), t.objectOneOf([t.namedIndividual(NS + 'a')])), 'TOP', sigA),
    false,
    'a nominal is never the whole domain',
  );
  assert.equal(isLocal(t.subClassOf(t.objectComplementOf(c('B')), c('A')), 'BOT', sigA), false, '¬B is everything when B is empty');
  assert.equal(isLocal(t.subClassOf(c('A'), t.objectComplementOf(c('B'))), 'BOT', sigA), true);
});

test('declarations and annotation axioms follow the module signature, and only it', () => {
  const label = (e: Entity, text: string) => t.annotationAssertion(t.annotationProperty(RDFS_LABEL), t.iriNode(e.iri), t.literal(text));
  const source: Axiom[] = [...logical, ...['A', 'B', 'C', 'D'].map((n) => t.declaration(c(n))), label(c('A'), 'a'), label(c('D'), 'd')];
  const mod = extractModule(source, [c('A')], 'BOT');
  const kinds = mod.axioms.map((a) =>
    a.kind === 'Declaration' ? 'Declaration ' + (a.entity as { iri: string }).iri.slice(NS.length) : t.axiomTypeName(a),
  );
  assert.deepEqual(kinds.sort(), ['AnnotationAssertion', 'Declaration A', 'Declaration B', 'Declaration C', 'SubClassOf', 'SubClassOf']);
  assert.ok(mod.axioms.includes(label(c('A'), 'a')));
  assert.ok(!mod.axioms.includes(label(c('D'), 'd')));
  assert.ok(mod.entities.has(c('A')) && mod.entities.has(t.annotationProperty(RDFS_LABEL)) && !mod.entities.has(c('D')));
});

test('SWRL rules are local when their body cannot fire', () => {
  const x = t.variable(NS + 'x');
  const rule = t.dlSafeRule([t.classAtom(c('A'), x)], [t.classAtom(c('B'), x)]);
  assert.equal(isLocal(rule, 'BOT', new Set<Entity>([c('B')])), true);
  assert.equal(isLocal(rule, 'BOT', new Set<Entity>([c('A')])), false);
  assert.equal(isLocal(rule, 'TOP', new Set<Entity>([c('A')])), true, 'the head holds when B is everything');
});

/** A seeded pseudo-random ontology: subclass edges, existentials, conjunctions, domains, ranges, property inclusions. */
function randomOntology(n: number, seed: number): Axiom[] {
  let x = seed;
  const next = (m: number) => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x % m;
  };
  const out: Axiom[] = [];
  for (let i = 1; i < n; i++) {
    out.push(t.subClassOf(c('K' + i), c('K' + next(i))));
    if (i % 3 === 0)
      out.push(
        t.subClassOf(t.objectIntersectionOf([c('K' + i), c('K' + next(n))]), t.objectSomeValuesFrom(r('p' + next(7)), c('K' + next(n)))),
      );
    if (i % 11 === 0) out.push(t.objectPropertyDomain(r('p' + next(7)), c('K' + next(n))));
    if (i % 13 === 0) out.push(t.objectPropertyRange(r('p' + next(7)), c('K' + next(n))));
    if (i % 17 === 0) out.push(t.subObjectPropertyOf(r('p' + next(7)), r('p' + next(7))));
  }
  return out;
}

test('every axiom left out of a module is local for the seeds plus the module signature (the definition)', () => {
  const axioms = randomOntology(400, 7);
  for (const kind of ['BOT', 'TOP'] as const) {
    for (const seeds of [[c('K399')], [c('K5'), r('p3')], [c('K200'), c('K17')]]) {
      const mod = logicalModule(axioms, seeds, kind);
      const sig = new Set<Entity>(seeds);
      for (const a of mod) for (const e of signature(a)) sig.add(e);
      const inside = new Set(mod);
      for (const a of axioms) if (!inside.has(a)) assert.ok(isLocal(a, kind, sig), `${kind}: ${t.axiomTypeName(a)} left out but non-local`);
    }
  }
});

test("⊥-modules agree with the justification search's ⊥-module extractor on ontologies both handle", () => {
  const axioms = randomOntology(600, 11);
  const reference = new ModuleExtractor(axioms);
  for (const seeds of [[c('K599')], [c('K42'), c('K300')], [r('p2')]]) {
    assert.deepEqual(new Set(logicalModule(axioms, seeds, 'BOT')), new Set(reference.module(seeds)));
  }
});

test('a STAR module is contained in both the ⊥- and the ⊤-module', () => {
  const axioms = randomOntology(500, 3);
  const edge = axioms.find((a) => a.kind === 'SubClassOf' && a.sub === c('K450') && a.sup.kind === 'Class') as t.SubClassOf;
  const seeds = [c('K450'), edge.sup as Entity];
  const star = logicalModule(axioms, seeds, 'STAR');
  const bot = new Set(logicalModule(axioms, seeds, 'BOT'));
  const top = new Set(logicalModule(axioms, seeds, 'TOP'));
  assert.ok(star.includes(edge), 'the told edge between the seeds is in every module of them');
  for (const a of star) assert.ok(bot.has(a) && top.has(a));
});
