// The change recorder over the file journal and a real document, restarted as a new workspace loading the
// same file: removals of axioms with anonymous individuals replay onto the reloaded individuals (whose
// node ids differ from the first load's), and revisions go on past the journaled ones. Two writers of one
// document (threads, windows) never share a sequence number.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { FileChangeStore } from '../../src/journal/file-store.js';
import { ChangeRecorder } from '../../src/journal/recorder.js';
import { documentFingerprint } from '../../src/model/fingerprint.js';
import { loadOntologyFile } from '../../src/model/io.js';
import { Workspace } from '../../src/model/workspace.js';
import type { Ontology } from '../../src/model/ontology.js';
import { LineRenderer } from '../../src/model/render/axiom-lines.js';
import * as t from '../../src/model/terms.js';
import { anonymousIndividuals } from '../../src/model/walk.js';
import { at } from '../support/at.js';

const EX = 'http://example.org/anon#';
const DOCUMENT = `@prefix : <${EX}> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
:C a owl:Class . :D a owl:Class . :E a owl:Class .
:p a owl:ObjectProperty . :i a owl:NamedIndividual .
[] a :C ; :p :i .
[] a :D .
:i :p [ a :E ] .
`;

interface Window {
  readonly ws: Workspace;
  readonly o: Ontology;
  readonly recorder: ChangeRecorder;
  readonly store: FileChangeStore;
}

/** A window as the worker opens one: the document loaded, the journal opened (replaying what is unsaved). */
async function openWindow(file: string, home: string): Promise<Window> {
  const ws = new Workspace();
  const o = await loadOntologyFile(file);
  ws.load(o, true);
  const store = new FileChangeStore(home, { maxAgeDays: 90, maxBytes: 1 << 30 });
  const recorder = new ChangeRecorder(ws, store);
  await recorder.open();
  ws.beforeCommit = () => recorder.prepare();
  return { ws, o, recorder, store };
}

const shape = new LineRenderer(() => '_:?');

/** The axioms of `o` with an anonymous individual, each blanked: the content a reload keeps. */
function anonymousShapes(o: Ontology): string[] {
  return [...o.axioms()]
    .filter((a) => anonymousIndividuals(a).size > 0)
    .map((a) => shape.axiom(a))
    .sort();
}

function findAxiom(o: Ontology, pattern: RegExp): t.Axiom {
  const found = [...o.axioms()].find((a) => pattern.test(shape.axiom(a)));
  assert.ok(found, `no axiom like ${pattern}`);
  return found;
}

