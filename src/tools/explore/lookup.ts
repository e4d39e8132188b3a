// Explore & search tools (TOOLS.md 3.1): list_ontologies, get_active_ontology, get_entity.

import * as v from 'valibot';
import { ontologyLabel } from '../../model/workspace.js';
import { defineTool, never, ToolFailure } from '../core/tool.js';
import { logicalAxiomCount, AnyList } from '../core/result-shapes.js';
import { entityRow } from '../../report/rows.js';
import { JournalSummaryOutput, journalSummary, lastChangesField } from '../history/change-journal-tools.js';
import { lookUpEntities } from './ontology-context.js';

const NoArgs = v.strictObject({});

const Nullable = v.nullable(v.string());

export const listOntologies = defineTool({
  name: 'list_ontologies',
  description: 'Loaded ontologies in load order: counts, dirty flags, documents.',
  input: NoArgs,
  output: v.object({
    count: v.number(),
    active: Nullable,
    dirty_count: v.number(),
    ontologies: v.array(
      v.object({
        id: v.string(),
        anonymous: v.boolean(),
        active: v.boolean(),
        dirty: v.boolean(),
        axioms: v.number(),
        logical_axioms: v.number(),
        document: Nullable,
      }),
    ),
    journal: JournalSummaryOutput,
    note: v.string(),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (_args, ctx) => {
    const ws = ctx.workspace;
    const active = ws.hasActive ? ws.active : null;
    const ontologies = ws.ontologies.map((o) => ({
      id: ontologyLabel(o),
      anonymous: o.id.iri === null,
      active: o === active,
      dirty: ws.isDirty(o),
      axioms: o.axiomCount,
      logical_axioms: logicalAxiomCount(o, ws),
      document: o.documentIri,
    }));
    return {
      count: ontologies.length,
      active: active === null ? null : ontologyLabel(active),
      dirty_count: ws.dirtyCount,
      ontologies,
      ...journalSummary(ctx),
      note: 'The active ontology is the edit target; save_ontology all=true saves every dirty one.',
    };
  },
});

export const getActiveOntology = defineTool({
  name: 'get_active_ontology',
  description: 'The active ontology: id, version, axiom counts, direct imports, write protection.',
  input: NoArgs,
  output: v.object({
    ontology_iri: Nullable,
    version_iri: Nullable,
    anonymous: v.boolean(),
    axioms: v.number(),
    logical_axioms: v.number(),
    direct_imports: v.array(v.string()),
    write_protection: v.string(),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (_args, { workspace: ws, settings }) => {
    const o = ws.active;
    return {
      ontology_iri: o.id.iri,
      version_iri: o.id.versionIri,
      anonymous: o.id.iri === null,
      axioms: o.axiomCount,
      logical_axioms: logicalAxiomCount(o, ws),
      direct_imports: [...o.imports].sort(),
      write_protection: settings.read_only ? 'read-only (server setting)' : 'writable',
    };
  },
});

export const getEntity = defineTool({
  name: 'get_entity',
  description: 'Look up an entity; a punned IRI yields one match per entity type.',
  input: v.strictObject({ entity: v.pipe(v.string(), v.nonEmpty()) }),
  output: v.object({
    query: v.string(),
    count: v.number(),
    matches: AnyList,
    note: v.optional(v.string()),
    last_changes: v.optional(AnyList),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: (args, ctx) => {
    // every sense of the IRI, or every candidate of a shared display name; an unknown prefix names nothing
    const matches = lookUpEntities(args.entity, ctx).map((e) => entityRow(e, ctx));
    if (matches.length === 0) throw new ToolFailure(`No entity found for '${args.entity}'.`, 'not_found');
    const distinct = new Set(matches.map((m) => m.iri)).size;
    return {
      query: args.entity,
      count: matches.length,
      matches,
      ...lastChangesField(
        matches.map((m) => m.iri),
        ctx,
      ),
      ...(matches.length > 1
        ? {
            note:
              distinct === 1
                ? 'The IRI is punned: one match per entity type.'
                : 'The name is shared by several IRIs: every candidate is listed.',
          }
        : {}),
    };
  },
});
