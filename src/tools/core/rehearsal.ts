// What the owner sees of a held write (server view, `athene pending`): the exact changes the call would
// apply, found by rehearsing it (Workspace.rehearse: the handler runs up to its commit, nothing is applied)
// and rendered in Manchester syntax with display names.

import type { Change } from '../../model/changes.js';
import { displayName } from '../../model/display.js';
import { ManchesterRenderer } from '../../model/formats/manchester/render.js';
import { renderAxiom } from '../../report/rows.js';
import type { JsonObject, PendingChange, ToolContext, ToolDefinition } from './tool.js';
import { unreachable } from '../../util/unreachable.js';

function rehearses(def: ToolDefinition, args: JsonObject): boolean {
  return typeof def.rehearse === 'function' ? def.rehearse(args) : def.rehearse === true;
}

/** One change as the owner reads it; null for a change that finds the ontology already so (adding a present axiom). */
function pendingChange(c: Change, ctx: ToolContext): PendingChange | null {
  switch (c.kind) {
    case 'AddAxiom':
      return c.ontology.has(c.axiom) ? null : { op: 'add_axiom', manchester: renderAxiom(c.axiom, ctx) };
    case 'RemoveAxiom':
      return c.ontology.has(c.axiom) ? { op: 'remove_axiom', manchester: renderAxiom(c.axiom, ctx) } : null;
    case 'AddOntologyAnnotation':
    case 'RemoveOntologyAnnotation': {
      const text = new ManchesterRenderer((e) => displayName(e, ctx.resolver.closure, ctx.settings.label_language)).annotation(
        c.annotation,
      );
      return {
        op: c.kind === 'AddOntologyAnnotation' ? 'add_ontology_annotation' : 'remove_ontology_annotation',
        manchester: `Annotations: ${text}`,
      };
    }
    case 'AddImport':
      return { op: 'add_import', manchester: `Import: <${c.iri}>` };
    case 'RemoveImport':
      return { op: 'remove_import', manchester: `Import: <${c.iri}>` };
    case 'SetOntologyId':
      return {
        op: 'set_ontology_id',
        manchester: ['Ontology:', ...[c.id.iri, c.id.versionIri].filter((x) => x !== null).map((x) => `<${x}>`)].join(' '),
      };
    case 'SetPrefix':
      return { op: 'set_prefix', manchester: `Prefix: ${c.prefix} <${c.namespace}>` };
    case 'RemovePrefix':
      return { op: 'remove_prefix', manchester: `Prefix: ${c.prefix}` };
    default:
      return unreachable(c);
  }
}

/**
 * The changes a held call would apply, rendered; null when its tool is not rehearsed, or its rehearsal
 * failed or reached a commit of something other than ontology content (the summary stands in then; the
 * call itself will say why it fails).
 */
export async function rehearsedChanges(def: ToolDefinition, args: JsonObject, ctx: ToolContext): Promise<readonly PendingChange[] | null> {
  if (!rehearses(def, args)) return null;
  const { progress: _progress, ...quiet } = ctx;
  try {
    const changes = await ctx.resolver.inCall(() => ctx.workspace.rehearse(() => def.handler(args, quiet)));
    return changes === null ? null : changes.map((c) => pendingChange(c, ctx)).filter((c): c is PendingChange => c !== null);
  } catch {
    return null;
  }
}
