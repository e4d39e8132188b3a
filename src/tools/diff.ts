// diff_ontologies and analyze_change_impact (TOOLS.md 3.2). The right side of a pair is a loaded ontology
// or a document read privately (authorized like any caller-selected source, its imports resolved offline
// through loaded ontologies and a sibling catalog-v001.xml, never added to the workspace). The set
// arithmetic and the impact analysis are the pure functions of src/model/diff.ts; this file resolves the
// inputs and shapes the results.

import * as v from 'valibot';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Axiom, Entity, IRI } from '../model/terms.js';
import { axiomTypeName } from '../model/terms.js';
import { ontologyIds, type Ontology } from '../model/ontology.js';
import { ontologyLabel } from '../model/workspace.js';
import { displayName } from '../model/display.js';
import { ManchesterRenderer } from '../model/formats/manchester/render.js';
import { LineRenderer } from '../model/render/axiom-lines.js';
import { catalogLocalFile, SiblingCatalogs } from '../model/catalog.js';
import { readDocumentOffThread } from '../actors/parse-pool.js';
import {
  attributeModules, deprecatedTermsInUse, diffAxiomSets, directlyAffected, downstreamTerms, foreignReaxiomatization,
  importedTerms, referencingAxioms, scopeAxioms, DOWNSTREAM_DEPTH_CAP, DOWNSTREAM_SIZE_CAP, type AxiomSetDiff, type Delta,
} from '../model/diff.js';
import { authorizeLocalPath } from '../policy/authorize.js';
import { resolvePolicy } from '../policy/resolve.js';
import type { PolicyResolution } from '../policy/resolution.js';
import { ChangeSetError, type ChangeSetEntry } from '../qc/change-set-store.js';
import { changeSetStore, type CachedPreview } from './change-sets.js';
import { cappedOf, type Capped } from './context.js';
import { classifySource, fetchDocument } from './header.js';
import { defineTool, never, ToolFailure, type JsonObject, type ToolContext } from './tool.js';
import { readRegularFile } from '../util/file-read.js';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** How long a remote right_document may take (the tools take no timeout argument). */
const RIGHT_DOCUMENT_TIMEOUT_MS = 15_000;

// ---------------------------------------------------------------- arguments

const OntologyRef = (what: string) => v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096), v.description(what)));

export const PairArgs = {
  left: OntologyRef('Ontology IRI or version IRI of a loaded ontology (default: the active ontology).'),
  right: OntologyRef('Ontology IRI or version IRI of another loaded ontology.'),
  right_document: OntologyRef('Path, file: URL or http(s) URL of a document read privately (never added to the workspace).'),
  include_imports: v.optional(v.pipe(v.boolean(), v.description('Compare (or scan) the imports closures.')), false),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Most rows per list (default 50).')), 50),
  network: v.optional(v.pipe(v.picklist(['deny', 'allow']), v.description('deny refuses every remote fetch of this call.'))),
};

type Network = 'deny' | 'allow' | undefined;

export interface PairInput {
  left?: string;
  right?: string;
  right_document?: string;
  include_imports: boolean;
  network?: 'deny' | 'allow';
}

// ---------------------------------------------------------------- sides

export interface UnresolvedImport {
  readonly import_iri: IRI;
  readonly reason: string;
}

/** One side of a comparison: its root, its whole imports closure (for names and ownership) and what is compared. */
export interface Side {
  readonly label: string;
  readonly root: Ontology;
  readonly closure: readonly Ontology[];
  readonly scope: readonly Ontology[];
  /** Imports of the closure nothing satisfies. */
  readonly missing: readonly UnresolvedImport[];
  /** The document read, for a right_document side. */
  readonly document?: string;
}

function loadedOntology(ctx: ToolContext, ref: string, argument: string): Ontology {
  const iri = ref.trim().replace(/^<(.*)>$/, '$1');
  const o = ctx.workspace.find(iri);
  if (o === undefined) throw new ToolFailure(`No loaded ontology matches ${argument}='${ref}'. See list_ontologies.`, 'not_found', { argument, ontology: ref });
  return o;
}

function loadedSide(ctx: ToolContext, o: Ontology, includeImports: boolean): Side {
  const ws = ctx.workspace;
  const closure = ws.importsClosure(o);
  const missing = ws.missingImports(o).map((iri) => ({ import_iri: iri, reason: 'not loaded in the workspace' }));
  return { label: ontologyLabel(o), root: o, closure, scope: includeImports ? closure : [o], missing };
}


