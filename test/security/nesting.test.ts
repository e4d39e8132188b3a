// Issue 13 §5: an expression nested 20,000 deep is refused with invalid_argument naming the nesting limit by
// every tool that parses Manchester (never internal_error, a stack overflow), and documents nested past the
// limit in any syntax fail with a parse error naming it; the server keeps serving.

import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_EXPRESSION_NESTING } from '../../src/model/formats/nesting.js';
import { readDocument } from '../../src/model/formats/registry.js';
import { call, callOk, fixture, sharedServer } from '../server/support.js';

const DEEP = 20_000;
const LIMIT = /nested deeper than 500 levels \(the nesting limit\)/;
const JSON_LD_LIMIT = /JSON nested deeper than 200 levels \(the nesting limit of JSON-LD documents\)/;

/** Class expressions nested `n` levels, in each shape that recurses differently. */
const shapes = (n: number): Record<string, string> => ({
  not: 'not '.repeat(n) + 'Mammal',
  parentheses: '('.repeat(n) + 'Mammal' + ')'.repeat(n),
  'not (...)': 'not ('.repeat(n / 2) + 'Mammal' + ')'.repeat(n / 2),
  'some (...)': 'eats some ('.repeat(n / 2) + 'Mammal' + ')'.repeat(n / 2),
  inverse: 'inverse ('.repeat(n) + 'eats' + ')'.repeat(n) + ' some Mammal',
});
const deepRange = 'not ('.repeat(DEEP / 2) + 'xsd:integer' + ')'.repeat(DEEP / 2);

// both server tests send refused calls, then an edit the other does not look at: they share one server
const zoo = sharedServer([fixture('zoo.ttl')]);

