// diff_ontologies and analyze_change_impact (TOOLS.md 3.2). The right side of a pair is a loaded ontology
// or a document read privately (authorized like any caller-selected source, its imports resolved offline
// through loaded ontologies and a sibling catalog-v001.xml, never added to the workspace). The set
// arithmetic and the impact analysis are the pure functions of src/model/diff.ts; this file resolves the
// inputs and shapes the results.

import * as v from 'valibot';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Axiom, IRI } from '../../model/terms.js';
import { axiomTypeName } from '../../model/terms.js';
import type { Ontology } from '../../model/ontology.js';
import { readDocumentOffThread } from '../../actors/parse-pool.js';
import {
  attributeModules,
  deprecatedTermsInUse,
  diffAxiomSets,
  directlyAffected,
  downstreamTerms,
  foreignReaxiomatization,
  importedTerms,
  referencingAxioms,
  scopeAxioms,
  DOWNSTREAM_DEPTH_CAP,
  DOWNSTREAM_SIZE_CAP,
  type AxiomSetDiff,
  type Delta,
} from '../../model/diff.js';
import { impactPolicy, PairArgs, pairFields, Renderings, resolvePair, type DocumentReader, type Side } from '../../diff/pair.js';
import { authorizeLocalPath } from '../../policy/authorize.js';
import type { PolicyResolution } from '../../policy/resolution.js';
import { ChangeSetError, type ChangeSetEntry } from '../../qc/change-set-store.js';
import { changeSetStore, type CachedPreview } from '../edit/change-sets.js';
import { cappedOf, cmp, type Capped } from '../explore/ontology-context.js';
import { fetchDocument } from '../header/header-tools.js';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { readRegularFile } from '../../util/file-read.js';

/** How the pair reads a right_document: an authorized fetch, and parsing on the parse pool. */
export const documentReader: DocumentReader = {
  fetch: (ctx, tool, source, timeoutMs, network) => fetchDocument(ctx, tool, source, timeoutMs, network, 'document'),
  parse: async (text, file, signal) =>
    (await readDocumentOffThread(text, { base: pathToFileURL(file).href, fileName: file, signal })).ontology,
};

/** A capped list of axiom rows; every axiom is rendered, since the order is by rendering. */
function cappedRows(axioms: readonly Axiom[], limit: number, r: Renderings): Capped<{ axiom_type: string; rendering: string }> {
  return cappedOf(r.sortedRows(axioms), limit);
}

// ---------------------------------------------------------------- diff_ontologies

/** The diff's one-sided list: rows ≤limit, with the total and the omitted count beside it (TOOLS.md is silent on totals). */
function sideRows(name: string, axioms: readonly Axiom[], limit: number, r: Renderings): JsonObject {
  const rows = r.sortedRows(axioms);
  return {
    [name]: rows.slice(0, limit),
    [name + '_count']: rows.length,
    ...(rows.length > limit ? { [name + '_truncated']: rows.length - limit } : {}),
  };
}

