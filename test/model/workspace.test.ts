import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Workspace, WorkspaceError, type ChangeEvent } from '../../src/model/workspace.js';
import { Ontology } from '../../src/model/ontology.js';
import * as t from '../../src/model/terms.js';
import { zoo, ex, workspaceWith } from './helpers.js';
import { at } from '../support/at.js';

const ax = (sub: string) => t.subClassOf(t.cls(ex(sub)), t.cls(ex('Animal')));

function named(iri: string, imports: string[] = [], version: string | null = null): Ontology {
  const o = new Ontology();
  o.id = { iri, versionIri: version };
  for (const i of imports) o.imports.add(i);
  return o;
}

test('undo and redo across batches; one batch is one undo unit', () => {
  const o = zoo();
  const ws = workspaceWith(o);
  ws.apply([
    { kind: 'AddAxiom', ontology: o, axiom: ax('A') },
    { kind: 'AddAxiom', ontology: o, axiom: ax('B') },
  ]);
  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: ax('C') }]);
  assert.equal(ws.undoDepth, 2);
  ws.undo();
  assert.equal(o.has(ax('C')), false);
  assert.equal(o.has(ax('B')), true);
  ws.undo();
  assert.equal(o.has(ax('A')) || o.has(ax('B')), false);
  assert.throws(
    () => ws.undo(),
    (e: unknown) => e instanceof WorkspaceError && e.code === 'nothing_to_undo',
  );
  ws.redo();
  assert.equal(o.has(ax('A')) && o.has(ax('B')), true);
  assert.equal(o.has(ax('C')), false);
  ws.redo();
  assert.equal(o.has(ax('C')), true);
  assert.equal(ws.redoDepth, 0);
});

test('a new change clears redo; a no-op batch does not', () => {
  const o = zoo();
  const ws = workspaceWith(o);
  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: ax('A') }]);
  ws.undo();
  assert.equal(ws.redoDepth, 1);
  ws.apply([{ kind: 'RemoveAxiom', ontology: o, axiom: ax('Z') }]);
  assert.equal(ws.redoDepth, 1);
  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: ax('B') }]);
  assert.equal(ws.redoDepth, 0);
});

test('revision increases with every change, undo and redo, not with no-ops', () => {
  const o = zoo();
  const ws = workspaceWith(o);
  const seen = [ws.revision];
  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: ax('A') }]);
  seen.push(ws.revision);
  ws.undo();
  seen.push(ws.revision);
  ws.redo();
  seen.push(ws.revision);
  ws.apply([{ kind: 'SetPrefix', ontology: o, prefix: 'p:', namespace: 'http://p/' }]);
  seen.push(ws.revision);
  for (let i = 1; i < seen.length; i++) assert.ok(at(seen, i) > at(seen, i - 1), `revision ${seen}`);
  const r = ws.revision;
  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: ax('A') }]);
  assert.equal(ws.revision, r);
});

test('undo of a batch with a prefix change undoes only its undoable part', () => {
  const o = zoo();
  const ws = workspaceWith(o);
  ws.apply([
    { kind: 'SetPrefix', ontology: o, prefix: 'p:', namespace: 'http://p/' },
    { kind: 'AddAxiom', ontology: o, axiom: ax('A') },
  ]);
  ws.undo();
  assert.equal(o.has(ax('A')), false);
  assert.equal(o.prefixes.get('p:'), 'http://p/');
  // a prefix-only batch leaves no undo entry
  ws.apply([{ kind: 'RemovePrefix', ontology: o, prefix: 'p:' }]);
  assert.equal(ws.undoDepth, 0);
});

test('dirty is set by changes, survives undo, and is cleared only by markSaved', () => {
  const o = zoo();
  const other = named('http://other.org/o');
  const ws = workspaceWith(o, other);
  assert.equal(ws.isDirty(o), false);
  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: ax('A') }]);
  ws.undo();
  assert.equal(ws.isDirty(o), true);
  assert.equal(ws.isDirty(other), false);
  ws.markSaved(o);
  assert.equal(ws.isDirty(o), false);
});

test('listeners get each applied batch with the new revision; unsubscribe stops them', () => {
  const o = zoo();
  const ws = workspaceWith(o);
  const events: ChangeEvent[] = [];
  const off = ws.onChange((e) => events.push(e));
  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: ax('A') }]);
  ws.undo();
  assert.deepEqual(
    events.map((e) => [e.cause, e.revision, e.changes.length]),
    [
      ['apply', ws.revision - 1, 1],
      ['undo', ws.revision, 1],
    ],
  );
  off();
  ws.redo();
  assert.equal(events.length, 2);
});

