// Workspace tools (TOOLS.md 3.6): set_active_ontology (switch the edit target) and create_ontology (a new
// empty ontology, optionally bound to a file). Neither is undoable.

import * as v from 'valibot';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ontology } from '../../model/ontology.js';
import { ontologyLabel, type Workspace } from '../../model/workspace.js';
import { STANDARD_PREFIXES } from '../../model/vocab.js';
import { defineTool, always, ToolFailure } from '../core/tool.js';
import { logicalAxiomCount } from '../core/result-shapes.js';
import { absoluteIri } from '../../model/iri.js';
import { saveFormatOf } from './load-save.js';
import { authorizeLocalPath } from '../../policy/authorize.js';

/** The local path a document IRI names (a `file:` URL or a plain path), or null for a remote or no document. */
function documentPath(doc: string | null): string | null {
  if (doc === null) return null;
  if (doc.startsWith('file:')) return fileURLToPath(doc);
  return path.isAbsolute(doc) ? path.normalize(doc) : null;
}

/**
 * The loaded ontology a reference names: its ontology or version IRI, the label list_ontologies shows
 * (an anonymous ontology has no IRI to give), or its document (as listed, a `file:` URL or an absolute path).
 */
function loadedOntology(ws: Workspace, raw: string): Ontology {
  const ref = raw.trim().replace(/^<(.*)>$/, '$1');
  const byIri = ws.find(ref);
  if (byIri !== undefined) return byIri;
  const asPath = documentPath(ref);
  const byLabel = ws.ontologies.filter((o) => ontologyLabel(o) === ref);
  const byDocument = ws.ontologies.filter((o) => o.documentIri === ref || (asPath !== null && documentPath(o.documentIri) === asPath));
  for (const found of [byLabel, byDocument]) {
    const [only] = found;
    if (found.length === 1 && only !== undefined) return only;
    if (found.length > 1) {
      const candidates = found.map((o) => o.documentIri ?? ontologyLabel(o));
      throw new ToolFailure(
        `'${raw}' names ${found.length} loaded ontologies; give the document instead: ${candidates.join(', ')}`,
        'ambiguous_reference',
        { candidates },
      );
    }
  }
  throw new ToolFailure(`No loaded ontology matches '${raw}'. See list_ontologies.`, 'not_found');
}

export const setActiveOntology = defineTool({
  name: 'set_active_ontology',
  description: 'Make a loaded ontology the edit target.',
  input: v.strictObject({
    ontology_iri: v.pipe(v.string(), v.nonEmpty(), v.description('Ontology or version IRI, or list_ontologies label.')),
  }),
  output: v.object({
    active_ontology: v.string(),
    changed: v.boolean(),
    axioms: v.number(),
    logical_axioms: v.number(),
    direct_imports: v.number(),
  }),
  capabilities: ['ontology:admin'],
  mutating: always,
  idempotent: true,
  summary: (args) => `set_active_ontology ${args.ontology_iri}`,
  handler: (args, ctx) => {
    const ws = ctx.workspace;
    const target = loadedOntology(ws, args.ontology_iri);
    const changed = !ws.hasActive || ws.active !== target;
    ws.setActive(target);
    return {
      active_ontology: ontologyLabel(target),
      changed,
      axioms: target.axiomCount,
      logical_axioms: logicalAxiomCount(target, ws),
      direct_imports: target.imports.size,
    };
  },
});

/** The file an ontology is bound to and its format: the one a save there writes (no extension: Turtle). */
function bindingOf(file: string) {
  const target = path.resolve(file);
  return { target, format: saveFormatOf(target, 'turtle') };
}

export const createOntology = defineTool({
  name: 'create_ontology',
  description: 'Create an empty ontology, active unless keep_active; path binds it to a file.',
  input: v.strictObject({
    ontology_iri: v.pipe(v.string(), v.nonEmpty()),
    version_iri: v.optional(v.pipe(v.string(), v.nonEmpty())),
    path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('Format from the extension.'))),
    keep_active: v.optional(v.boolean(), false),
  }),
  output: v.object({
    created_ontology: v.string(),
    active_ontology: v.string(),
    kept_active: v.boolean(),
    workspace_ontologies: v.number(),
    note: v.string(),
    document_iri: v.optional(v.string()),
  }),
  capabilities: ['ontology:admin'],
  mutating: always,
  summary: (args) => `create_ontology ${args.ontology_iri}${args.path === undefined ? '' : ' at ' + args.path}`,
  handler: async (args, ctx) => {
    const ws = ctx.workspace;
    const iri = absoluteIri(args.ontology_iri, 'ontology_iri');
    const versionIri = args.version_iri === undefined ? null : absoluteIri(args.version_iri, 'version_iri');
    for (const id of [iri, versionIri]) {
      const other = id === null ? undefined : ws.find(id);
      if (other !== undefined)
        throw new ToolFailure(`Ontology id ${id} is already in use by a loaded ontology (${ontologyLabel(other)})`, 'id_in_use');
    }
    const binding = args.path === undefined ? null : bindingOf(args.path);
    if (binding !== null) {
      await authorizeLocalPath(ctx, 'create_ontology', binding.target, 'write');
      try {
        await mkdir(path.dirname(binding.target), { recursive: true });
      } catch (err) {
        throw new ToolFailure(`Cannot create the directory of ${binding.target}: ${(err as Error).message}`, 'io_error');
      }
    }
    const o = new Ontology();
    o.id = Object.freeze({ iri, versionIri });
    for (const [prefix, ns] of STANDARD_PREFIXES) o.prefixes.set(prefix, ns);
    o.prefixes.set(':', iri.endsWith('#') || iri.endsWith('/') ? iri : iri + '#');
    if (binding !== null) {
      o.documentIri = binding.target;
      o.format = binding.format;
    }
    // the workspace re-checks the id, covering a load that raced with the directory creation
    ws.load(o, !args.keep_active);
    return {
      created_ontology: ontologyLabel(o),
      active_ontology: ontologyLabel(ws.active),
      kept_active: args.keep_active,
      ...(o.documentIri === null ? {} : { document_iri: o.documentIri }),
      workspace_ontologies: ws.ontologies.length,
      note: 'Creating an ontology is not undoable; save it with save_ontology.',
    };
  },
});
