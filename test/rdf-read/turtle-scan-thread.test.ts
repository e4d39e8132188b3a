// Reading on two threads must give exactly what reading on one gives: the same triples in the same order,
// the same interned literals, the same prefixes, blank nodes of this thread's document.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TripleTable } from '../../src/model/rdf/rdf-graph-reader.js';
import { scanTurtle } from '../../src/model/formats/turtle-scanner.js';
import { scanTurtleOnThread } from '../../src/model/formats/turtle-scan-thread.js';
import { readTurtle } from '../../src/model/formats/turtle-reader.js';
import { tripleLines } from '../support/triple-lines.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';

/** A document of several scan chunks: labels in several languages, typed literals, blank nodes, lists. */
function document(individuals: number): string {
  const out = [
    '@prefix : <http://ex.org/two#> .',
    '@prefix owl: <http://www.w3.org/2002/07/owl#> .',
    '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .',
    ':C a owl:Class ; rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom :D ] .',
    ':D a owl:Class ; owl:unionOf ( :C :E ) .',
    ':p a owl:ObjectProperty .',
    ':d a owl:DatatypeProperty .',
  ];
  for (let i = 0; i < individuals; i++) {
    const lang = ['en', 'fr', 'de-CH'][i % 3];
    out.push(
      `:i${i} a owl:NamedIndividual , :C ; :p :i${(i * 7) % individuals} , _:b${i % 50} ; :d ${i} , "${i / 4}"^^xsd:decimal ; rdfs:label "individual ${i % 1000}"@${lang} , "x \\"${i}\\"" .`,
    );
  }
  return out.join('\n') + '\n';
}

test('a document scanned on the scanning thread gives the triples, literals and prefixes of the in-thread scan', async () => {
  const text = document(14_000);
  const mine = await scanTurtleOnThread(text, 'turtle', 'http://ex.org/two');
  assert.ok(mine !== null && mine !== 'parser');
  const here = new TripleTable(),
    prefixes = new Map<string, string>();
  assert.ok(scanTurtle(text, 'turtle', 'http://ex.org/two', here, prefixes));
  assert.ok(mine.table.size > 3 * 32_768, 'the document spans several chunks');
  assert.deepEqual(tripleLines(mine.table), tripleLines(here));
  assert.deepEqual([...mine.prefixes], [...prefixes]);
  // Literals are this thread's interned nodes: equal literals are the same object.
  for (let t = 0; t < here.terms.length; t++) if (typeof here.terms[t] !== 'string') assert.equal(mine.table.terms[t], here.terms[t]);
  for (const t of mine.table.terms) if (typeof t === 'string' && t.startsWith('_:')) assert.ok(t.startsWith(mine.table.bnodePrefix), t);
});

test('documents read on two threads at once each get their own table', async () => {
  const [a, b] = await Promise.all([
    scanTurtleOnThread(document(300), 'turtle', 'http://ex.org/a'),
    scanTurtleOnThread(document(200), 'turtle', 'http://ex.org/b'),
  ]);
  assert.ok(a !== null && a !== 'parser' && b !== null && b !== 'parser');
  const one = new TripleTable(),
    two = new TripleTable();
  scanTurtle(document(300), 'turtle', 'http://ex.org/a', one, new Map());
  scanTurtle(document(200), 'turtle', 'http://ex.org/b', two, new Map());
  assert.deepEqual(tripleLines(a.table), tripleLines(one));
  assert.deepEqual(tripleLines(b.table), tripleLines(two));
  assert.notEqual(a.table.bnodePrefix, b.table.bnodePrefix);
});

test("a document the scanner leaves to n3 comes back as `parser`, and readTurtle still reads it (or gives n3's error)", async () => {
  const rdf12 = '@prefix : <http://ex.org/x#> .\n:a :p "x"@en--ltr .\n';
  assert.equal(await scanTurtleOnThread(rdf12, 'turtle', undefined), 'parser');
  const o = await readTurtle(rdf12, { scanThreadMinLength: 0 });
  assert.equal(o.axiomCount, 1);
  await assert.rejects(readTurtle('@prefix : <http://ex.org/x#> .\n:a :p .\n', { scanThreadMinLength: 0 }), /line 2/);
});