export const diffOntologies = defineTool({
  name: 'diff_ontologies',
  description: 'Axiom-set diff of a loaded ontology (default active) against right or right_document.',
  input: v.strictObject({
    ...PairArgs,
    logical_only: v.optional(v.pipe(v.boolean(), v.description('Ignore declarations and annotations.')), false),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  // right_document may be an http(s) URL
  openWorld: true,
  handler: async (args, ctx) => {
    const { left, right } = await resolvePair(ctx, 'diff_ontologies', args, documentReader);
    const diff = diffAxiomSets(scopeAxioms(left.scope, args.logical_only), scopeAxioms(right.scope, args.logical_only));
    const lang = ctx.settings.label_language;
    return {
      ...pairFields(left, right, args.include_imports),
      include_imports: args.include_imports,
      logical_only: args.logical_only,
      identical: diff.onlyInLeft.length === 0 && diff.onlyInRight.length === 0,
      left_axioms: diff.leftCount,
      right_axioms: diff.rightCount,
      common: diff.common,
      ...sideRows('only_in_left', diff.onlyInLeft, args.limit, new Renderings(left.closure, lang)),
      ...sideRows('only_in_right', diff.onlyInRight, args.limit, new Renderings(right.closure, lang)),
    };
  },
});

// ---------------------------------------------------------------- analyze_change_impact

const IMPACT_NOTE =
  'Syntactic analysis: terms and axioms that co-occur with the change are reachable from it; co-occurrence proves reachability, not logical impact. ' +
  'For entailment changes use semantic_diff with mode=inferred.';

/** What a change-impact analysis runs over, whichever form named it. */
interface ImpactInput {
  readonly delta: Delta;
  /** Axioms scanned for references and reachability. */
  readonly scope: readonly Ontology[];
  readonly roots: readonly Ontology[];
  /** Imported members of the closures, whose terms the roots do not own. */
  readonly imported: readonly Ontology[];
  readonly renderings: Renderings;
  readonly fields: JsonObject;
}

const unique = (os: readonly Ontology[]): Ontology[] => [...new Set(os)];

/** Modules of the valid policy the affected terms belong to (by the modules' namespaces). */
function moduleReport(iris: readonly IRI[], policy: PolicyResolution | Error, limit: number): JsonObject {
  if (policy instanceof Error) return { error: policy.message };
  if (!policy.loaded) return { available: false, reason: 'no project policy governs this ontology' };
  if (!policy.valid || policy.policy === null)
    return { error: `the project policy ${policy.file} is invalid (get_project_policy lists its errors)` };
  const rules = policy.policy.modules;
  if (rules.length === 0) return { available: false, reason: 'the project policy declares no modules' };
  const attribution = attributeModules(iris, rules);
  const modules = cappedOf(attribution.modules, limit);
  return {
    available: true,
    count: modules.count,
    items: modules.items.map((m) => ({ module: m.module, terms: cappedOf(m.terms, limit) })),
    ...(modules.truncated === undefined ? {} : { truncated: modules.truncated }),
    unowned: cappedOf(attribution.unowned, limit),
  };
}

const VALIDATION_LIMITS = { iris: 500, files: 100, bytes: 1024 * 1024, skippedReasons: 10 } as const;
const ASSET_SOURCES = ['invariants', 'shacl', 'cqs'] as const;

/** The files one policy asset path names: the file itself, or the regular files directly inside a directory. */
async function assetFiles(file: string): Promise<string[]> {
  const s = await stat(file);
  if (!s.isDirectory()) return [file];
  const entries = await readdir(file, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.join(file, e.name))
    .sort(cmp);
}

/**
 * Textual references to the affected terms in the policy's invariant, SHACL and CQ files: a full IRI, or a
 * CURIE under one of the policy's prefixes, found as a substring. Files are authorized like any read.
 */
async function validationReferences(
  ctx: ToolContext,
  iris: readonly IRI[],
  policy: PolicyResolution | Error,
  limit: number,
): Promise<JsonObject> {
  if (policy instanceof Error) return { error: policy.message };
  if (!policy.loaded) return { available: false, reason: 'no project policy governs this ontology' };
  if (!policy.valid || policy.policy === null || policy.projectRoot === null)
    return { error: `the project policy ${policy.file} is invalid (get_project_policy lists its errors)` };
  const p = policy.policy;
  const searched = [...iris].sort(cmp).slice(0, VALIDATION_LIMITS.iris);
  const prefixes = Object.entries(p.prefixes).sort((a, b) => cmp(a[0], b[0]));
  const needles = searched.map((iri) => ({
    iri,
    curies: prefixes
      .filter(([, ns]) => iri.startsWith(ns) && iri.length > ns.length)
      .map(([prefix, ns]) => `${prefix}:${iri.slice(ns.length)}`),
  }));
  const items: JsonObject[] = [];
  const skipped: string[] = [];
  let scanned = 0;
  let scanTruncated = false;
  for (const source of ASSET_SOURCES) {
    for (const rel of p[source]?.paths ?? []) {
      let files: string[];
      try {
        files = await assetFiles(path.resolve(policy.projectRoot, rel));
      } catch (err) {
        skipped.push(`${rel}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        continue;
      }
      for (const file of files) {
        const ref = path.relative(policy.projectRoot, file);
        if (scanned >= VALIDATION_LIMITS.files) {
          scanTruncated = true;
          break;
        }
        let text: string;
        try {
          await authorizeLocalPath(ctx, 'analyze_change_impact', file, 'read', { resolution: policy });
          if ((await stat(file)).size > VALIDATION_LIMITS.bytes) {
            skipped.push(`${ref}: larger than ${VALIDATION_LIMITS.bytes} bytes`);
            continue;
          }
          text = await readRegularFile(file, 'document', 'utf8');
        } catch (err) {
          if (ctx.signal.aborted) throw err;
          skipped.push(`${ref}: ${(err as Error).message}`);
          continue;
        }
        scanned++;
        const byIri = needles.filter((n) => text.includes(n.iri)).map((n) => n.iri);
        const byCurie = needles.filter((n) => !byIri.includes(n.iri) && n.curies.some((c) => text.includes(c))).map((n) => n.iri);
        if (byIri.length > 0) items.push({ source, ref, iris: byIri });
        if (byCurie.length > 0) items.push({ source, ref, iris: byCurie, convention: 'curie' });
      }
    }
  }
  const shown = cappedOf(items, limit);
  const skippedList = cappedOf(skipped, VALIDATION_LIMITS.skippedReasons);
  return {
    available: true,
    match: 'textual',
    ...shown,
    files_scanned: scanned,
    ...(skipped.length > 0 ? { files_skipped: skippedList } : {}),
    ...(scanTruncated || iris.length > searched.length
      ? {
          scan_truncated: true,
          scan_note: `Scanned at most ${VALIDATION_LIMITS.files} files and ${VALIDATION_LIMITS.iris} IRIs (${iris.length} affected); references beyond them are not reported.`,
        }
      : {}),
    searched_iris: searched.length,
  };
}

/** Every result field after the form-specific ones. */
async function impactReport(
  ctx: ToolContext,
  input: ImpactInput,
  includeImports: boolean,
  limit: number,
  policy: PolicyResolution | Error,
): Promise<JsonObject> {
  const { delta, scope, renderings: r } = input;
  const affected = directlyAffected(delta);
  const affectedIris = affected.map((a) => a.iri);
  const affectedSet = new Set(affectedIris);
  const referencing = referencingAxioms(scope, affectedSet, delta);
  const downstream = downstreamTerms(scope, affectedSet, delta.added);
  const foreign = foreignReaxiomatization(delta, importedTerms(input.roots, input.imported), input.imported);
  const deprecated = deprecatedTermsInUse(scope, affectedSet, delta, referencing);
  const shownAffected = cappedOf(affected, limit);
  const shownDownstream = cappedOf(downstream.items, limit);
  // rendered as the last key of the total order (operation, subject, rendering)
  const foreignRows = foreign
    .map((f) => ({ operation: f.operation, subject: f.subject, axiom_type: axiomTypeName(f.axiom), rendering: r.rendering(f.axiom) }))
    .sort((x, y) => cmp(x.operation, y.operation) || cmp(x.subject, y.subject) || cmp(x.rendering, y.rendering));
  const shownForeign = cappedOf(foreignRows, limit);
  return {
    analysis: 'syntactic',
    note: IMPACT_NOTE,
    ...input.fields,
    include_imports: includeImports,
    delta: { added_axioms: cappedRows(delta.added, limit, r), removed_axioms: cappedRows(delta.removed, limit, r) },
    directly_affected: { ...shownAffected, modules: moduleReport(affectedIris, policy, limit) },
    referencing_axioms: cappedRows(referencing, limit, r),
    downstream_terms: {
      analysis: 'syntactic',
      depth_cap: DOWNSTREAM_DEPTH_CAP,
      size_cap: DOWNSTREAM_SIZE_CAP,
      ...shownDownstream,
      ...(downstream.searchTruncated
        ? {
            search_truncated: true,
            search_note: `The search stopped after ${DOWNSTREAM_SIZE_CAP} terms; terms at the same or greater depth may be missing.`,
          }
        : {}),
    },
    foreign_reaxiomatization: {
      ...shownForeign,
      items: shownForeign.items,
    },
    deprecated_terms_in_use: {
      ...cappedOf(deprecated, limit),
      items: deprecated.slice(0, limit).map((iri) => ({ iri, display: r.display(iri) })),
    },
    validation_references: await validationReferences(ctx, affectedIris, policy, limit),
    public_api_terms: { available: false, reason: 'no public API declaration is supported by the project policy' },
    external_mappings: { available: false, reason: 'no mapping store is consulted by the syntactic analysis' },
  };
}

/** The cached preview's delta over the ontology it was previewed on (the active ontology at preview time). */
function changeSetInput(ctx: ToolContext, id: string, includeImports: boolean, preview: ChangeSetEntry<CachedPreview>): ImpactInput {
  const p = preview.payload!;
  const added: Axiom[] = [];
  const removed: Axiom[] = [];
  for (const c of p.delta) {
    if (c.kind === 'AddAxiom') added.push(c.axiom);
    else if (c.kind === 'RemoveAxiom') removed.push(c.axiom);
  }
  const closure = ctx.workspace.importsClosure(p.target);
  return {
    delta: { added, removed },
    scope: includeImports ? closure : [p.target],
    roots: [p.target],
    imported: closure.slice(1),
    renderings: new Renderings(closure, ctx.settings.label_language),
    fields: { change_set_id: id, base_revision: p.base },
  };
}

/** The pair's delta: what the right side has that the left lacks is added, the converse removed. */
function pairInput(left: Side, right: Side, diff: AxiomSetDiff, includeImports: boolean, lang: string): ImpactInput {
  const closures = unique([...left.closure, ...right.closure]);
  const roots = unique([left.root, right.root]);
  return {
    delta: { added: diff.onlyInRight, removed: diff.onlyInLeft },
    scope: unique([...left.scope, ...right.scope]),
    roots,
    imported: closures.filter((o) => !roots.includes(o)),
    renderings: new Renderings(closures, lang),
    fields: pairFields(left, right, includeImports),
  };
}

export const analyzeChangeImpact = defineTool({
  name: 'analyze_change_impact',
  description: 'Impact of a cached preview or of an ontology pair: affected terms, axioms, assets.',
  input: v.strictObject({
    change_set_id: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(200))),
    ...PairArgs,
    policy_path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096))),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  openWorld: true,
  handler: async (args, ctx) => {
    const pair = args.left !== undefined || args.right !== undefined || args.right_document !== undefined;
    if (args.change_set_id !== undefined && pair) {
      throw new ToolFailure(
        'Give exactly one input: change_set_id, or a pair (left with right or right_document), not both',
        'invalid_argument',
      );
    }
    if (args.change_set_id === undefined && args.right === undefined && args.right_document === undefined) {
      throw new ToolFailure(
        'Give exactly one input: change_set_id (a cached preview) or right / right_document (a pair with left, default the active ontology)',
        'invalid_argument',
      );
    }
    if (args.change_set_id === undefined) {
      const policy = await impactPolicy(ctx, args.policy_path);
      const { left, right } = await resolvePair(ctx, 'analyze_change_impact', args, documentReader);
      const diff = diffAxiomSets(scopeAxioms(left.scope, false), scopeAxioms(right.scope, false));
      return impactReport(
        ctx,
        pairInput(left, right, diff, args.include_imports, ctx.settings.label_language),
        args.include_imports,
        args.limit,
        policy,
      );
    }
    const id = args.change_set_id;
    const store = changeSetStore(ctx.window);
    let preview;
    try {
      // claimed while it is analyzed, so it cannot be committed meanwhile; released afterwards, still cached
      preview = store.claim(id);
    } catch (err) {
      throw err instanceof ChangeSetError ? err.withContext({ analyzed: false }) : err;
    }
    try {
      const input = changeSetInput(ctx, id, args.include_imports, preview);
      return await impactReport(ctx, input, args.include_imports, args.limit, await impactPolicy(ctx, args.policy_path));
    } finally {
      store.release(id);
    }
  },
});
