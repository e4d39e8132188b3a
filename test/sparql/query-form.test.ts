// The lexical scan that decides, before evaluation, whether a request is a read query, an UPDATE, or uses
// SERVICE, and which IRIs it mentions: keywords inside strings, IRIs, comments, variables and prefixed
// names must not count.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanQuery } from '../../src/sparql/query-form.js';

const prefixes = new Map([
  ['ex', 'http://example.org/'],
  ['rdfs', 'http://www.w3.org/2000/01/rdf-schema#'],
]);

test('the form is the first form keyword after the prologue', () => {
  assert.equal(scanQuery('PREFIX a: <http://a/> BASE <http://b/> select * { ?s ?p ?o }', prefixes).form, 'SELECT');
  assert.equal(scanQuery('# SELECT in a comment\nASK {}', prefixes).form, 'ASK');
  assert.equal(scanQuery('construct { ?s ?p ?o } where { ?s ?p ?o }', prefixes).form, 'CONSTRUCT');
  assert.equal(scanQuery('DESCRIBE ex:a', prefixes).form, 'DESCRIBE');
  assert.equal(scanQuery('WITH <http://g/> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }', prefixes).form, 'UPDATE');
  assert.equal(scanQuery('CLEAR DEFAULT', prefixes).form, 'UPDATE');
  assert.equal(scanQuery('{ ?s ?p ?o }', prefixes).form, 'UNKNOWN');
});

test('an update keyword after a read form makes the whole request an UPDATE', () => {
  assert.equal(scanQuery('SELECT * {} ; INSERT DATA { <a:b> <a:b> <a:b> }', prefixes).form, 'UPDATE');
});

test('keywords in strings, IRIs, variables and prefixed names do not count', () => {
  const scan = scanQuery(
    "SELECT ?service ?delete WHERE { ?service ex:SERVICE \"SERVICE DELETE\" ; <http://x/INSERT> '''DROP''' }",
    prefixes,
  );
  assert.equal(scan.form, 'SELECT');
  assert.equal(scan.usesService, false);
});

test('SERVICE anywhere, in any case, is flagged; LOAD in an UPDATE is flagged', () => {
  assert.equal(scanQuery('SELECT * { OPTIONAL { service silent <http://x/> { ?s ?p ?o } } }', prefixes).usesService, true);
  assert.equal(scanQuery('LOAD <http://x/data.ttl>', prefixes).usesLoad, true);
  assert.equal(scanQuery('SELECT * { ?s ?p "LOAD" }', prefixes).usesLoad, false);
});

test('mentioned IRIs: written out or expanded from declared and given prefixes, sorted, one each', () => {
  const scan = scanQuery(
    'PREFIX my: <http://my/> SELECT * { ?s a my:T , ex:A , <http://z/> ; rdfs:label ?l . ?s a ex:A . ?s undeclared:x ?y }',
    prefixes,
  );
  assert.deepEqual(scan.iris, [
    { curie: 'ex:A', iri: 'http://example.org/A' },
    { curie: 'my:T', iri: 'http://my/T' },
    { curie: 'rdfs:label', iri: 'http://www.w3.org/2000/01/rdf-schema#label' },
    { iri: 'http://z/' },
  ]);
});

test('a query PREFIX overrides a given prefix', () => {
  assert.deepEqual(scanQuery('PREFIX ex: <http://other/> ASK { ex:a ?p ?o }', prefixes).iris, [{ curie: 'ex:a', iri: 'http://other/a' }]);
});