test('set ontology id refuses an id bound to another loaded ontology, changing nothing', () => {
  const a = zoo();
  const b = named('http://other.org/o', [], 'http://other.org/o/2');
  const ws = workspaceWith(a, b);
  const before = ws.revision;
  for (const id of [
    { iri: 'http://other.org/o', versionIri: null },
    { iri: 'http://new.org/o', versionIri: 'http://other.org/o/2' },
  ]) {
    assert.throws(
      () =>
        ws.apply([
          { kind: 'AddAxiom', ontology: a, axiom: ax('A') },
          { kind: 'SetOntologyId', ontology: a, id },
        ]),
      (e: unknown) => e instanceof WorkspaceError && e.code === 'id_in_use' && /already in use/.test(e.message),
    );
  }
  assert.equal(a.has(ax('A')), false);
  assert.equal(ws.revision, before);
  ws.apply([{ kind: 'SetOntologyId', ontology: a, id: { iri: 'http://new.org/o', versionIri: null } }]);
  assert.equal(ws.find('http://new.org/o'), a);
  ws.undo();
  assert.equal(a.id.iri, 'http://example.org/zoo');
});

test('lookup by ontology IRI or version IRI; imports closure and missing imports', () => {
  const top = named('http://t/top', ['http://t/mid', 'http://t/absent']);
  const mid = named('http://t/mid', ['http://t/leaf-v1', 'http://t/top']);
  const leaf = named('http://t/leaf', ['http://t/gone'], 'http://t/leaf-v1');
  const ws = workspaceWith(top, mid, leaf);
  assert.equal(ws.find('http://t/leaf-v1'), leaf);
  assert.equal(ws.find('http://t/leaf'), leaf);
  assert.equal(ws.find('http://t/nope'), undefined);
  assert.deepEqual(ws.importsClosure(top), [top, mid, leaf]);
  assert.deepEqual(ws.missingImports(top), ['http://t/absent', 'http://t/gone']);
  assert.deepEqual(ws.missingImports(leaf), ['http://t/gone']);
});

test('unload drops the ontology, its undo entries and moves the active one', () => {
  const a = zoo();
  const b = named('http://other.org/o');
  const ws = new Workspace();
  ws.load(a);
  ws.load(b, true);
  assert.equal(ws.active, b);
  ws.apply([{ kind: 'AddImport', ontology: b, iri: 'http://x/' }]);
  ws.apply([{ kind: 'AddAxiom', ontology: a, axiom: ax('A') }]);
  ws.unload(b);
  assert.equal(ws.active, a);
  assert.equal(ws.undoDepth, 1);
  assert.throws(
    () => ws.apply([{ kind: 'AddImport', ontology: b, iri: 'http://y/' }]),
    (e: unknown) => e instanceof WorkspaceError && e.code === 'not_loaded',
  );
});

test('a listener that throws is reported as a warning; the change and the other listeners go on', async () => {
  const o = zoo();
  const ws = workspaceWith(o);
  const seen: number[] = [];
  ws.onChange(() => {
    throw new Error('listener bug');
  });
  ws.onChange((e) => seen.push(e.revision));
  const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  try {
    ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: ax('A') }]);
    assert.equal(o.has(ax('A')), true);
    assert.deepEqual(seen, [ws.revision]);
    assert.match((await warned).message, /a change listener threw: listener bug/);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(uncaught, []);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});

test('a rehearsal stops at its commit with what it would apply; calls running meanwhile commit as usual', async () => {
  const o = zoo();
  const ws = workspaceWith(o);
  let release: () => void = () => undefined;
  const paused = new Promise<void>((r) => {
    release = r;
  });
  const rehearsal = ws.rehearse(async () => {
    await paused;
    ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: ax('A') }]);
    throw new Error('not reached: the commit stops the rehearsal');
  });
  // another call commits while the rehearsal waits: it is not caught by it
  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: ax('B') }]);
  release();
  const changes = await rehearsal;
  assert.deepEqual(
    changes?.map((c) => c.kind),
    ['AddAxiom'],
  );
  assert.equal(o.has(ax('A')), false, 'nothing of the rehearsal was applied');
  assert.equal(o.has(ax('B')), true);
  assert.equal(ws.undoDepth, 1);

  assert.deepEqual(
    (await ws.rehearse(() => ws.undo()))?.map((c) => c.kind),
    ['RemoveAxiom'],
    'undo rehearses its inverse',
  );
  assert.equal(o.has(ax('B')), true);
  assert.equal(await ws.rehearse(() => ws.setActive(o)), null, 'switching the active ontology is no content change');
  assert.deepEqual(await ws.rehearse(() => 42), [], 'a call that commits nothing');
  await assert.rejects(
    ws.rehearse(() => {
      throw new WorkspaceError('refused', 'not_loaded');
    }),
    WorkspaceError,
  );
});
