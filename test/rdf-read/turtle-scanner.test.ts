// The Turtle / N-Triples scanner must read exactly what n3's Parser reads — the same triples in the
// same order, the same prefixes — and hand every document it does not cover back to n3's Parser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TripleTable } from '../../src/model/rdf/rdf-graph-reader.js';
import { tripleLines as lines } from '../support/triple-lines.js';
import { scanTurtle, type ScannedSyntax } from '../../src/model/formats/turtle-scanner.js';
import { parseInto, readTurtle } from '../../src/model/formats/turtle-reader.js';
import { ParseError } from '../../src/model/formats/errors.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';

const HEAD =
  '@prefix : <http://ex.org/> . @prefix owl: <http://www.w3.org/2002/07/owl#> . ' +
  '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n';

async function scanned(text: string, syntax: ScannedSyntax = 'turtle', base = 'http://base.org/doc') {
  const table = new TripleTable(),
    prefixes = new Map<string, string>();
  const covered = scanTurtle(text, syntax, base, table, prefixes);
  return { covered, lines: lines(table), prefixes: [...prefixes] };
}

async function byN3(text: string, syntax: ScannedSyntax = 'turtle', base = 'http://base.org/doc') {
  const table = new TripleTable(),
    prefixes = new Map<string, string>();
  await parseInto(text, syntax, base, table, prefixes);
  return { lines: lines(table), prefixes: [...prefixes] };
}

const SAME_AS_N3: [string, string][] = [
  ['plain triples, ; and , and a', ':a a owl:Class ; rdfs:subClassOf :b , :c ; rdfs:label "A" .'],
  ['trailing semicolons', ':a rdfs:label "x" ; ; .'],
  [
    'literals: language, datatypes, numbers, booleans',
    ':a :p "x"@en-GB , "1"^^xsd:int , "2"^^<http://t.org/dt> , 12 , -1.5 , 1e3 , true , false .',
  ],
  ['long and escaped strings', ':a :p """multi\nline "quoted" text""" , \'single\' , "tab\\tnew\\nline \\u00e9" .'],
  [
    'blank-node property lists as object, nested',
    ':a rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p ; owl:someValuesFrom [ owl:unionOf ( :x :y ) ] ] .',
  ],
  ['blank-node property list as subject', '[ a owl:AllDisjointClasses ; owl:members ( :a :b :c ) ] .'],
  ['blank-node subject with predicates after', '[ :p :o ] :q :r ; :s :t .'],
  ['empty blank node as subject and object', '[] :p [] , [ ] .'],
  ['labelled blank nodes shared', '_:x :p _:y . _:y :q _:x . :a :r _:x .'],
  ['collections: empty, nested, with literals and blanks', ':a :p () , ( :b ( :c "d" ) [ :e :f ] "g"@en 5 ) .'],
  ['collection as subject', '( :a :b ) :p :o . () :p :o .'],
  ['collection inside a blank node list', ':a :p [ :q ( [ :r ( ) ] ) ] .'],
  ['lax "." inside a blank-node property list', ':i :p [ :q :j . ] . :k :p [ :q :j . :r :s ] .'],
  [
    'relative IRIs, @base and SPARQL-style directives',
    '<a> <b> <#c> . @base <http://other.org/x/> . <d> <../e> <f> . BASE <http://third.org/> PREFIX ex: <y#> ex:g ex:h <i> .',
  ],
  ['a prefix redefined mid-document', ':a :p :b . @prefix : <http://changed.org/> . :a :p :b .'],
  ['escaped local names', ':a\\-b :p :c\\.d , :e%20f .'],
];

for (const [name, body] of SAME_AS_N3) {
  test(`scanner reads like n3's Parser: ${name}`, async () => {
    const text = HEAD + body;
    const ours = await scanned(text);
    assert.equal(ours.covered, true, 'the scanner covers this document');
    const theirs = await byN3(text);
    assert.deepEqual(ours.lines, theirs.lines);
    assert.deepEqual(ours.prefixes, theirs.prefixes);
  });
}

test('scanner reads N-Triples like n3', async () => {
  const text =
    '<http://ex.org/a> <http://ex.org/p> "x"@en .\n_:b1 <http://ex.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#int> .\n' +
    '<http://ex.org/a> <http://ex.org/q> _:b1 .\n';
  const ours = await scanned(text, 'ntriples');
  assert.equal(ours.covered, true);
  assert.deepEqual(ours.lines, (await byN3(text, 'ntriples')).lines);
});

const LEFT_TO_N3: [string, string, ScannedSyntax][] = [
  ['a syntax error', HEAD + ':a :p :b ;; , .', 'turtle'],
  ['an undefined prefix', HEAD + 'nope:a :p :b .', 'turtle'],
  ['a truncated document', HEAD + ':a :p [ :q :r ', 'turtle'],
  ['a literal subject', HEAD + '"x" :p :b .', 'turtle'],
  ['RDF 1.2 reified triple', HEAD + '<< :a :p :b >> :q :c .', 'turtle'],
  ['RDF 1.2 annotation', HEAD + ':a :p :b {| :q :c |} .', 'turtle'],
  ['a direction tag', HEAD + ':a :p "x"@en--ltr .', 'turtle'],
  ['a relative IRI in N-Triples', '<a> <http://ex.org/p> <http://ex.org/b> .\n', 'ntriples'],
];

for (const [name, text, syntax] of LEFT_TO_N3) {
  test(`scanner hands the document to n3's Parser: ${name}`, async () => {
    assert.equal((await scanned(text, syntax)).covered, false);
  });
}

test('readTurtle still gives n3 errors with their line, and reads what only n3 covers', async () => {
  await assert.rejects(readTurtle(HEAD + ':a :p :b .\n:c :p ;; .\n', {}), (e: unknown) => {
    assert.ok(e instanceof ParseError);
    assert.equal(e.line, 3);
    return true;
  });
  await assert.rejects(readTurtle(HEAD + 'nope:a :p :b .', {}), /Undefined prefix "nope:"/);
  const o = await readTurtle(HEAD + ':A rdfs:subClassOf :B .\n<< :A rdfs:subClassOf :B >> :q :c .\n', {});
  assert.ok(axiomLines(o.axioms()).includes('SubClassOf(<http://ex.org/A> <http://ex.org/B>)'));
  assert.ok(o.unmapped.length > 0, 'the reified triple is reported, not dropped');
});

test('blank nodes of the scanner are scoped to their document', async () => {
  const text = HEAD + ':p a owl:ObjectProperty . :i :p _:x . _:x :p [ :r :s ] .';
  const [a, b] = [await readTurtle(text, {}), await readTurtle(text, {})];
  const anon = (o: typeof a) =>
    new Set([...o.axioms()].flatMap((x) => ('object' in x && x.object.kind === 'AnonymousIndividual' ? [x.object] : [])));
  const [ia, ib] = [anon(a), anon(b)];
  assert.equal(ia.size, 2);
  assert.equal(ib.size, 2);
  for (const x of ia) assert.ok(!ib.has(x));
});