/**
 * The imports closure of a privately read document, offline: an import is satisfied by the document itself,
 * a loaded ontology, or the local file a catalog-v001.xml beside the importing (else the root) document maps
 * it to, read only when the caller may read it. Breadth first; every other import is reported with its reason.
 */
async function privateClosure(ctx: ToolContext, root: Ontology, rootFile: string | null, policy: PolicyResolution): Promise<{ closure: Ontology[]; missing: UnresolvedImport[] }> {
  const closure = [root];
  const byId = new Map<IRI, Ontology>(ontologyIds(root).map((iri) => [iri, root]));
  const files = new Map<Ontology, string | null>([[root, rootFile]]);
  const missing: UnresolvedImport[] = [];
  const reasons = new Set<IRI>();
  const catalogs = new SiblingCatalogs();
  const add = (o: Ontology, file: string | null) => {
    if (closure.includes(o)) return;
    closure.push(o);
    files.set(o, file);
    for (const iri of ontologyIds(o)) byId.set(iri, o);
  };
  const unresolved = (iri: IRI, reason: string) => {
    reasons.add(iri);
    missing.push({ import_iri: iri, reason });
  };
  for (let i = 0; i < closure.length; i++) {
    const importer = closure[i];
    for (const iri of [...importer.imports].sort(cmp)) {
      if (byId.has(iri) || reasons.has(iri)) continue;
      const loaded = ctx.workspace.find(iri);
      if (loaded !== undefined) {
        add(loaded, null);
        continue;
      }
      const file = files.get(importer) ?? null;
      const own = file === null ? null : await catalogs.of(file);
      const fallback = rootFile === null ? null : await catalogs.of(rootFile);
      const broken = [own, fallback].find((c): c is Error => c instanceof Error);
      const mapped = [own, fallback].map((c) => (c === null || c instanceof Error ? null : catalogLocalFile(c, iri))).find((f) => f !== null) ?? null;
      if (mapped === null) {
        unresolved(iri, broken !== undefined ? `the import catalog is malformed: ${broken.message}`
          : rootFile === null ? 'not loaded; a remote document resolves no imports' : 'not loaded and not mapped to a local file by a catalog-v001.xml');
        continue;
      }
      let text: string;
      try {
        await authorizeLocalPath(ctx, 'right_document', mapped, 'read', { resolution: policy });
        text = await readRegularFile(mapped, 'document', 'utf8');
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        unresolved(iri, `the catalog maps it to ${mapped}, which cannot be read: ${(err as Error).message}`);
        continue;
      }
      let parsed: Ontology;
      try {
        parsed = (await readDocumentOffThread(text, { base: pathToFileURL(mapped).href, fileName: mapped, signal: ctx.signal })).ontology;
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        unresolved(iri, `the catalog maps it to ${mapped}, which does not parse: ${(err as Error).message}`);
        continue;
      }
      parsed.documentIri = mapped;
      if (!ontologyIds(parsed).includes(iri)) {
        unresolved(iri, `the catalog maps it to ${mapped}, which holds ${ontologyLabel(parsed)}`);
        continue;
      }
      add(parsed, mapped);
    }
  }
  return { closure, missing: missing.sort((a, b) => cmp(a.import_iri, b.import_iri)) };
}

/** Reads `source` privately (authorized as a caller-selected path or URL) with its imports closure. */
async function documentSide(ctx: ToolContext, tool: string, source: string, network: Network, includeImports: boolean): Promise<Side> {
  const root = await fetchDocument(ctx, tool, source, RIGHT_DOCUMENT_TIMEOUT_MS, network, 'document');
  const src = classifySource(source);
  // the imports are read under the same policy fetchDocument authorized the document with
  const { closure, missing } = await privateClosure(ctx, root, src.remote ? null : root.documentIri, await resolvePolicy(ctx));
  return { label: ontologyLabel(root), root, closure, scope: includeImports ? closure : [root], missing, document: root.documentIri ?? source };
}

/** Exactly one of right / right_document, else `invalid_argument`. */
export function requireOneRightForm(args: Pick<PairInput, 'right' | 'right_document'>): void {
  if (args.right !== undefined && args.right_document !== undefined) {
    throw new ToolFailure('Give right (a loaded ontology) or right_document (a document), not both', 'invalid_argument');
  }
  if (args.right === undefined && args.right_document === undefined) {
    throw new ToolFailure('Give right (a loaded ontology) or right_document (a path or URL) to compare with', 'invalid_argument');
  }
}

