// Issue 13 §5: DTD entity expansion in RDF/XML and OWL/XML is bounded in total and in nesting, at the
// parser (documents and SHACL shapes) and through load_ontology on the real server, which keeps serving.
// test-process: own (it bounds its process's resident memory, which other files' servers would share)

import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readRdfXml } from '../../src/model/formats/rdfxml-reader.js';
import { readOwlXml } from '../../src/model/formats/owlxml/reader.js';
import { ParseError } from '../../src/model/formats/errors.js';
import { parseRdf } from '../../src/shacl/rdf-parse.js';
import { ENTITY_EXPANSION_FLOOR, MAX_ENTITY_NESTING } from '../../src/model/formats/xml-entities.js';
import { call, callOk, connect, startTestServer } from '../server/support.js';

const RDF_NS =
  'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns:owl="http://www.w3.org/2002/07/owl#"';

const rdfxml = (dtd: string, label: string) => `<?xml version="1.0"?>
<!DOCTYPE rdf:RDF [ ${dtd} ]>
<rdf:RDF ${RDF_NS}>
<owl:Ontology rdf:about="http://ex.org/o"/>
<owl:Class rdf:about="http://ex.org/A"><rdfs:label>${label}</rdfs:label></owl:Class>
</rdf:RDF>
`;

const owlxml = (dtd: string, label: string) => `<?xml version="1.0"?>
<!DOCTYPE Ontology [ ${dtd} ]>
<Ontology xmlns="http://www.w3.org/2002/07/owl#" ontologyIRI="http://ex.org/o">
<AnnotationAssertion><AnnotationProperty abbreviatedIRI="rdfs:label"/><IRI>http://ex.org/A</IRI><Literal>${label}</Literal></AnnotationAssertion>
</Ontology>
`;

/** Billion laughs: ten levels, each entity ten references to the one below (10^9 characters if expanded). */
function laughs(): { dtd: string; label: string } {
  const lines = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) lines.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return { dtd: lines.join('\n'), label: '&lol9;' };
}

/** One 10,000-character entity referenced 30,000 times: a 160 KB file, 300 million characters expanded. */
function huge(): { dtd: string; label: string } {
  return { dtd: `<!ENTITY big "${'x'.repeat(10_000)}">`, label: '&big;'.repeat(30_000) };
}

/** A chain of small entities `levels` deep, declared from the bottom up or (deeper than any stack) top down. */
function deepChain(levels: number, topDown = false): { dtd: string; label: string } {
  const lines = ['<!ENTITY e0 "x">'];
  for (let i = 1; i < levels; i++) lines.push(`<!ENTITY e${i} "&e${i - 1};">`);
  if (topDown) lines.reverse();
  return { dtd: lines.join('\n'), label: `&e${levels - 1};` };
}

const cycle = () => ({ dtd: '<!ENTITY a "x&b;"> <!ENTITY b "y&a;">', label: '&a;' });

async function parseError(read: () => Promise<unknown>): Promise<ParseError> {
  const started = process.memoryUsage().rss;
  const err = await read().then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof ParseError, `expected a ParseError, got ${String(err)}`);
  // refused before the expansion was built: far below the 300 MB a full expansion would take
  assert.ok(process.memoryUsage().rss - started < 200e6, 'memory stayed bounded');
  return err;
}

const readers = [
  { name: 'RDF/XML', doc: rdfxml, read: (text: string) => readRdfXml(text, {}) },
  { name: 'OWL/XML', doc: owlxml, read: async (text: string) => readOwlXml(text) },
];

for (const { name, doc, read } of readers) {
  test(`${name}: billion laughs, one huge entity, a deep chain and a cycle fail with the limit named`, async () => {
    for (const attack of [laughs(), huge()]) {
      const err = await parseError(() => read(doc(attack.dtd, attack.label)));
      assert.match(err.message, /entity expansion limit exceeded/);
      assert.match(err.message, new RegExp(String(ENTITY_EXPANSION_FLOOR)));
      assert.notEqual(err.line, undefined, 'the error has a position');
    }
    for (const chain of [deepChain(MAX_ENTITY_NESTING + 1), deepChain(50_000, true)]) {
      const deep = await parseError(() => read(doc(chain.dtd, chain.label)));
      assert.match(deep.message, new RegExp(`nest deeper than ${MAX_ENTITY_NESTING} levels`));
    }
    const atLimit = deepChain(MAX_ENTITY_NESTING);
    await read(doc(atLimit.dtd, atLimit.label));
    const loop = await parseError(() => read(doc(cycle().dtd, cycle().label)));
    assert.match(loop.message, /entity 'a' refers to itself/);
  });

  test(`${name}: nested entities within the limits expand as XML says`, async () => {
    const dtd = '<!ENTITY ex "http://ex.org/"> <!ENTITY greet "hello &who;"> <!ENTITY who "&ex;world">';
    const o = await read(doc(dtd, '&greet; &amp; &greet;'));
    const label = [...o.axioms()].find((a) => a.kind === 'AnnotationAssertion');
    assert.ok(label !== undefined && label.kind === 'AnnotationAssertion');
    assert.equal(label.value.kind === 'Literal' ? label.value.lex : null, 'hello http://ex.org/world & hello http://ex.org/world');
  });
}

test('SHACL shapes in RDF/XML: the same entity bound applies', async () => {
  const { dtd, label } = huge();
  const err = await read();
  async function read(): Promise<Error> {
    return parseRdf(rdfxml(dtd, label), 'rdfxml', undefined, 's').then(
      () => new Error('parsed'),
      (e: Error) => e,
    );
  }
  assert.equal(err.name, 'RdfSyntaxError');
  assert.match(err.message, /entity expansion limit exceeded/);
});

test('load_ontology refuses entity bombs with a parse error naming the limit; the server keeps serving', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-entities-'));
  const files: Record<string, string> = {
    'laughs.rdf': rdfxml(laughs().dtd, laughs().label),
    'huge.rdf': rdfxml(huge().dtd, huge().label),
    'laughs.owx': owlxml(laughs().dtd, laughs().label),
    'huge.owx': owlxml(huge().dtd, huge().label),
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  const good = path.join(dir, 'good.rdf');
  await writeFile(good, rdfxml('<!ENTITY ex "http://ex.org/">', 'label of &ex;A'));
  const t = await startTestServer([good]);
  try {
    const c = await connect(t);
    const attacks = await Promise.all(Object.keys(files).map((name) => call(c, 'load_ontology', { source: path.join(dir, name) })));
    for (const r of attacks) {
      assert.equal(r.isError, true);
      assert.equal(r.body.error_code, 'parse_error', JSON.stringify(r.body));
      assert.match(String(r.body.error), /entity expansion limit exceeded: expanding '&(lol\d|big);' passes 10000000 characters/);
    }
    const search = await callOk(c, 'search_entities', { query: 'A' });
    assert.ok(JSON.stringify(search).includes('http://ex.org/A'), 'the active document is intact and answering');
    await c.close();
  } finally {
    await t.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
