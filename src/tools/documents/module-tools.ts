// extract_module (TOOLS.md 3.6): a syntactic locality module around a seed signature, computed on the
// module thread from a snapshot of the active ontology (or its imports closure), then loaded into the
// workspace as a new, inactive ontology or saved to a file. Not undoable.

import * as v from 'valibot';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Ontology } from '../../model/ontology.js';
import { entity, type Axiom, type Entity } from '../../model/terms.js';
import { ontologyLabel, type Workspace } from '../../model/workspace.js';
import { NameError, type ResolvedName } from '../../model/names.js';
import { extractModuleOffThread, type ModuleResult } from '../../model/modules/pool.js';
import type { ModuleType } from '../../model/modules/extract.js';
import { authorizeLocalPath } from '../../policy/authorize.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { defineTool, always, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { entityRow } from '../../report/rows.js';
import { absoluteIri } from '../../model/iri.js';
import { AnyObject } from '../core/result-shapes.js';
import { saveFormatOf } from './load-save.js';

type SourceScope = 'imports_closure' | 'active';

interface SeedResolution {
  readonly entities: Entity[];
  readonly resolved: JsonObject[];
  readonly unresolved: JsonObject[];
}

/** Every sense of each seed present in the source (a punned IRI brings each); ambiguous names fail the call. */
function resolveSeeds(tokens: readonly string[], scope: SourceScope, ctx: ToolContext): SeedResolution {
  const active = ctx.workspace.active;
  const entities = new Set<Entity>();
  const resolved: JsonObject[] = [];
  const unresolved: JsonObject[] = [];
  for (const token of tokens) {
    let name: ResolvedName;
    try {
      name = ctx.resolver.resolve(token);
    } catch (err) {
      if (err instanceof NameError && err.candidates.length > 0) throw err;
      unresolved.push({ name: token, reason: (err as Error).message });
      continue;
    }
    const iri = name.iri;
    const senses = [...name.kinds]
      .sort()
      .map((k) => entity(k, iri))
      .filter((e) => scope === 'imports_closure' || active.index.referencing.has(e));
    if (senses.length === 0) {
      unresolved.push({ name: token, reason: `no entity <${iri}> in the ${scope === 'active' ? 'active ontology' : 'imports closure'}` });
      continue;
    }
    for (const e of senses) {
      if (entities.has(e)) continue;
      entities.add(e);
      resolved.push({ name: token, ...entityRow(e, ctx) });
    }
  }
  return { entities: [...entities], resolved, unresolved };
}

/** The axioms to extract from, each once, with the active ontology's prefix map for the module. */
function snapshot(ws: Workspace, scope: SourceScope): Ontology {
  const members = scope === 'active' ? [ws.active] : ws.importsClosure(ws.active);
  const axioms = new Set<Axiom>();
  for (const o of members) for (const a of o.axioms()) axioms.add(a);
  const source = new Ontology();
  for (const [prefix, ns] of ws.active.prefixes) source.prefixes.set(prefix, ns);
  source.format = ws.active.format;
  source.addAll([...axioms]);
  return source;
}

const timedOut = (timeoutMs: number) =>
  new ToolFailure(`The module extraction did not finish within ${timeoutMs} ms (timeout_ms); nothing was loaded or written`, 'timeout', {
    retryable: true,
  });

/**
 * Runs the extraction in what is left of the call's time bound (seed resolution and the snapshot already
 * spent `elapsedMs` of it); expiry is `timeout`, a cancellation stays a cancellation.
 */
async function extractBounded(
  run: (signal: AbortSignal) => Promise<ModuleResult>,
  timeoutMs: number,
  elapsedMs: number,
  ctx: ToolContext,
): Promise<ModuleResult> {
  if (elapsedMs >= timeoutMs) throw timedOut(timeoutMs);
  const timer = AbortSignal.timeout(Math.ceil(timeoutMs - elapsedMs));
  try {
    return await run(AbortSignal.any([ctx.signal, timer]));
  } catch (err) {
    if (timer.aborted && !ctx.signal.aborted) throw timedOut(timeoutMs);
    throw err;
  }
}

