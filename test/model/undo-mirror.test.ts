import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ontology } from '../../src/model/ontology.js';
import { UndoMirror } from '../../src/model/undo-mirror.js';
import * as t from '../../src/model/terms.js';
import type { Change } from '../../src/model/changes.js';
import { ex, workspaceWith } from './helpers.js';

const add = (o: Ontology, name: string): Change => ({
  kind: 'AddAxiom',
  ontology: o,
  axiom: t.subClassOf(t.cls(ex(name)), t.cls(ex('Top'))),
});

/** A workspace and a mirror whose units are the names of the axioms each batch added. */
function mirrored(kept?: number) {
  const a = new Ontology();
  a.id = { iri: ex('a'), versionIri: null };
  const b = new Ontology();
  b.id = { iri: ex('b'), versionIri: null };
  const ws = workspaceWith(a, b);
  const mirror = new UndoMirror<string>(ws, kept);
  const moved: (string | null)[] = [];
  ws.onChange((e) => {
    if (e.cause !== 'apply') moved.push(mirror.moving(e.cause));
    mirror.follow(
      e,
      e.changes
        .map((r) => (r.change.kind === 'AddAxiom' ? ((r.change.axiom as t.SubClassOf).sub as t.Class).iri : r.change.kind))
        .join(','),
    );
  });
  return { ws, a, b, mirror, moved };
}

test('the mirror follows apply, undo and redo; a prefix-only batch is no undo unit', () => {
  const { ws, a, mirror, moved } = mirrored();
  ws.apply([add(a, 'X')]);
  ws.apply([add(a, 'Y')]);
  ws.apply([{ kind: 'SetPrefix', ontology: a, prefix: 'p:', namespace: ex('p#') }]);
  const y = mirror.next('undo');
  assert.ok(y?.includes('Y'));
  ws.undo();
  assert.equal(mirror.next('redo'), y);
  assert.ok(mirror.next('undo')?.includes('X'));
  ws.redo();
  assert.ok(mirror.next('undo')?.includes('Y'));
  assert.equal(mirror.next('redo'), null);
  // a listener running during the undo and the redo saw the unit each moved
  assert.deepEqual(moved, [y, y]);
});

test('units beyond the cap are forgotten but the mirror stays in step, and undo reaches them as unknown', () => {
  const { ws, a, mirror } = mirrored(3);
  for (let i = 0; i < 6; i++) ws.apply([add(a, `N${i}`)]);
  const seen: (string | null)[] = [];
  for (let i = 0; i < 6; i++) {
    seen.push(mirror.next('undo'));
    ws.undo();
  }
  assert.deepEqual(
    seen.map((s) => s !== null && /N(\d)/.exec(s)![1]),
    ['5', '4', '3', false, false, false],
  );
  assert.equal(mirror.next('undo'), null);
  assert.equal(ws.redoDepth, 6);
});

test('after an unload takes units along, the mirror knows only the units pushed since', () => {
  const { ws, a, b, mirror, moved } = mirrored();
  ws.apply([add(a, 'A1')]);
  ws.apply([add(b, 'B1')]);
  ws.unload(b);
  assert.equal(mirror.next('undo'), null);
  ws.apply([add(a, 'A2')]);
  assert.ok(mirror.next('undo')?.includes('A2'));
  ws.undo();
  ws.undo();
  // the unit of A1 is not known any more: linking nothing beats linking B1's
  assert.deepEqual(
    moved.map((m) => m !== null && m.includes('A2')),
    [true, false],
  );
  assert.equal(moved[1], null);
});
