// DL queries and the machinery under them without the server: snapshots (revision-tagged, exact round trip),
// the query answer selection, and queries answered on the pool through a workspace's ReasoningSession.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { Workspace } from '../../src/model/workspace.js';
import { WorkspaceResolver } from '../../src/model/resolver.js';
import { cls, isLogicalAxiom, subClassOf } from '../../src/model/terms.js';
import { readSnapshotAxioms, queryAxiom, snapshotRenderer } from '../../src/reasoner/snapshot.js';
import { decodeAxioms, encodeAxioms } from '../../src/model/transfer.js';
import { parseDlQuery, runDlQuery, selectAnswer, QUERY_CLASS_IRI } from '../../src/reasoner/dl-query.js';
import { ReasoningSession } from '../../src/reasoner/pool.js';
import { reasonerById } from '../../src/reasoner/registry.js';
import type { QueryData } from '../../src/reasoner/pool-worker.js';

const E = 'http://example.org/q#';

const DOC = `Prefix(:=<${E}>)
Ontology(<http://example.org/q>
Declaration(Class(:Animal)) Declaration(Class(:Dog)) Declaration(Class(:Person)) Declaration(Class(:Owner))
Declaration(ObjectProperty(:owns)) Declaration(NamedIndividual(:ann)) Declaration(NamedIndividual(:fido))
AnnotationAssertion(<http://www.w3.org/2000/01/rdf-schema#label> :Dog "hound")
SubClassOf(:Dog :Animal)
EquivalentClasses(:Owner ObjectIntersectionOf(:Person ObjectSomeValuesFrom(:owns :Animal)))
ClassAssertion(:Person :ann) ClassAssertion(:Dog :fido) ObjectPropertyAssertion(:owns :ann :fido)
ClassAssertion(ObjectSomeValuesFrom(:owns :Dog) _:x)
)`;

function workspace(): { ws: Workspace; resolver: WorkspaceResolver } {
  const ws = new Workspace();
  ws.load(readFunctional(DOC));
  return { ws, resolver: new WorkspaceResolver(ws) };
}

test('a snapshot holds the logical axioms and declarations once, reads back to the same axioms, and follows revisions', () => {
  const { ws } = workspace();
  const session = new ReasoningSession(ws);
  const snap = session.snapshot();
  assert.equal(session.snapshot(), snap, 'cached while the revision stands');
  const expected = [...ws.active.axioms()].filter(
    (a) => isLogicalAxiom(a) || (a.kind === 'Declaration' && a.entity.kind !== 'ObjectProperty'),
  );
  const back = readSnapshotAxioms(snap.text);
  assert.equal(snap.axiomCount, expected.length);
  assert.equal(back.length, expected.length);
  const named = (xs: typeof back) => new Set(xs.filter((a) => a.kind !== 'ClassAssertion' || a.individual.kind === 'NamedIndividual'));
  assert.deepEqual(named(back), named(expected), 'interned axioms without blank nodes are the very same objects');
  assert.ok(!snap.text.includes('hound'), 'annotations do not travel');
  ws.apply([{ kind: 'AddAxiom', ontology: ws.active, axiom: subClassOf(cls(E + 'Person'), cls(E + 'Animal')) }]);
  const next = session.snapshot();
  assert.notEqual(next, snap);
  assert.equal(next.revision, ws.revision);
  assert.equal(next.axiomCount, snap.axiomCount + 1);
});

const DATA: QueryData = {
  timedOut: false,
  engine: 'el',
  consistent: true,
  queryUnsupported: false,
  equivalent: ['e'],
  superDirect: ['sd'],
  superAll: ['sd', 'sa'],
  subDirect: ['bd'],
  subAll: ['bd', 'ba'],
  instancesDirect: ['id'],
  instancesAll: ['id', 'ia'],
  unsupported: { count: 0, sample: encodeAxioms([]) },
  complete: true,
  elapsedMs: 0,
};