export const extractModule = defineTool({
  name: 'extract_module',
  description: 'Extract a locality module around a signature; load it, or save it to path.',
  input: v.strictObject({
    signature: v.pipe(v.array(v.pipe(v.string(), v.nonEmpty())), v.minLength(1), v.maxLength(100_000), v.description('Seed entities.')),
    module_type: v.optional(v.picklist(['STAR', 'BOT', 'TOP']), 'STAR'),
    source: v.optional(v.picklist(['imports_closure', 'active']), 'imports_closure'),
    iri: v.optional(v.pipe(v.string(), v.nonEmpty())),
    path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('Save here instead of loading.'))),
    timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000)), 60000),
  }),
  output: v.object({
    module: AnyObject,
    module_type: v.string(),
    source: v.string(),
    seeds: AnyObject,
    axioms: v.number(),
    entities: v.number(),
    loaded: v.optional(v.string()),
    note: v.optional(v.string()),
    saved: v.optional(v.boolean()),
    path: v.optional(v.string()),
    format: v.optional(v.string()),
  }),
  capabilities: ['ontology:admin'],
  mutating: always,
  destructive: true,
  summary: (args) =>
    `extract_module ${args.module_type} of ${args.signature.length} seed(s)${args.path === undefined ? '' : ' to ' + args.path}`,
  handler: async (args, ctx) => {
    const started = performance.now();
    const ws = ctx.workspace;
    const moduleIri = args.iri === undefined ? null : absoluteIri(args.iri, 'iri');
    if (moduleIri !== null && args.path === undefined) {
      const other = ws.find(moduleIri);
      if (other !== undefined)
        throw new ToolFailure(`Ontology id ${moduleIri} is already in use by a loaded ontology (${ontologyLabel(other)})`, 'id_in_use');
    }
    const target = args.path === undefined ? null : path.resolve(args.path);
    // TOOLS.md is silent on a path without an extension: it writes Turtle, as create_ontology binds it
    const format = target === null ? null : saveFormatOf(target, 'turtle');
    if (target !== null) await authorizeLocalPath(ctx, 'extract_module', target, 'write');
    const seeds = resolveSeeds(args.signature, args.source, ctx);
    const seedReport = { requested: args.signature.length, resolved: seeds.resolved, unresolved: seeds.unresolved };
    if (seeds.entities.length === 0)
      throw new ToolFailure('No seed of the signature names an entity of the source; nothing was extracted', 'not_found', {
        seeds: seedReport,
      });
    const source = snapshot(ws, args.source);
    const result = await extractBounded(
      (signal) =>
        extractModuleOffThread(
          {
            source,
            seeds: seeds.entities.map((e) => [e.kind, e.iri] as const),
            type: args.module_type as ModuleType,
            moduleIri,
            format,
          },
          signal,
        ),
      args.timeout_ms,
      performance.now() - started,
      ctx,
    );
    const common = {
      module: { iri: moduleIri, anonymous: moduleIri === null },
      module_type: args.module_type,
      source: args.source,
      seeds: seedReport,
      axioms: result.axioms,
      entities: result.entities,
    };
    // the last point a cancelled call can stop: nothing is written or loaded yet
    ctx.signal.throwIfAborted();
    if (target !== null && format !== null) {
      try {
        await writeFileAtomic(target, result.text ?? '');
      } catch (err) {
        throw new ToolFailure(`Cannot write ${target}: ${(err as Error).message}`, 'io_error', { saved: false });
      }
      return { ...common, saved: true, path: target, format };
    }
    const module = result.ontology!;
    // the workspace re-checks the id, covering a load that raced with the extraction
    ws.load(module, false);
    return {
      ...common,
      loaded: 'workspace',
      note: `The module is loaded as ${ontologyLabel(module)} (not active${moduleIri === null ? '; give iri to select it with set_active_ontology' : ''}). Extracting is not undoable; save it with save_ontology after switching to it.`,
    };
  },
});