/** Both sides of a pair: the right one first (it may load), then the left one as the workspace is now. */
export async function resolvePair(ctx: ToolContext, tool: string, args: PairInput): Promise<{ left: Side; right: Side }> {
  requireOneRightForm(args);
  const leftOf = () => (args.left === undefined ? ctx.workspace.active : loadedOntology(ctx, args.left, 'left'));
  // refuse an unknown reference before anything is read
  leftOf();
  const right = args.right !== undefined
    ? loadedSide(ctx, loadedOntology(ctx, args.right, 'right'), args.include_imports)
    : await documentSide(ctx, tool, args.right_document!, args.network, args.include_imports);
  return { left: loadedSide(ctx, leftOf(), args.include_imports), right };
}

/** The pair-form fields shared by both tools. */
export function pairFields(left: Side, right: Side, includeImports: boolean): JsonObject {
  const missing = left.missing.length + right.missing.length;
  return {
    left: left.label,
    right: right.label,
    ...(right.document === undefined ? {} : { right_document: right.document, right_document_unresolved_imports: right.missing }),
    ...(includeImports && missing > 0
      ? { caveat: `The imports closure is truncated: ${missing} import${missing === 1 ? '' : 's'} could not be resolved (left: ${left.missing.map((m) => m.import_iri).join(', ') || 'none'}; right: ${right.missing.map((m) => m.import_iri).join(', ') || 'none'}), so axioms they hold are not compared.` }
      : {}),
  };
}

// ---------------------------------------------------------------- rendering

/** Display names and renderings over given ontologies (a side's closure), each name computed once. */
export class Renderings {
  private readonly names = new Map<IRI, string>();
  private readonly manchester: ManchesterRenderer;
  private readonly lines = new LineRenderer(() => '_:?');

  constructor(private readonly ontologies: readonly Ontology[], private readonly lang: string) {
    this.manchester = new ManchesterRenderer((e) => this.display(e));
  }

  display(e: Entity | IRI): string {
    const iri = typeof e === 'string' ? e : e.iri;
    let name = this.names.get(iri);
    if (name === undefined) this.names.set(iri, (name = displayName(iri, this.ontologies, this.lang)));
    return name;
  }

  rendering(a: Axiom): string {
    return this.manchester.axiom(a);
  }

  /** Axiom rows `{axiom_type, rendering}` ordered by rendering, then canonical functional syntax (a total order). */
  sortedRows(axioms: readonly Axiom[]): { axiom_type: string; rendering: string }[] {
    return axioms.map((a) => ({ axiom_type: axiomTypeName(a), rendering: this.rendering(a), line: this.lines.axiom(a) }))
      .sort((x, y) => cmp(x.rendering, y.rendering) || cmp(x.line, y.line))
      .map(({ axiom_type, rendering }) => ({ axiom_type, rendering }));
  }
}

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
    logical_only: v.optional(v.pipe(v.boolean(), v.description('Ignore declarations and annotation axioms.')), false),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  // right_document may be an http(s) URL
  openWorld: true,
  handler: async (args, ctx) => {
    const { left, right } = await resolvePair(ctx, 'diff_ontologies', args);
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

const IMPACT_NOTE = 'Syntactic analysis: terms and axioms that co-occur with the change are reachable from it; co-occurrence proves reachability, not logical impact. ' +
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
  if (!policy.valid || policy.policy === null) return { error: `the project policy ${policy.file} is invalid (get_project_policy lists its errors)` };
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
  return entries.filter((e) => e.isFile()).map((e) => path.join(file, e.name)).sort(cmp);
}

/**
 * Textual references to the affected terms in the policy's invariant, SHACL and CQ files: a full IRI, or a
 * CURIE under one of the policy's prefixes, found as a substring. Files are authorized like any read.
 */
