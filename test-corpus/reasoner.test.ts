// The EL reasoner against the ELK test suite, the synthetic EL ontologies and the corpus taxonomies
// of ../shared/reasoning (see its README for the taxonomy format), through `athene classify`'s output.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFunctional } from '../src/model/formats/functional/reader.js';
import { readDocument } from '../src/model/formats/registry.js';
import { cls, declaration, type Axiom, type NamedIndividual } from '../src/model/terms.js';
import { OWL_NOTHING, OWL_THING } from '../src/model/vocab.js';
import { classify, renderTaxonomy } from '../src/reasoner/el-reasoner.js';
import { compareUtf8 } from '../src/reasoner/taxonomy.js';
import { classifyAxioms } from '../src/cli/classify.js';
import { classifyStructural } from '../src/reasoner/structural.js';
import { sharedDir as shared } from './support/reference.js';

function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

const run = promisify(execFile);
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
for (const f of readdirSync(classification)
  .filter((n) => n.endsWith('.owl'))
  .sort()) {
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
for (const f of readdirSync(realization)
  .filter((n) => n.endsWith('.owl'))
  .sort()) {
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
    for (const a of input)
      for (const e of a.kind === 'ClassAssertion' ? [a.individual] : a.kind === 'ObjectPropertyAssertion' ? [a.subject, a.object] : []) {
        if (e.kind === 'NamedIndividual') individuals.add(e);
      }
    assert.ok(result.consistent);
    assert.deepEqual(realizationLines(input, individuals, false), realizationLines(expectedAxioms, individuals, true));
  });
}

for (const size of ['1000', '10000']) {
  test(`synthetic syn-el-${size}`, async () => {
    const input = load(path.join(reasoning, 'synthetic', `syn-el-${size}.ofn`));
    const out = await classifyAxioms(input);
    assert.ok(out.result.complete);
    assert.equal(out.stderr, '');
    assert.equal(out.stdout, readFileSync(path.join(reasoning, 'synthetic', `syn-el-${size}.taxonomy`), 'utf8'));
  });
}

const OWLAPI_ERROR = 'http://org.semanticweb.owlapi/error#';

/**
 * The reference without the OWL API's error classes (ssn: it cannot type the imported sosa properties and
 * invents owlapi/error#ErrorN classes for their restrictions, which the ELK run then saw as superclasses).
 * A class left without any parent by that gets the owl:Thing edge the format requires.
 */
function withoutOwlApiErrors(text: string): string {
  if (!text.includes(OWLAPI_ERROR)) return text;
  const lines = text.split('\n').filter((l) => l !== '');
  const kept = lines.filter((l) => !l.includes(OWLAPI_ERROR));
  const hasParent = new Set(kept.filter((l) => l.startsWith('SubClassOf(')).map((l) => l.slice(11, l.indexOf('> <') + 1)));
  for (const l of lines) {
    if (!l.startsWith('SubClassOf(') || !l.includes('> <' + OWLAPI_ERROR)) continue;
    const sub = l.slice(11, l.indexOf('> <') + 1);
    if (sub.includes(OWLAPI_ERROR) || hasParent.has(sub)) continue;
    hasParent.add(sub);
    kept.push(`SubClassOf(${sub} <${OWL_THING}>)`);
  }
  return kept
    .sort(compareUtf8)
    .map((l) => l + '\n')
    .join('');
}

// Differences that come from how the OWL API read the file (the ELK taxonomies were computed on its
// reading), each an exact line of the reference that Athene's reading does not give.
const READER_DIFFERENCES: Record<string, { missing: string; reason: string }> = {
  'owlapi/family.owl': {
    missing: 'SubClassOf(<http://www.example.org/family#LessThan10> <http://www.w3.org/2002/07/owl#Thing>)',
    reason: 'a named OWL 1.1 owl:DataRange: the OWL API reads a class, Athene a datatype (see known-differences.ts)',
  },
  'qudt/SCHEMA_QUDT.ttl': {
    missing: 'SubClassOf(<http://www.w3.org/1999/02/22-rdf-syntax-ns#HTML> <http://www.w3.org/2002/07/owl#Thing>)',
    reason: 'owl:allValuesFrom rdf:HTML on the owl:DatatypeProperty qudt:rationale: the OWL API reads an object restriction, so a class',
  },
};

function* taxonomyFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* taxonomyFiles(p);
    else if (p.endsWith('.taxonomy') && !p.endsWith('.hermit.taxonomy')) yield p;
  }
}

/** Through the real command line, to check its output end to end (the other files run in-process). */
const THROUGH_CLI = new Set(['owlapi/pizza.owl', 'elk/endocarditis.ofn']);
const cli = path.join(repoRoot(), 'dist', 'src', 'cli', 'main.js');

async function classifyCorpusFile(rel: string): Promise<{ stdout: string; stderr: string }> {
  const src = path.join(shared, 'corpus', rel);
  if (THROUGH_CLI.has(rel)) {
    return run(process.execPath, [cli, 'classify', src, '--base', 'http://corpus.invalid/' + rel], { maxBuffer: 1 << 26 });
  }
  const { ontology } = await readDocument(readFileSync(src, 'utf8'), { base: 'http://corpus.invalid/' + rel, fileName: src });
  return classifyAxioms(ontology.axioms());
}

const taxonomies = path.join(reasoning, 'taxonomies');
for (const file of [...taxonomyFiles(taxonomies)].sort()) {
  const rel = path.relative(taxonomies, file).replace(/\.taxonomy$/, '');
  test(`corpus taxonomy ${rel}`, async () => {
    const { stdout, stderr } = await classifyCorpusFile(rel);
    const reference = withoutOwlApiErrors(readFileSync(file, 'utf8'));
    const hermit = file.replace(/\.taxonomy$/, '.hermit.taxonomy');
    if (existsSync(hermit) && readFileSync(hermit, 'utf8') !== readFileSync(file, 'utf8')) assert.match(stderr, /complete: false/);
    const known = READER_DIFFERENCES[rel];
    const expected = known ? reference.replace(known.missing + '\n', '') : reference;
    if (known) assert.notEqual(expected, reference, `${rel}: the known reader difference no longer occurs`);
    assert.equal(stdout, expected);
  });
}