test('selectAnswer picks the relation and the direct or transitive list', () => {
  assert.deepEqual(selectAnswer(DATA, 'all', true), { equivalent: ['e'], superclasses: ['sd'], subclasses: ['bd'], instances: ['id'] });
  assert.deepEqual(selectAnswer(DATA, 'all', false), {
    equivalent: ['e'],
    superclasses: ['sd', 'sa'],
    subclasses: ['bd', 'ba'],
    instances: ['id', 'ia'],
  });
  assert.deepEqual(selectAnswer(DATA, 'subclasses', false), { subclasses: ['bd', 'ba'] });
  assert.deepEqual(selectAnswer(DATA, 'equivalent', false), { equivalent: ['e'] });
});

test('parseDlQuery uses the window names (labels, local names) and the query axiom names the fresh class', () => {
  const { resolver } = workspace();
  const expr = parseDlQuery('Person and (owns some hound)', resolver);
  const text = snapshotRenderer().axiom(queryAxiom(QUERY_CLASS_IRI, expr));
  assert.equal(
    text,
    `EquivalentClasses(<${QUERY_CLASS_IRI}> ObjectIntersectionOf(<${E}Person> ObjectSomeValuesFrom(<${E}owns> <${E}Dog>)))`,
  );
  assert.throws(() => parseDlQuery('Person and', resolver), /manchester/);
});

test('runDlQuery answers on the pool: equivalents, super/subclasses, instances; Q never appears', async () => {
  const { ws, resolver } = workspace();
  const session = new ReasoningSession(ws);
  assert.equal(session.selected?.id, 'auto', 'auto until another is selected');
  session.select(reasonerById('el'));
  const q = async (text: string, relation: 'all' | 'instances', direct: boolean) => {
    const out = await runDlQuery(session, parseDlQuery(text, resolver), relation, direct, 10_000);
    assert.equal(out.kind, 'answered');
    return out.kind === 'answered' ? out : assert.fail();
  };
  const owners = await q('Person and (owns some Animal)', 'all', true);
  assert.equal(owners.anonymous, true);
  assert.equal(owners.consistent, true);
  assert.equal(owners.complete, true);
  assert.equal(owners.revision, ws.revision);
  assert.deepEqual(owners.answer.equivalent, [E + 'Owner']);
  assert.deepEqual(owners.answer.superclasses, [E + 'Person']);
  assert.deepEqual(owners.answer.instances, [E + 'ann']);
  const dogOwners = await q('owns some Dog', 'all', false);
  assert.deepEqual(dogOwners.answer.subclasses, [], 'owl:Nothing is left out');
  assert.deepEqual(dogOwners.answer.superclasses, ['http://www.w3.org/2002/07/owl#Thing']);
  assert.deepEqual(dogOwners.answer.instances, [E + 'ann'], 'named individuals only');
  const animals = await q('Animal', 'instances', false);
  assert.equal(animals.anonymous, false);
  assert.deepEqual(animals.answer, { instances: [E + 'fido'] });
  const outside = await q('owns only Dog', 'all', true);
  assert.equal(outside.queryUnsupported, true);
  assert.equal(outside.complete, false);
  assert.match(snapshotRenderer().axiom(decodeAxioms(outside.unsupported.sample)[0]!), /ObjectAllValuesFrom/);
});

test('a DL query over an inconsistent snapshot says so; the structural reasoner keeps to told facts', async () => {
  const ws = new Workspace();
  ws.load(
    readFunctional(
      `Prefix(:=<${E}>) Ontology(Declaration(Class(:A)) Declaration(Class(:B)) DisjointClasses(:A :B) ClassAssertion(:A :i) ClassAssertion(:B :i))`,
    ),
  );
  const resolver = new WorkspaceResolver(ws);
  const session = new ReasoningSession(ws);
  session.select(reasonerById('el'));
  const out = await runDlQuery(session, parseDlQuery('A', resolver), 'all', true, 10_000);
  assert.equal(out.kind === 'answered' && out.consistent, false);
  session.select(reasonerById('structural'));
  const told = await runDlQuery(session, parseDlQuery('A', resolver), 'instances', true, 10_000);
  assert.equal(told.kind === 'answered' && told.consistent, true, 'told-only reasoning ignores the disjointness');
  assert.equal(told.kind === 'answered' && told.complete, false);
});
