// save_ontology serializes, then awaits its verification and backup before writing: a change that lands in
// between makes the save a revision_conflict that writes nothing. save_ontology takes no revision argument
// (TOOLS.md 3.10), so the change is made to land while the save awaits: a pump starts one add_axiom on
// every event-loop turn (check phase) through the real gate, and the save resumes from its policy
// discovery I/O (poll phase), serializes and starts the backup copy (thread-pool I/O), which completes in a
// later poll phase, after at least one check phase.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadOntologyFile } from '../../src/model/io.js';
import { type Row } from '../server/support.js';
import { runInContext, toolContext } from '../support/tool-context.js';

const ZOO = 'http://example.org/zoo';
const ZOO_TTL = `@prefix : <${ZOO}#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<${ZOO}> a owl:Ontology .
:Cat a owl:Class ; rdfs:subClassOf :Mammal .
:Mammal a owl:Class .
`;

test('a change landing while a save awaits makes it a revision_conflict that writes nothing', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-save-conflict-'));
  try {
    const file = path.join(dir, 'zoo.ttl');
    await writeFile(file, ZOO_TTL);
    const ctx = toolContext([await loadOntologyFile(file)]);
    const edit = (name: string) =>
      runInContext('add_axiom', { axiom_type: 'subclass_of', sub: `${ZOO}#${name}`, super: `${ZOO}#Mammal` }, ctx);
    assert.equal((await edit('Dog')).isError, false);
    const before = await runInContext('get_model_revision', {}, ctx);

    let saving = true;
    const edits: Promise<unknown>[] = [];
    const pump = () => {
      if (!saving) return;
      edits.push(edit(`Pumped${edits.length}`).then((r) => assert.equal(r.isError, false, JSON.stringify(r.body))));
      setImmediate(pump);
    };
    setImmediate(pump);
    const save = await runInContext('save_ontology', { backup: true }, ctx);
    saving = false;
    await Promise.all(edits);

    assert.equal(save.isError, true);
    assert.equal(save.body.error_code, 'revision_conflict');
    assert.equal(save.body.saved, false);
    const base = save.body.base_revision as Row;
    const current = save.body.current_revision as Row;
    assert.deepEqual(Object.keys(base).sort(), ['document_fingerprint', 'semantic_fingerprint', 'session_revision', 'workspace_id']);
    assert.equal(base.workspace_id, current.workspace_id);
    assert.ok((current.session_revision as number) > (base.session_revision as number), 'the envelopes show the change that landed');
    assert.notEqual(base.semantic_fingerprint, current.semantic_fingerprint);
    assert.ok((base.session_revision as number) >= ((before.body.revision as Row).session_revision as number));

    assert.equal(await readFile(file, 'utf8'), ZOO_TTL, 'the document is untouched');
    const after = await runInContext('get_model_revision', {}, ctx);
    assert.equal(after.body.dirty, true, 'nothing was saved, so the ontology stays dirty');

    // once nothing changes under it, the same save writes every change, the pumped ones included
    const retry = await runInContext('save_ontology', { backup: true }, ctx);
    assert.equal(retry.isError, false, JSON.stringify(retry.body));
    const saved = await readFile(file, 'utf8');
    assert.match(saved, /Dog/);
    assert.match(saved, new RegExp(`Pumped${edits.length - 1}\\b`));
    assert.equal(await readFile(file + '.bak', 'utf8'), ZOO_TTL, 'the backup holds the document as it was');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
