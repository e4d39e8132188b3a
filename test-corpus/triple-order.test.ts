// Every RDF document of the corpus mapped from its triples in document order and in reversed order gives
// the same ontology: the OWL 2 RDF mapping (Mapping to RDF Graphs §3) is defined on the graph, a set of
// triples, so no axiom, header annotation or unmapped triple may depend on the order the triples come in.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseInto as parseTurtleInto, stripBom } from '../src/model/formats/turtle-reader.js';
import { parseRdfXmlInto } from '../src/model/formats/rdfxml-reader.js';
import { TripleTable } from '../src/model/rdf/rdf-graph-reader.js';
import { triplesToOntology } from '../src/model/rdf/triples-to-owl.js';
import { LineRenderer, axiomLines } from '../src/model/render/axiom-lines.js';
import type { Ontology } from '../src/model/ontology.js';
import { corpusBase, corpusDir, manifest } from './support/reference.js';
import { EXPECTED_LOAD_FAILURES } from './support/known-differences.js';

/** The document's triples as the readers produce them. */
async function triplesOf(text: string, format: string, base: string): Promise<TripleTable> {
  const table = new TripleTable();
  if (format === 'turtle') await parseTurtleInto(stripBom(text), 'turtle', base, table, new Map());
  else await parseRdfXmlInto(stripBom(text), base, table);
  return table;
}

/** The ontology of the triples taken in the given order (term ids are given afresh in that order); blank nodes keep their labels. */
function mapInOrder(source: TripleTable, order: readonly number[]): Ontology {
  const table = new TripleTable('_:order_');
  const id = (t: number | undefined) => {
    const v = t === undefined ? undefined : source.terms[t];
    if (v === undefined) throw new Error(`no term ${t}`);
    return typeof v === 'string' ? table.iri(v) : table.literal(v.lex, v.datatype, v.lang);
  };
  for (const i of order) table.add(id(source.s[i]), id(source.p[i]), id(source.o[i]));
  return triplesToOntology(table);
}

const annotationLines = (o: Ontology) => {
  const r = new LineRenderer((x) => '_:' + x.nodeId);
  return [...o.annotations].map((a) => r.annotation(a)).sort();
};

for (const entry of manifest().filter((e) => (e.format === 'rdfxml' || e.format === 'turtle') && !(e.path in EXPECTED_LOAD_FAILURES))) {
  test(`forward and reversed triple order give the same ontology: ${entry.path}`, async () => {
    const text = await readFile(path.join(corpusDir, entry.path), 'utf8');
    const triples = await triplesOf(text, entry.format, corpusBase(entry.path));
    const order = Array.from({ length: triples.size }, (_, i) => i);
    const forward = mapInOrder(triples, order);
    const reversed = mapInOrder(triples, order.reverse());
    const a = new Set(axiomLines(forward.axioms())),
      b = new Set(axiomLines(reversed.axioms()));
    const onlyForward = [...a].filter((l) => !b.has(l)),
      onlyReversed = [...b].filter((l) => !a.has(l));
    assert.deepEqual(
      {
        onlyForward: onlyForward.slice(0, 20),
        onlyReversed: onlyReversed.slice(0, 20),
        differing: onlyForward.length + onlyReversed.length,
      },
      { onlyForward: [], onlyReversed: [], differing: 0 },
    );
    assert.deepEqual(annotationLines(reversed), annotationLines(forward), 'ontology annotations');
    assert.deepEqual([...reversed.imports].sort(), [...forward.imports].sort(), 'imports');
    assert.deepEqual(reversed.unmapped.map((u) => u.text).sort(), forward.unmapped.map((u) => u.text).sort(), 'unmapped triples');
  });
}