test('readTurtle gives the same ontology whether the document is scanned here or on the scanning thread', async () => {
  const text = document(3000);
  const two = await readTurtle(text, { base: 'http://ex.org/two', scanThreadMinLength: 0 });
  const one = await readTurtle(text, { base: 'http://ex.org/two', scanThreadMinLength: Infinity });
  const named = (o: typeof one) => new Set([...o.axioms()].filter((a) => !JSON.stringify(a).includes('"AnonymousIndividual"')));
  assert.deepEqual(named(two), named(one));
  assert.equal(two.axiomCount, one.axiomCount);
  assert.deepEqual([...two.prefixes], [...one.prefixes]);
});

/** Filler triples that push what follows into a later scan chunk. */
const filler = (n: number) => Array.from({ length: n }, (_, i) => `:f${i} rdfs:comment "filler ${i}" .`).join('\n');

test('axioms built while the document streams in are rechecked: later declarations, ranges, reifications, rules and the header win', async () => {
  const text =
    [
      '@prefix : <http://ex.org/late#> .',
      '@prefix owl: <http://www.w3.org/2002/07/owl#> .',
      '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
      '@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .',
      '@prefix swrl: <http://www.w3.org/2003/11/swrl#> .',
      '@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .',
      '<http://ex.org/late> a owl:Ontology ; rdfs:label "the header" .',
      ':a :p :b .',
      ':a :d "7" .',
      ':X rdfs:subClassOf :Y .',
      ':a rdfs:label "reified label" .',
      ':a :q "plain" .',
      ':r a swrl:Imp ; rdfs:label "a rule" ; swrl:body () ; swrl:head () .',
      ':dp a owl:DatatypeProperty .',
      ':r :dp "not an annotation of a rule node" .',
      filler(40_000),
      ':p a owl:ObjectProperty .',
      ':d rdfs:range xsd:string .',
      '[] a owl:Axiom ; owl:annotatedSource :a ; owl:annotatedProperty rdfs:label ; owl:annotatedTarget "reified label" ; rdfs:comment "why" .',
      '[] a owl:Axiom ; owl:annotatedSource :X ; owl:annotatedProperty rdfs:subClassOf ; owl:annotatedTarget :Y ; rdfs:comment "because" .',
    ].join('\n') + '\n';
  const streamed = await readTurtle(text, { base: 'http://ex.org/late', scanThreadMinLength: 0 });
  const here = await readTurtle(text, { base: 'http://ex.org/late', scanThreadMinLength: Infinity });
  const lines = (o: typeof here) => new Set(axiomLines(o.axioms()));
  assert.deepEqual(lines(streamed), lines(here));
  const all = [...lines(streamed)];
  const has = (re: RegExp) => all.some((l) => re.test(l));
  assert.ok(
    has(/^ObjectPropertyAssertion\(<http:\/\/ex\.org\/late#p> <http:\/\/ex\.org\/late#a> <http:\/\/ex\.org\/late#b>\)$/),
    'declared later: still an object property assertion',
  );
  assert.ok(has(/^DataPropertyAssertion\(<http:\/\/ex\.org\/late#d>/), 'typed by its range later: a data property assertion');
  assert.ok(
    has(/^AnnotationAssertion\(Annotation\(<http:\/\/www\.w3\.org\/2000\/01\/rdf-schema#comment> "why"/),
    'reified later: the annotated axiom',
  );
  assert.ok(
    has(/^SubClassOf\(Annotation\(<http:\/\/www\.w3\.org\/2000\/01\/rdf-schema#comment> "because"/),
    'a reified subclass axiom carries its annotation',
  );
  assert.ok(
    !has(/AnnotationAssertion\(<http:\/\/www\.w3\.org\/2000\/01\/rdf-schema#label> <http:\/\/ex\.org\/late#r>/),
    "a rule's label annotates the rule",
  );
  assert.ok(
    !has(/AnnotationAssertion\(<http:\/\/www\.w3\.org\/2000\/01\/rdf-schema#label> <http:\/\/ex\.org\/late>/),
    "the header's label annotates the ontology",
  );
  assert.deepEqual([...streamed.annotations].length, [...here.annotations].length);
  assert.deepEqual(streamed.unmapped, here.unmapped);
  assert.ok(
    here.unmapped.some((u) => u.text.includes('not an annotation of a rule node')),
    "a structure's other triples stay unmapped",
  );
});
