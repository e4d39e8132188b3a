// The import graph: depths and roles, every declaration edge (missing ones too), cycles and conflicts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importConflicts, importCycles, importGraph, importedNodes, missingEdges } from '../../src/imports/closure.js';
import { finder, ontology } from './support.js';
import { at } from '../support/at.js';

test('depth is the shortest import distance; roles say root, direct or transitive', () => {
  const root = ontology('http://ex.org/root', ['http://ex.org/a', 'http://ex.org/b'], '/p/root.ttl');
  const a = ontology('http://ex.org/a', ['http://ex.org/c'], '/p/a.ttl');
  const b = ontology('http://ex.org/b', ['http://ex.org/a'], 'https://remote.example/b.owl');
  const c = ontology('http://ex.org/c', [], null);
  const g = importGraph(root, finder([root, a, b, c]));
  assert.deepEqual(
    g.nodes.map((n) => [n.ref, n.depth, n.role, n.source_type]),
    [
      ['http://ex.org/root', 0, 'root', 'local'],
      ['http://ex.org/a', 1, 'direct', 'local'],
      ['http://ex.org/b', 1, 'direct', 'remote'],
      ['http://ex.org/c', 2, 'transitive', 'memory'],
    ],
  );
  assert.deepEqual(
    g.edges.map((e) => [e.source.ref, e.import_iri, e.depth, e.direct]),
    [
      ['http://ex.org/a', 'http://ex.org/c', 2, false],
      ['http://ex.org/b', 'http://ex.org/a', 2, false],
      ['http://ex.org/root', 'http://ex.org/a', 1, true],
      ['http://ex.org/root', 'http://ex.org/b', 1, true],
    ],
  );
  assert.deepEqual(
    importedNodes(g).map((n) => n.ref),
    ['http://ex.org/a', 'http://ex.org/b', 'http://ex.org/c'],
  );
  assert.deepEqual(importCycles(g), []);
});

test('an import declared by a version IRI resolves to that version; an unknown one is a missing edge', () => {
  const root = ontology('http://ex.org/root', ['http://ex.org/a/v2', 'http://ex.org/gone']);
  const a = ontology('http://ex.org/a', [], '/p/a.ttl', 'http://ex.org/a/v2');
  const g = importGraph(root, finder([root, a]));
  assert.deepEqual(
    missingEdges(g).map((e) => [e.source.ref, e.import_iri]),
    [['http://ex.org/root', 'http://ex.org/gone']],
  );
  assert.equal(at(g.nodes, 1).ref, 'http://ex.org/a http://ex.org/a/v2');
});

test('cycles are found as strongly connected groups, including a self-import and a cycle through the root', () => {
  const root = ontology('http://ex.org/root', ['http://ex.org/a', 'http://ex.org/s']);
  const a = ontology('http://ex.org/a', ['http://ex.org/b']);
  const b = ontology('http://ex.org/b', ['http://ex.org/a', 'http://ex.org/root']);
  const s = ontology('http://ex.org/s', ['http://ex.org/s']);
  const g = importGraph(root, finder([root, a, b, s]));
  assert.deepEqual(importCycles(g), [
    { ontologies: ['http://ex.org/a', 'http://ex.org/b', 'http://ex.org/root'], size: 3, self_loop: false },
    { ontologies: ['http://ex.org/s'], size: 1, self_loop: true },
  ]);
  // the root is not counted among its own imports even when a cycle leads back to it
  assert.deepEqual(
    importedNodes(g).map((n) => n.ref),
    ['http://ex.org/a', 'http://ex.org/s', 'http://ex.org/b'],
  );
});

test('a long import chain is walked without exhausting the stack', () => {
  const chain = Array.from({ length: 20000 }, (_, i) =>
    ontology(`http://ex.org/o${i}`, i + 1 < 20000 ? [`http://ex.org/o${i + 1}`] : ['http://ex.org/o0']),
  );
  const byIri = new Map(chain.map((o) => [o.id.iri!, o]));
  const g = importGraph(at(chain, 0), (iri) => byIri.get(iri));
  const cycles = importCycles(g);
  assert.equal(cycles.length, 1);
  assert.equal(at(cycles, 0).size, 20000);
});

test('conflicts: several versions of one ontology IRI, a shared version IRI, one document read twice', () => {
  const root = ontology('http://ex.org/root', ['http://ex.org/a/1', 'http://ex.org/a/2', 'http://ex.org/x', 'http://ex.org/y']);
  const a1 = ontology('http://ex.org/a', [], '/p/a1.ttl', 'http://ex.org/a/1');
  const a2 = ontology('http://ex.org/a', [], '/p/a2.ttl', 'http://ex.org/a/2');
  const x = ontology('http://ex.org/x', [], '/p/same.ttl', 'http://ex.org/v');
  const y = ontology('http://ex.org/y', [], '/p/same.ttl', 'http://ex.org/v');
  const lookup = new Map([
    ['http://ex.org/a/1', a1],
    ['http://ex.org/a/2', a2],
    ['http://ex.org/x', x],
    ['http://ex.org/y', y],
  ]);
  const g = importGraph(root, (iri) => lookup.get(iri));
  assert.deepEqual(
    importConflicts(g).map((c) => [c.type, c.value, c.ontologies.length]),
    [
      ['document_iri_collision', '/p/same.ttl', 2],
      ['multiple_versions', 'http://ex.org/a', 2],
      ['version_iri_collision', 'http://ex.org/v', 2],
    ],
  );
});
