// merge_ontology_document (TOOLS.md 3.6): copies a document's axioms, direct import declarations and
// ontology annotations into the active ontology as one undo entry, optionally replacing the active content
// and copying the ontology id. The document is fetched, authorized, parsed and its imports resolved exactly
// as load_ontology does (load-save.ts); the imports the catalog resolves are attached (not undoable, like a
// load) so the merged declarations resolve. `preview` fetches and parses and reports only.

import * as v from 'valibot';
import type { Change } from '../../model/changes.js';
import { ontologyIds, type Ontology, type OntologyId } from '../../model/ontology.js';
import { ontologyLabel, type Workspace } from '../../model/workspace.js';
import { defineTool, type JsonObject, type ToolContext } from '../core/tool.js';
import { activeCounts } from '../core/result-shapes.js';
import { fetchSource, importEdges, parseDocument, prepareImports } from './load-save.js';

interface Counts {
  axioms: number;
  imports: number;
  ontology_annotations: number;
}

const countsOf = (o: Ontology): Counts => ({ axioms: o.axiomCount, imports: o.imports.size, ontology_annotations: o.annotations.size });

/** Why the document's id cannot be copied (it names another loaded ontology, or there is none), or null. */
function idObstacle(ws: Workspace, active: Ontology, id: OntologyId): string | null {
  if (id.iri === null) return 'the document is an anonymous ontology: there is no id to copy';
  for (const iri of ontologyIds({ id })) {
    const other = ws.find(iri);
    if (other !== undefined && other !== active)
      return `Ontology id ${iri} is already in use by another loaded ontology (${ontologyLabel(other)}); the active ontology keeps its id`;
  }
  return null;
}

/** The changes of the merge, in order: removals (replace_active), then additions, then the id. */
function mergeChanges(active: Ontology, doc: Ontology, replace: boolean, copyId: boolean): Change[] {
  const changes: Change[] = [];
  if (replace) {
    // only what the document does not hold again: removing and re-adding an axiom would be a no-op pair
    for (const axiom of active.axioms()) if (!doc.has(axiom)) changes.push({ kind: 'RemoveAxiom', ontology: active, axiom });
    for (const iri of active.imports) if (!doc.imports.has(iri)) changes.push({ kind: 'RemoveImport', ontology: active, iri });
    for (const annotation of active.annotations)
      if (!doc.annotations.has(annotation)) changes.push({ kind: 'RemoveOntologyAnnotation', ontology: active, annotation });
  }
  for (const axiom of doc.axioms()) if (!active.has(axiom)) changes.push({ kind: 'AddAxiom', ontology: active, axiom });
  for (const iri of [...doc.imports].sort()) if (!active.imports.has(iri)) changes.push({ kind: 'AddImport', ontology: active, iri });
  for (const annotation of doc.annotations)
    if (!active.annotations.has(annotation)) changes.push({ kind: 'AddOntologyAnnotation', ontology: active, annotation });
  if (copyId) changes.push({ kind: 'SetOntologyId', ontology: active, id: doc.id });
  return changes;
}

function alreadyPresent(active: Ontology, doc: Ontology): number {
  let n = 0;
  for (const a of doc.axioms()) if (active.has(a)) n++;
  return n;
}

export const mergeOntologyDocument = defineTool({
  name: 'merge_ontology_document',
  description: "Copy a document's axioms, imports and annotations into the active ontology.",
  input: v.strictObject({
    source: v.pipe(v.string(), v.nonEmpty()),
    replace_active: v.optional(v.boolean(), false),
    copy_ontology_id: v.optional(v.boolean()),
    preview: v.optional(v.boolean(), false),
    connection_timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000)), 15000),
    missing_imports: v.optional(v.picklist(['warn', 'error', 'silent']), 'warn'),
    network: v.optional(v.picklist(['deny', 'allow'])),
    lock_mode: v.optional(v.picklist(['ignore', 'verify', 'required']), 'ignore'),
  }),
  capabilities: ['ontology:admin', 'filesystem:project:read'],
  mutating: (args) => !args.preview,
  // a document to fetch over the network is fetched once, by the call itself
  rehearse: (args) => !/^https?:/i.test(args.source),
  destructive: true,
  openWorld: true,
  summary: (args) => `merge_ontology_document ${args.source}${args.replace_active ? ' (replace active)' : ''}`,
  handler: async (args, ctx: ToolContext) => {
    const ws = ctx.workspace;
    const { text, document, base } = await fetchSource(
      ctx,
      args.source,
      args.connection_timeout_ms,
      args.network,
      'merge_ontology_document',
    );
    const { plan, lock } = await prepareImports(
      await parseDocument(text, base, document, ctx.signal),
      { text, base, document },
      args,
      ctx,
      'merged',
    );
    const doc = plan.root;
    const active = ws.active;
    const wantId = args.copy_ontology_id ?? args.replace_active;
    const obstacle = wantId ? idObstacle(ws, active, doc.id) : null;
    const copyId = wantId && obstacle === null;
    const changes = mergeChanges(active, doc, args.replace_active, copyId);
    const header = {
      merged_document: document,
      source_ontology: ontologyLabel(doc),
      replace_active: args.replace_active,
      missing_imports_mode: args.missing_imports,
      ...(lock === null ? {} : { import_lock_verification: lock }),
    };
    const removed = args.replace_active ? countsOf(active) : null;
    const previewEdges = (): JsonObject => {
      const edges = importEdges((iri) => ws.find(iri) ?? plan.attach.find((o) => ontologyIds(o).includes(iri)), doc, plan.reasons);
      return { resolved_imports: edges.resolved, unresolved_imports: args.missing_imports === 'silent' ? [] : edges.unresolved };
    };
    if (args.preview) {
      return {
        ...header,
        preview: true,
        would_copy: { ...countsOf(doc), ontology_id: copyId },
        ...(removed === null ? {} : { would_remove: removed }),
        ...(args.replace_active ? {} : { already_present_axioms: alreadyPresent(active, doc) }),
        ...(obstacle === null || !wantId ? {} : { skipped_ontology_id: obstacle }),
        total_changes: changes.length,
        // the document's import edges as the merge would resolve them: loaded ontologies, or the documents it would attach
        ...previewEdges(),
        note: 'Preview only: nothing was merged and no import was attached.',
      };
    }
    // the last point a cancelled merge can stop: nothing is attached or changed yet
    ctx.signal.throwIfAborted();
    for (const imported of plan.attach) if (ontologyIds(imported).every((iri) => ws.find(iri) === undefined)) ws.load(imported, false);
    const batch = ws.apply(changes);
    const edges = importEdges((iri) => ws.find(iri), active, plan.reasons);
    const result: JsonObject = {
      ...header,
      ...(removed === null ? {} : { removed }),
      copied: { ...countsOf(doc), ontology_id: copyId },
      ...(obstacle === null || !wantId ? {} : { skipped_ontology_id: obstacle }),
      changed: batch.effective,
      resolved_imports: edges.resolved,
      unresolved_imports: args.missing_imports === 'silent' ? [] : edges.unresolved,
      active: activeCounts(ws),
      active_ontology: ontologyLabel(active),
      note:
        plan.attach.length === 0
          ? 'One undo entry (undo_change reverts the whole merge).'
          : `One undo entry (undo_change reverts the whole merge); the ${plan.attach.length} imported document(s) attached for it stay loaded (loads are not undoable).`,
    };
    return result;
  },
});
