// The editing tools' safety nets on real corpus ontologies, through the real server: a change-set preview
// of a harmless edit is committable although the ontology already has findings (the baseline rule of
// apply_changes verify), and verified, atomic and backup saves accept the server's own output.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { call, callOk, serveAndConnect, type Row } from '../test/server/support.js';
import { corpusDir } from './support/reference.js';

/** Serves a private copy of a corpus file (saves write beside it) and runs `body` with the client. */
async function withCorpusCopy(
  rel: string,
  body: (c: Awaited<ReturnType<typeof serveAndConnect>>['c'], file: string) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-corpus-edit-'));
  const file = path.join(dir, path.basename(rel));
  await copyFile(path.join(corpusDir, rel), file);
  const served = await serveAndConnect([file]);
  try {
    await body(served.c, file);
  } finally {
    await served.close();
    await rm(dir, { recursive: true, force: true });
  }
}

test('pizza: a preview adding one English label is committable; the pre-existing findings are the baseline', async () => {
  await withCorpusCopy('owlapi/pizza.owl', async (c) => {
    const p = await callOk(c, 'preview_change_set', {
      operations: [
        {
          axiom_type: 'annotation_assertion',
          subject: 'http://www.co-ode.org/ontologies/pizza/pizza.owl#Margherita',
          property: 'rdfs:label',
          value: 'Margherita pizza',
          lang: 'en',
        },
      ],
    });
    assert.equal(p.committable, true, JSON.stringify(p.committable_reasons));
    assert.deepEqual(p.committable_reasons, []);
    // pizza's own findings (profile errors, structural warnings) are the baseline, not the batch's
    assert.ok(((p.baseline_gate as Row).preexisting_count as number) > 0);
    const structural = ((p.preflight as Row).stages as Row[]).find((s) => s.stage === 'structural')!;
    assert.equal(structural.verdict, 'warn', 'structural smells are warnings, which fail_on error does not block');
    const done = await callOk(c, 'commit_change_set', { change_set_id: p.change_set_id, expected_revision: p.base_revision });
    assert.equal(done.committed, true);
  });
});

test('the default preview gates leave a harmless edit committable on every real ontology', async () => {
  for (const rel of ['owlapi/koala.owl', 'bfo-2020/bfo-core.owl', 'iao/iao.owl', 'goodrelations/goodrelations.ttl', 'ro/core.owl']) {
    await withCorpusCopy(rel, async (c) => {
      const [first] = (await callOk(c, 'list_classes', { limit: 1 })).items as Row[];
      assert.ok(first !== undefined, `${rel} lists a class`);
      const p = await callOk(c, 'preview_change_set', {
        operations: [{ axiom_type: 'annotation_assertion', subject: first.iri, property: 'rdfs:comment', value: 'reviewed', lang: 'en' }],
      });
      assert.equal(p.committable, true, `${rel}: ${JSON.stringify(p.committable_reasons)}`);
    });
  }
});

test("verified, atomic and backup saves accept the server's own output, anonymous individuals included", async () => {
  const cases: [string, string[]][] = [
    ['owlapi/pizza.owl', ['ttl', 'owl']],
    ['owlapi/koala.owl', ['ttl', 'owl']],
    ['goodrelations/goodrelations.ttl', ['ttl', 'owl']],
    ['ro/ro.owl', ['owl']],
    ['oaei-anatomy/mouse.owl', ['owl']],
  ];
  for (const [rel, exts] of cases) {
    await withCorpusCopy(rel, async (c, file) => {
      for (const ext of exts) {
        const target = `${file}.saved.${ext}`;
        for (const mode of ['verify_round_trip', 'atomic', 'backup']) {
          const saved = await call(c, 'save_ontology', { path: target, [mode]: true });
          assert.equal(saved.isError, false, `${rel} as .${ext} (${mode}): ${JSON.stringify(saved.body).slice(0, 2000)}`);
          assert.equal((saved.body.round_trip as Row).axioms, true);
        }
      }
    });
  }
});
