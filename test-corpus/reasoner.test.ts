// The EL reasoner against the ELK test suite, the synthetic EL ontologies and the corpus taxonomies
// of ../shared/reasoning (see its README for the taxonomy format).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFunctional } from '../src/model/formats/functional/reader.js';
import { readDocument } from '../src/model/formats/registry.js';
import { cls, declaration, type Axiom, type NamedIndividual } from '../src/model/terms.js';
import { OWL_NOTHING, OWL_THING } from '../src/model/vocab.js';
import { classify, renderTaxonomy } from '../src/reasoner/el-reasoner.js';
import { classifyStructural } from '../src/reasoner/structural.js';

function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

const shared = path.resolve(repoRoot(), '../shared');
const reasoning = path.join(shared, 'reasoning');
const elk = path.join(reasoning, 'elk-tests');

function load(file: string): Axiom[] {
  return [...readFunctional(readFileSync(file, 'utf8'), { base: 'http://example.org/' }).axioms()];
}

/** The expected taxonomy of an ELK test: its told hierarchy over the signature of the input, in our format. */
function expectedElk(input: Axiom[], taxonomyFile: string): string {
  const text = readFileSync(taxonomyFile, 'utf8');
  if (/#\s*inconsistent/.test(text)) return '';
  const declarations = input.filter((a) => a.kind === 'Declaration');
  const inputClasses = classify(input);
  const expected = classifyStructural([...load(taxonomyFile), ...declarations, ...signatureDeclarations(inputClasses)]);
  return renderTaxonomy(expected);
}

/** Declarations for every named class the reasoner saw, so classes only used inside expressions appear too. */
function signatureDeclarations(r: ReturnType<typeof classify>): Axiom[] {
  const out: Axiom[] = [];
  for (const node of r.taxonomy.nodes) for (const m of node.members) out.push(declarationOf(m));
  return out;
}

const declarationOf = (iri: string) => declaration(cls(iri));

const classification = path.join(elk, 'classification');
for (const f of readdirSync(classification).filter((n) => n.endsWith('.owl')).sort()) {
  test(`ELK classification ${f}`, () => {
    const input = load(path.join(classification, f));
    const result = classify(input);
    const expected = expectedElk(input, path.join(classification, f.replace(/\.owl$/, '.taxonomy')));
    assert.equal(renderTaxonomy(result), expected);
  });
}

/** Direct types of the named individuals, as `ClassAssertion(<C> <a>)` lines (owl:Thing left implicit). */
function realizationLines(axioms: Axiom[], individuals: Iterable<NamedIndividual>, structural: boolean): string[] {
  const r = structural ? classifyStructural(axioms) : classify(axioms);
  const lines: string[] = [];
  for (const ind of individuals) {
    for (const node of r.types(ind)) {
      if (node.representative === OWL_THING) continue;
      for (const m of node.members) lines.push(`ClassAssertion(<${m}> <${ind.iri}>)`);
    }
  }
  return lines.sort();
}

/** How the ELK files write an inconsistent result. */
function equatesThingAndNothing(a: Axiom): boolean {
  if (a.kind !== 'EquivalentClasses') return false;
  const iris = a.classes.map((c) => (c.kind === 'Class' ? c.iri : ''));
  return iris.includes(OWL_THING) && iris.includes(OWL_NOTHING);
}

const realization = path.join(elk, 'realization');
for (const f of readdirSync(realization).filter((n) => n.endsWith('.owl')).sort()) {
  test(`ELK realization ${f}`, () => {
    const input = load(path.join(realization, f));
    const expectedAxioms = load(path.join(realization, f.replace(/\.owl$/, '.instancetaxonomy')));
    const result = classify(input);
    if (expectedAxioms.some(equatesThingAndNothing)) {
      assert.equal(result.consistent, false);
      assert.equal(renderTaxonomy(result), '');
      return;
    }
    const individuals = new Set<NamedIndividual>();
    for (const a of input) for (const e of a.kind === 'ClassAssertion' ? [a.individual] : a.kind === 'ObjectPropertyAssertion' ? [a.subject, a.object] : []) {
      if (e.kind === 'NamedIndividual') individuals.add(e);
    }
    assert.ok(result.consistent);
    assert.deepEqual(realizationLines(input, individuals, false), realizationLines(expectedAxioms, individuals, true));
  });
}

for (const size of ['1000']) {
  test(`synthetic syn-el-${size}`, () => {
    const input = load(path.join(reasoning, 'synthetic', `syn-el-${size}.ofn`));
    const result = classify(input);
    assert.ok(result.complete);
    assert.equal(renderTaxonomy(result), readFileSync(path.join(reasoning, 'synthetic', `syn-el-${size}.taxonomy`), 'utf8'));
  });
}

// Corpus files whose ELK taxonomy we do not reproduce line for line: richer than ELK where HermiT agrees with us (data property domains in koala,
// family, pizza), or a differing signature from the document readers (OWL API error classes in ssn,
// rdf:HTML in QUDT, dublincore). All of them are reported incomplete.
const KNOWN_DIFFERENCES = new Set([
  'owlapi/dublincore.rdf', 'owlapi/family.owl', 'owlapi/koala.owl', 'owlapi/pizza.owl', 'qudt/SCHEMA_QUDT.ttl', 'w3c-sdw/ssn.ttl',
]);

function* taxonomyFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* taxonomyFiles(p);
    else if (p.endsWith('.taxonomy') && !p.endsWith('.hermit.taxonomy')) yield p;
  }
}

const taxonomies = path.join(reasoning, 'taxonomies');
for (const file of [...taxonomyFiles(taxonomies)].sort()) {
  const rel = path.relative(taxonomies, file).replace(/\.taxonomy$/, '');
  test(`corpus taxonomy ${rel}`, async () => {
    const src = path.join(shared, 'corpus', rel);
    const { ontology } = await readDocument(readFileSync(src, 'utf8'), { base: 'http://corpus.invalid/' + rel, fileName: src });
    const result = classify(ontology.axioms());
    const ours = renderTaxonomy(result);
    const hermit = file.replace(/\.taxonomy$/, '.hermit.taxonomy');
    if (existsSync(hermit) && readFileSync(hermit, 'utf8') !== readFileSync(file, 'utf8')) assert.equal(result.complete, false);
    if (KNOWN_DIFFERENCES.has(rel)) assert.equal(result.complete, false);
    else assert.equal(ours, readFileSync(file, 'utf8'));
  });
}