async function validationReferences(ctx: ToolContext, iris: readonly IRI[], policy: PolicyResolution | Error, limit: number): Promise<JsonObject> {
  if (policy instanceof Error) return { error: policy.message };
  if (!policy.loaded) return { available: false, reason: 'no project policy governs this ontology' };
  if (!policy.valid || policy.policy === null || policy.projectRoot === null) return { error: `the project policy ${policy.file} is invalid (get_project_policy lists its errors)` };
  const p = policy.policy;
  const searched = [...iris].sort(cmp).slice(0, VALIDATION_LIMITS.iris);
  const prefixes = Object.entries(p.prefixes).sort((a, b) => cmp(a[0], b[0]));
  const needles = searched.map((iri) => ({
    iri,
    curies: prefixes.filter(([, ns]) => iri.startsWith(ns) && iri.length > ns.length).map(([prefix, ns]) => `${prefix}:${iri.slice(ns.length)}`),
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
    ...(scanTruncated || iris.length > searched.length ? {
      scan_truncated: true,
      scan_note: `Scanned at most ${VALIDATION_LIMITS.files} files and ${VALIDATION_LIMITS.iris} IRIs (${iris.length} affected); references beyond them are not reported.`,
    } : {}),
    searched_iris: searched.length,
  };
}

/** Every result field after the form-specific ones. */
async function impactReport(ctx: ToolContext, input: ImpactInput, includeImports: boolean, limit: number, policy: PolicyResolution | Error): Promise<JsonObject> {
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
  const foreignRows = foreign.map((f) => ({ operation: f.operation, subject: f.subject, axiom_type: axiomTypeName(f.axiom), rendering: r.rendering(f.axiom) }))
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
      analysis: 'syntactic', depth_cap: DOWNSTREAM_DEPTH_CAP, size_cap: DOWNSTREAM_SIZE_CAP, ...shownDownstream,
      ...(downstream.searchTruncated ? {
        search_truncated: true,
        search_note: `The search stopped after ${DOWNSTREAM_SIZE_CAP} terms; terms at the same or greater depth may be missing.`,
      } : {}),
    },
    foreign_reaxiomatization: {
      ...shownForeign,
      items: shownForeign.items,
    },
    deprecated_terms_in_use: { ...cappedOf(deprecated, limit), items: deprecated.slice(0, limit).map((iri) => ({ iri, display: r.display(iri) })) },
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

/** The policy for module attribution and asset search; a refused or unreadable one is reported in those fields. */
export async function impactPolicy(ctx: ToolContext, policyPath: string | undefined): Promise<PolicyResolution | Error> {
  try {
    return await resolvePolicy(ctx, policyPath);
  } catch (err) {
    // an explicit policy_path the caller may not read is the caller's error, not a missing analysis
    if (policyPath !== undefined || ctx.signal.aborted) throw err;
    return err as Error;
  }
}

export const analyzeChangeImpact = defineTool({
  name: 'analyze_change_impact',
  description: 'Impact of a cached preview or of an ontology pair: affected terms, axioms, assets.',
  input: v.strictObject({
    change_set_id: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(200), v.description('The id preview_change_set returned.'))),
    ...PairArgs,
    policy_path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096), v.description('Explicit local project-policy file (module attribution, validation assets); otherwise discovery.'))),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  openWorld: true,
  handler: async (args, ctx) => {
    const pair = args.left !== undefined || args.right !== undefined || args.right_document !== undefined;
    if (args.change_set_id !== undefined && pair) {
      throw new ToolFailure('Give exactly one input: change_set_id, or a pair (left with right or right_document), not both', 'invalid_argument');
    }
    if (args.change_set_id === undefined && args.right === undefined && args.right_document === undefined) {
      throw new ToolFailure('Give exactly one input: change_set_id (a cached preview) or right / right_document (a pair with left, default the active ontology)', 'invalid_argument');
    }
    if (args.change_set_id === undefined) {
      const policy = await impactPolicy(ctx, args.policy_path);
      const { left, right } = await resolvePair(ctx, 'analyze_change_impact', args);
      const diff = diffAxiomSets(scopeAxioms(left.scope, false), scopeAxioms(right.scope, false));
      return impactReport(ctx, pairInput(left, right, diff, args.include_imports, ctx.settings.label_language), args.include_imports, args.limit, policy);
    }
    const id = args.change_set_id;
    const store = changeSetStore(ctx.window);
    let preview;
    try {
      // claimed while it is analyzed, so it cannot be committed meanwhile; released afterwards, still cached
      preview = store.claim(id);
    } catch (err) {
      if (err instanceof ChangeSetError) throw new ToolFailure(err.message, err.code, { change_set_id: id, analyzed: false, ...err.context });
      throw err;
    }
    try {
      const input = changeSetInput(ctx, id, args.include_imports, preview);
      return await impactReport(ctx, input, args.include_imports, args.limit, await impactPolicy(ctx, args.policy_path));
    } finally {
      store.release(id);
    }
  },
});
