// A window's state is released in one place: dispose() declines undecided writes, cancels jobs and deletes
// their artifact directory, ends the reasoner and SPARQL threads (real worker threads, started by real
// calls), and empties the in-memory stores.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readFunctional } from '../../src/model/formats/functional/reader.js';
import { Workspace } from '../../src/model/workspace.js';
import { WorkspaceResolver } from '../../src/model/resolver.js';
import { reasonerById } from '../../src/reasoner/registry.js';
import { jobOwner } from '../../src/jobs/owner.js';
import { revisionEnvelope } from '../../src/model/revision.js';
import { staticPrincipal } from '../../src/auth/principal.js';
import type { MaterializationPayload } from '../../src/materialization/preview.js';
import { WindowState } from '../../src/window/state.js';

const DOC = `Prefix(:=<http://example.org/w#>)
Ontology(<http://example.org/w>
Declaration(Class(:A)) Declaration(Class(:B)) SubClassOf(:A :B) ClassAssertion(:A :a)
)`;

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

test('dispose releases every part of the window: approvals, jobs and their files, reasoner and SPARQL threads, stores', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'athene-window-'));
  try {
    const workspace = new Workspace();
    workspace.load(readFunctional(DOC));
    const window = new WindowState({ workspace, resolver: new WorkspaceResolver(workspace), windowId: 'w-dispose', home });

    // a write waiting for the owner's decision
    const decision = window.approvals.request({ session_id: 's', tool: 'add_axiom', client: 'c', summary: 'x' }, 60_000);
    assert.equal(window.approvals.list().length, 1);

    // a job that has kept an artifact and runs until it is stopped
    let jobSignal: AbortSignal | null = null;
    let artifactKept!: () => void;
    const kept = new Promise<void>((resolve) => (artifactKept = resolve));
    window.jobs.start(jobOwner(workspace.id, staticPrincipal()), {
      type: 'test',
      idempotencyKey: 'k',
      inputIdentity: 'i',
      baseRevision: revisionEnvelope(workspace),
      policyDigest: null,
      requiredCapabilities: [],
      resultDiscriminator: 'test.v1',
      run: async (handle) => {
        jobSignal = handle.signal;
        await handle.artifact('report', 'text/plain', new TextEncoder().encode('kept'));
        artifactKept();
        await new Promise((resolve) => handle.signal.addEventListener('abort', resolve, { once: true }));
        return {};
      },
    });
    await kept;
    const artifactDir = window.jobs.artifactDir;
    assert.ok(await exists(artifactDir), 'the job kept its artifact on disk');

    // the session's reasoner thread (a classification) and the SPARQL engine's thread (a query)
    window.reasoning.select(reasonerById('el'));
    const run = await window.reasoning.classify(60_000);
    assert.ok(run.started && run.completed);
    assert.ok(window.reasoning.holdsThread, 'the classification left its reasoner thread running');
    const answer = await window.sparql.evaluate('ASK { ?s ?p ?o }', {
      form: 'ASK',
      limit: 0,
      timeoutMs: 60_000,
      signal: new AbortController().signal,
    });
    assert.deepEqual(answer, { kind: 'ask', boolean: true });
    assert.ok(window.sparql.running, 'the SPARQL thread holds the snapshot');

    // in-memory stores with something in them
    window.externalTerms.proposals.set('p', {
      id: 'p',
      owner: 'o',
      grantId: null,
      fingerprint: 'f',
      body: {},
      expires: Date.now() + 60_000,
      claimed: false,
      minted: null,
    });
    window.materializations.put('mat-1', 's', 10, {} as MaterializationPayload);
    const changeSet = window.changeSets.begin(60, 10);
    window.changeSets.ready(changeSet, {});
    assert.equal(window.changeSets.entries().length, 1);

    await window.dispose();

    assert.equal(await decision, false, 'the waiting write was declined');
    assert.equal(window.approvals.list().length, 0);
    assert.ok(jobSignal !== null && (jobSignal as AbortSignal).aborted, 'the running job was cancelled');
    assert.equal(await exists(artifactDir), false, 'the job artifacts were deleted');
    assert.equal(window.reasoning.holdsThread, false, 'the reasoner thread ended');
    assert.equal(window.sparql.running, false, 'the SPARQL thread ended');
    assert.equal(window.externalTerms.proposals.size, 0);
    assert.equal(window.materializations.size, 0);
    assert.equal(window.changeSets.entries().length, 0);
    assert.throws(
      () =>
        window.jobs.start(jobOwner(workspace.id, staticPrincipal()), {
          type: 'test',
          idempotencyKey: 'k2',
          inputIdentity: 'i',
          baseRevision: revisionEnvelope(workspace),
          policyDigest: null,
          requiredCapabilities: [],
          resultDiscriminator: 'test.v1',
          run: async () => ({}),
        }),
      /closing/,
      'no job starts once the window is closing',
    );
    await window.dispose();
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