test('every tool that takes a Manchester expression refuses one nested 20,000 deep with invalid_argument', async () => {
  const { c } = await zoo();
  const refused = (what: string, r: { isError: boolean; body: Record<string, unknown> }) => {
    assert.equal(r.isError, true, what);
    assert.equal(r.body.error_code, 'invalid_argument', `${what}: ${JSON.stringify(r.body).slice(0, 300)}`);
    assert.match(String(r.body.error), LIMIT, what);
  };
  for (const [shape, deep] of Object.entries(shapes(DEEP))) {
    refused(`add_axiom ${shape}`, await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Bird', super: deep }));
    refused(`remove_axiom ${shape}`, await call(c, 'remove_axiom', { axiom_type: 'subclass_of', sub: deep, super: 'Bird' }));
    refused(`execute_dl_query ${shape}`, await call(c, 'execute_dl_query', { query: deep }));
  }
  const deep = shapes(DEEP).not;
  refused('add_axiom range', await call(c, 'add_axiom', { axiom_type: 'data_property_range', property: 'age', range: deepRange }));
  refused('create_class', await call(c, 'create_class', { name: 'Deep', parent: deep }));
  refused('add_subclass_of', await call(c, 'add_subclass_of', { child: 'Bird', parent: deep }));
  refused('move_class', await call(c, 'move_class', { entity: 'Bird', new_parent: deep }));
  refused('create_term', await call(c, 'create_term', { name: 'Deeper', parents: [deep] }));
  refused('explain_entailment', await call(c, 'explain_entailment', { axiom_type: 'subclass_of', sub: 'Bird', super: deep }));
  refused(
    'add_rule',
    await call(c, 'add_rule', {
      body: [{ type: 'class', predicate: deep, arg1: '?x' }],
      head: [{ type: 'class', predicate: 'Animal', arg1: '?x' }],
    }),
  );
  refused(
    'add_rule data range',
    await call(c, 'add_rule', {
      body: [{ type: 'data_range', predicate: deepRange, arg1: '?x' }],
      head: [{ type: 'class', predicate: 'Animal', arg1: '?x' }],
    }),
  );
  // a batch reports the row as failed, with the limit named
  for (const tool of ['preview_changes', 'apply_changes']) {
    const batch = await call(c, tool, { operations: [{ axiom_type: 'subclass_of', sub: 'Bird', super: deep }] });
    const text = JSON.stringify(batch.body);
    assert.match(text, LIMIT, tool);
    assert.doesNotMatch(text, /internal_error|call stack/, tool);
  }
  // within the limit the same shapes are ordinary expressions
  for (const [shape, fine] of Object.entries(shapes(MAX_EXPRESSION_NESTING - 2))) {
    const r = await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Bird', super: fine });
    assert.equal(r.isError, false, `${shape}: ${JSON.stringify(r.body).slice(0, 300)}`);
  }
  const over = await call(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Bird', super: shapes(MAX_EXPRESSION_NESTING + 2).not });
  assert.equal(over.body.error_code, 'invalid_argument');
  await callOk(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Bird', super: 'Animal' });
});

const O = 'http://ex.org/';
const XSD_INT = 'http://www.w3.org/2001/XMLSchema#integer';

/** A document per syntax whose one axiom nests `n` complements deep. */
function documents(n: number): Record<string, string> {
  let ttl = `@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n<${O}o> a owl:Ontology .\n<${O}A> rdfs:subClassOf _:b0 .\n`;
  for (let i = 0; i < n; i++) ttl += `_:b${i} a owl:Class ; owl:complementOf ${i + 1 === n ? `<${O}B>` : `_:b${i + 1}`} .\n`;
  // the same chain with each inner node mapped first (used by an axiom of its own), so the mapping meets it cached
  let reused = `@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n<${O}o> a owl:Ontology .\n`;
  for (let i = n - 1; i >= 0; i--) reused += `<${O}C${i}> rdfs:subClassOf _:b${i} .\n`;
  for (let i = 0; i < n; i++) reused += `_:b${i} a owl:Class ; owl:complementOf ${i + 1 === n ? `<${O}B>` : `_:b${i + 1}`} .\n`;
  return {
    'deep.ofn': `Ontology(<${O}o>\nSubClassOf(<${O}A> ${'ObjectComplementOf('.repeat(n)}<${O}B>${')'.repeat(n)})\n)\n`,
    'deep.omn': `Prefix: : <${O}>\nOntology: <${O}o>\nClass: A\n  SubClassOf: ${'not ('.repeat(n)}B${')'.repeat(n)}\n`,
    'deep.owx': `<?xml version="1.0"?>\n<Ontology xmlns="http://www.w3.org/2002/07/owl#" ontologyIRI="${O}o"><SubClassOf><Class IRI="${O}A"/>${'<ObjectComplementOf>'.repeat(n)}<Class IRI="${O}B"/>${'</ObjectComplementOf>'.repeat(n)}</SubClassOf></Ontology>\n`,
    'deep.ttl': ttl,
    'reused.ttl': reused,
    'deep.jsonld':
      `{"@context":{"owl":"http://www.w3.org/2002/07/owl#","rdfs":"http://www.w3.org/2000/01/rdf-schema#"},"@graph":[{"@id":"${O}o","@type":"owl:Ontology"},` +
      `{"@id":"${O}A","rdfs:subClassOf":${'{"@type":"owl:Class","owl:complementOf":'.repeat(n)}{"@id":"${O}B"}${'}'.repeat(n)}}]}`,
    'range.ttl': `@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n<${O}o> a owl:Ontology .\n<${O}A> rdfs:subClassOf [ a owl:Restriction ; owl:onProperty <${O}p> ; owl:someValuesFrom ${'[ owl:intersectionOf ( '.repeat(n)}<${XSD_INT}>${' ) ]'.repeat(n)} ] .\n`,
  };
}

test('documents nested past the limit fail with a parse error naming it, in every syntax', async () => {
  for (const [name, text] of Object.entries(documents(DEEP))) {
    const err = await readDocument(text, { fileName: name }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof Error, name);
    assert.match(err.message, name.endsWith('.jsonld') ? JSON_LD_LIMIT : LIMIT, `${name}: ${err.message}`);
  }
  for (const [name, text] of Object.entries(documents(100))) {
    const { ontology } = await readDocument(text, { fileName: name });
    assert.ok([...ontology.axioms()].length > 0, name);
  }
});

test('load_ontology refuses deeply nested documents with parse_error naming the limit; the server keeps serving', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-nesting-'));
  try {
    const { c } = await zoo();
    for (const [name, text] of Object.entries(documents(DEEP))) {
      await writeFile(path.join(dir, name), text);
      const r = await call(c, 'load_ontology', { source: path.join(dir, name) });
      assert.equal(r.body.error_code, 'parse_error', `${name}: ${JSON.stringify(r.body).slice(0, 300)}`);
      assert.match(String(r.body.error), name.endsWith('.jsonld') ? JSON_LD_LIMIT : LIMIT, name);
    }
    await callOk(c, 'add_axiom', { axiom_type: 'subclass_of', sub: 'Bird', super: 'Animal' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
