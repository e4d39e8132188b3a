import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ontology } from '../../src/model/ontology.js';
import { cls, declaration, subClassOf, type Axiom } from '../../src/model/terms.js';
import { Workspace } from '../../src/model/workspace.js';
import { ReasoningSession, type RunOutcome } from '../../src/reasoner/pool.js';

const X = 'http://example.org/t#';
const c = (n: string | number) => cls(X + n);

function chain(n: number): Axiom[] {
  const out: Axiom[] = [];
  for (let i = 0; i < n; i++) out.push(declaration(c(i)), subClassOf(c(i + 1), c(i)));
  return out;
}

function classified(out: RunOutcome) {
  assert.ok(out.started && out.completed, 'the classification finished');
  return out.classification;
}

test('a session ships its snapshot once; the next revision reaches the reasoner thread as the changed axioms only', async () => {
  const o = new Ontology();
  o.addAll(chain(200));
  const ws = new Workspace();
  ws.load(o);
  const session = new ReasoningSession(ws);

  const first = classified(await session.classify(60_000));
  assert.equal(first.data.load.how, 'full');
  assert.equal(first.data.load.decoded, 400);
  const fullLoads = first.data.load.fullLoads;

  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: subClassOf(c('x'), c(150)) }]);
  const second = classified(await session.classify(60_000));
  assert.deepEqual(second.data.load, { how: 'delta', decoded: 1, fullLoads }, 'one added axiom travels, nothing is decoded again');
  assert.ok(second.superclasses(X + 'x', false).includes(X + '0'), 'the added axiom is reasoned with');

  ws.apply([{ kind: 'RemoveAxiom', ontology: o, axiom: subClassOf(c(101), c(100)) }]);
  const third = classified(await session.classify(60_000));
  assert.deepEqual(third.data.load, { how: 'delta', decoded: 1, fullLoads });
  assert.ok(!third.superclasses(X + 'x', false).includes(X + '0'), 'the removed axiom no longer holds');
  assert.ok(third.superclasses(X + 'x', false).includes(X + '101'));
});

test('after a cancelled run the session still classifies its current revision correctly', async () => {
  const o = new Ontology();
  o.addAll(chain(2000));
  const ws = new Workspace();
  ws.load(o);
  const session = new ReasoningSession(ws);
  classified(await session.classify(60_000));

  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: subClassOf(c('y'), c(1500)) }]);
  const stop = new AbortController();
  stop.abort();
  const cancelled = await session.classify(60_000, stop.signal);
  assert.ok(cancelled.started && !cancelled.completed && cancelled.reason === 'cancelled');

  ws.apply([{ kind: 'AddAxiom', ontology: o, axiom: subClassOf(c('z'), c('y')) }]);
  const after = classified(await session.classify(60_000));
  assert.ok(after.data.load.how === 'delta' || after.data.load.how === 'full');
  assert.ok(after.superclasses(X + 'z', false).includes(X + '0'));
});
