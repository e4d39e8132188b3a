// The approved W3C OWL 2 test cases (owlapi/owl2-testcases-all.rdf) say which profiles each premise
// ontology is in. OWL 2 Structural Specification §5.8.1 asks declarations of classes, datatypes and
// properties only, so no ontology the tests place in DL, EL, QL or RL may be rejected for an undeclared
// named individual, nor for an entity its imported test ontology declares.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { readDocument } from '../src/model/formats/registry.js';
import type { Ontology } from '../src/model/ontology.js';
import { checkProfile } from '../src/model/profiles/check.js';
import type { OwlProfile } from '../src/model/profiles/report.js';
import { readCorpusFile } from './support/reference.js';

const T = 'http://www.w3.org/2007/OWL/testOntology#';
type Node = Record<string, string[]>;

async function manifestNodes(): Promise<Map<string, Node>> {
  const nodes = new Map<string, Node>();
  const parser = new RdfXmlParser();
  const done = new Promise<void>((resolve, reject) => {
    parser.on('data', (q: { subject: { value: string }; predicate: { value: string }; object: { value: string } }) => {
      if (!q.predicate.value.startsWith(T)) return;
      let n = nodes.get(q.subject.value);
      if (n === undefined) nodes.set(q.subject.value, (n = {}));
      (n[q.predicate.value.slice(T.length)] ??= []).push(q.object.value);
    });
    parser.on('end', () => resolve());
    parser.on('error', reject);
  });
  parser.write(readCorpusFile('owlapi/owl2-testcases-all.rdf'));
  parser.end();
  await done;
  return nodes;
}

async function read(n: Node, premise: boolean): Promise<Ontology> {
  const fs = premise ? n.fsPremiseOntology : undefined;
  const text = fs?.[0] ?? (premise ? n.rdfXmlPremiseOntology?.[0] : n.rdfXmlInputOntology?.[0]);
  assert.ok(text !== undefined, 'a premise ontology');
  return (await readDocument(text, { format: fs ? 'ofn' : 'rdfxml', base: 'http://example.org/' })).ontology;
}

test('W3C OWL 2 test cases: no approved DL/EL/QL/RL premise is rejected for an undeclared entity (§5.8.1)', async () => {
  const nodes = await manifestNodes();
  let checked = 0;
  const rejected: string[] = [];
  for (const n of nodes.values()) {
    if (!n.status?.includes(T + 'Approved') || (n.fsPremiseOntology ?? n.rdfXmlPremiseOntology) === undefined) continue;
    const profiles: OwlProfile[] = [];
    if (n.species?.includes(T + 'DL')) profiles.push('DL');
    for (const p of n.profile ?? []) profiles.push(p.slice(T.length) as OwlProfile);
    if (profiles.length === 0) continue;
    const o = await read(n, true);
    const imported = await Promise.all((n.importedOntology ?? []).map((id) => read(nodes.get(id)!, false)));
    for (const p of profiles) {
      const undeclared = checkProfile([o, ...imported], p, o).violations.filter((v) => v.kind === 'undeclared_entity');
      const [first] = undeclared;
      if (first !== undefined) rejected.push(`${n.identifier?.[0]} ${p}: ${first.message}`);
    }
    checked++;
  }
  assert.ok(checked > 200, `checked ${checked} test cases`);
  assert.deepEqual(rejected, []);
});