async function withDocument(f: (file: string, home: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-recorder-'));
  const file = path.join(dir, 'anon.ttl');
  await writeFile(file, DOCUMENT);
  try {
    await f(file, path.join(dir, 'home'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('removals of axioms with anonymous individuals replay onto the reloaded individuals after a restart', () =>
  withDocument(async (file, home) => {
    const first = await openWindow(file, home);
    const { ws, o } = first;
    // the individual that is a C and has p i: both its axioms go, one batch each
    const isC = findAxiom(o, /^ClassAssertion\(<http:\/\/example.org\/anon#C> _:\?\)$/);
    const [x] = anonymousIndividuals(isC);
    assert.ok(x);
    ws.apply([{ kind: 'RemoveAxiom', ontology: o, axiom: isC }]);
    const hasP = findAxiom(o, /^ObjectPropertyAssertion\(<http:\/\/example.org\/anon#p> _:\? /);
    assert.ok(anonymousIndividuals(hasP).has(x));
    ws.apply([{ kind: 'RemoveAxiom', ontology: o, axiom: hasP }]);
    // the individual that is a D: its class changes to E (a removal, then an add naming the same individual)
    const isD = findAxiom(o, /^ClassAssertion\(<http:\/\/example.org\/anon#D> _:\?\)$/);
    const [y] = anonymousIndividuals(isD);
    assert.ok(y);
    ws.apply([{ kind: 'RemoveAxiom', ontology: o, axiom: isD }]);
    ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: t.classAssertion(t.cls(EX + 'E'), y) }]);
    await first.recorder.durable();
    const before = documentFingerprint(o);
    const shapes = anonymousShapes(o);
    await first.store.close();

    const second = await openWindow(file, home);
    assert.equal(second.recorder.recovered, 4);
    assert.equal(second.recorder.replayMismatches, 0);
    assert.deepEqual(second.recorder.recoveryNotices, []);
    assert.deepEqual(anonymousShapes(second.o), shapes);
    assert.equal(documentFingerprint(second.o), before);
    // the replayed removals undo like the original ones: the C individual gets its p back
    second.ws.undo();
    second.ws.undo();
    second.ws.undo();
    assert.ok(anonymousShapes(second.o).some((s) => /^ObjectPropertyAssertion\(<http:\/\/example.org\/anon#p> _:\? /.test(s)));
    await second.store.close();
  }));

test('revisions go on past the journaled ones after a restart, so since_revision holds', () =>
  withDocument(async (file, home) => {
    const first = await openWindow(file, home);
    const c = (name: string) => t.declaration(t.cls(EX + name));
    for (const name of ['F', 'G', 'H']) first.ws.apply([{ kind: 'AddAxiom', ontology: first.o, axiom: c(name) }]);
    await first.recorder.durable();
    const reached = first.ws.revision;
    await first.store.close();

    const second = await openWindow(file, home);
    assert.ok(second.ws.revision > reached, `revision ${second.ws.revision} after the restart, ${reached} before it`);
    second.ws.apply([{ kind: 'AddAxiom', ontology: second.o, axiom: c('K') }]);
    await second.recorder.durable();
    const state = await second.store.readSince(file, 0);
    const after = state.entries.filter((e) => e.revision_after > reached);
    assert.deepEqual(
      after.map((e) => e.seq),
      [4],
    );
    await second.store.close();
  }));

test('two writers of one document on their own threads never share a seq', () =>
  withDocument(async (file, home) => {
    const worker = (name: string) =>
      new Promise<number[]>((resolve, reject) => {
        const w = new Worker(new URL('./append-worker.js', import.meta.url), { workerData: { home, document: file, name, count: 60 } });
        w.once('message', resolve);
        w.once('error', reject);
      });
    const [a, b] = await Promise.all([worker('a'), worker('b')]);
    for (const seqs of [a, b])
      assert.deepEqual(
        seqs,
        [...seqs].sort((x, y) => x - y),
        'each writer numbers in its order',
      );
    const store = new FileChangeStore(home, { maxAgeDays: 90, maxBytes: 1 << 30 });
    const state = await store.readSince(file, 0);
    await store.close();
    assert.equal(state.entries.length, 120);
    assert.deepEqual(
      state.entries.map((e) => e.seq),
      Array.from({ length: 120 }, (_, i) => i + 1),
    );
    assert.deepEqual(
      [...a, ...b].sort((x, y) => x - y),
      state.entries.map((e) => e.seq),
    );
  }));

test('two windows of one document number their entries apart, and each links its undo to its own entry', () =>
  withDocument(async (file, home) => {
    const one = await openWindow(file, home);
    const two = await openWindow(file, home);
    const c = (name: string) => t.declaration(t.cls(EX + name));
    for (let i = 0; i < 4; i++) {
      one.ws.apply([{ kind: 'AddAxiom', ontology: one.o, axiom: c(`One${i}`) }]);
      two.ws.apply([{ kind: 'AddAxiom', ontology: two.o, axiom: c(`Two${i}`) }]);
    }
    one.ws.undo();
    two.ws.undo();
    await Promise.all([one.recorder.durable(), two.recorder.durable()]);
    const state = await one.store.readSince(file, 0);
    assert.deepEqual(
      state.entries.map((e) => e.seq),
      Array.from({ length: 10 }, (_, i) => i + 1),
    );
    const bySeq = new Map(state.entries.map((e) => [e.seq, e]));
    for (const undo of state.entries.filter((e) => e.cause === 'undo')) {
      const undone = bySeq.get(undo.undoes!);
      assert.ok(undone !== undefined);
      // the undo took back its own window's last add, not the other window's entry of the same seq range
      assert.deepEqual(undo.changes, [{ ...undone.changes[0], op: 'remove_axiom' }]);
      assert.equal(at(undone.changes, 0).op, 'add_axiom');
    }
    await one.store.close();
    await two.store.close();
  }));
