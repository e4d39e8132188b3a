// Document tools: save_ontology (TOOLS.md 3.10) and load_ontology (3.6). Saves are atomic (temp file,
// fsync, rename); a save-as rebinds the ontology to the new file and format.

import * as v from 'valibot';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ontologyIds, type FormatId, type Ontology } from '../../model/ontology.js';
import { ontologyLabel, type Workspace } from '../../model/workspace.js';
import { readDocument, writeDocument } from '../../model/formats/registry.js';
import { readDocumentOffThread } from '../../actors/parse-pool.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { compareContent, ontologyContent, type RoundTripRule } from '../../qc/stages/interoperability.js';
import type { IRI } from '../../model/terms.js';
import { catalogLocalFile, SiblingCatalogs, type Catalog } from '../../model/catalog.js';
import { writeObo } from '../../model/formats/obo/writer.js';
import { lossyReasons, oboCompatibility } from '../../model/formats/obo/compatibility.js';
import { defineTool, always, ToolFailure, type JsonObject, type ToolContext } from '../core/tool.js';
import { activeCounts } from '../core/result-shapes.js';
import { revisionEnvelope } from '../../model/revision.js';
import { fetchText } from '../header/header-tools.js';
import { classifySource } from '../../policy/paths.js';
import { authorizeLocalPath, authorizeRemote } from '../../policy/authorize.js';
import { authorizeSave } from '../../policy/save-authorization.js';
import { resolveCallerPath } from '../../policy/path-rules.js';
import { resolvePolicy } from '../../policy/resolve.js';
import { checkLoadLock, lockRefusal } from './import-tools.js';
import type { ImportLockVerification } from '../../imports/lock-mode.js';
import { sha256Digest } from '../../util/digest.js';
import { FileReadError, readRegularFile } from '../../util/file-read.js';
import { declaredKinds, importsRetype } from '../../model/rdf/imported-kinds.js';
import type { ImportedKinds } from '../../model/rdf/graph-typing.js';

/** The local file an ontology saves to, or null when it has none (untitled, or loaded from the web). */
function localDocument(o: Ontology): string | null {
  const doc = o.documentIri;
  if (doc === null) return null;
  if (doc.startsWith('file:')) return fileURLToPath(doc);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(doc) ? null : doc;
}

/** The round-trip check of one kind of content passes when no difference of its rules was found. */
const ROUND_TRIP_CHECKS: Readonly<Record<string, readonly RoundTripRule[]>> = {
  ontology_id: ['interoperability.ontology_id_changed'],
  direct_imports: ['interoperability.imports_changed'],
  ontology_annotations: ['interoperability.annotations_changed'],
  axioms: ['interoperability.axioms_lost', 'interoperability.axioms_added'],
};

/**
 * Re-reads the serialized text and compares it with the ontology in canonical form: anonymous individuals
 * up to renaming, declarations the writer adds for undeclared entities allowed. A mismatch names samples
 * of what differs.
 */
async function roundTrip(o: Ontology, text: string, format: FormatId, file: string): Promise<JsonObject> {
  const { ontology: back } = await readDocument(text, { format, base: pathToFileURL(file).href });
  const differences = compareContent(format, ontologyContent(o, true), ontologyContent(back));
  const failed = new Set(differences.map((d) => d.rule));
  const checks = Object.fromEntries(Object.entries(ROUND_TRIP_CHECKS).map(([check, rules]) => [check, !rules.some((r) => failed.has(r))]));
  if (differences.length > 0) {
    const rows = differences.map((d) => ({
      rule: d.rule.slice('interoperability.'.length),
      message: d.message,
      ...(d.details as JsonObject),
    }));
    throw new ToolFailure(
      `Round-trip verification failed for ${file}: ${differences.map((d) => d.message).join('; ')}; the target is untouched`,
      'round_trip_mismatch',
      { saved: false, round_trip: { ...checks, differences: rows } },
    );
  }
  // byte_for_byte: the re-read ontology serializes to exactly the text written, so the file is a fixed point
  return { ...checks, round_trip_class: writeDocument(back, format) === text ? 'byte_for_byte' : 'axiom_identical' };
}

/** The extensions a save accepts (TOOLS.md 3.10) and the format each writes; every other extension fails. */
const SAVE_FORMATS: Readonly<Record<string, FormatId>> = {
  '.ttl': 'turtle',
  '.turtle': 'turtle',
  '.owl': 'rdfxml',
  '.rdf': 'rdfxml',
  '.xml': 'rdfxml',
  '.omn': 'manchester',
  '.ofn': 'ofn',
  '.fss': 'ofn',
  '.owx': 'owlxml',
  '.obo': 'obo',
};

/** The format a save to `file` writes: from its extension, or `current` when it has none. */
export function saveFormatOf(file: string, current: FormatId): FormatId {
  const ext = path.extname(file);
  if (ext === '') return current;
  const format = SAVE_FORMATS[ext.toLowerCase()];
  if (format === undefined) {
    throw new ToolFailure(
      `Unknown file extension '${ext}': use .ttl/.turtle, .owl/.rdf/.xml, .omn, .ofn/.fss, .owx or .obo`,
      'invalid_argument',
    );
  }
  return format;
}

/** Writes a document atomically; a directory that cannot be created or a failed write is `io_error`. */
async function writeTarget(target: string, text: string): Promise<void> {
  try {
    await writeFileAtomic(target, text);
  } catch (err) {
    throw new ToolFailure(`Cannot write ${target}: ${(err as Error).message}`, 'io_error', { saved: false });
  }
}

interface SaveArgs {
  path?: string | undefined;
  all: boolean;
  verify_round_trip: boolean;
  atomic: boolean;
  backup: boolean;
  on_lossy: 'warn' | 'fail';
  policy_bootstrap: boolean;
}

const OBO_RECOMMENDATION =
  'Keep the OWL source of truth in a lossless format (.owl, .ofn, .ttl, .owx) and export OBO from it; or fix the listed issues first.';

/**
 * The document text and, for OBO, the compatibility report (what has no OBO tag travels in owl-axioms): a
 * lossy OBO save, one with IRIs that have no OBO id form, either writes them as they are (warn) or is
 * refused before anything is written (fail).
 */
function serialize(o: Ontology, format: FormatId, onLossy: 'warn' | 'fail'): { text: string; report: JsonObject } {
  if (format !== 'obo') return { text: writeDocument(o, format), report: {} };
  const compatibility = oboCompatibility(o);
  if (compatibility.compatible) return { text: writeDocument(o, format), report: { obo_compatibility: compatibility } };
  const report = {
    lossy_format_warning: { format: 'obo', reasons: lossyReasons(compatibility), recommendation: OBO_RECOMMENDATION },
    obo_compatibility: compatibility,
  };
  if (onLossy === 'fail') {
    throw new ToolFailure('OBO cannot hold this ontology without loss (on_lossy=fail); nothing was written', 'lossy_format_refused', {
      saved: false,
      ...report,
    });
  }
  return { text: writeObo(o, { onLossy: 'drop' }), report };
}

async function saveOne(
  o: Ontology,
  target: string,
  format: FormatId,
  args: SaveArgs,
  ws: Workspace,
  signal: AbortSignal,
): Promise<JsonObject> {
  const { text, report } = serialize(o, format, args.on_lossy);
  // other calls of the window may run while this one awaits: what was serialized must still be current when written
  const baseRevision = ws.revision;
  const baseEnvelope = revisionEnvelope(ws);
  const unchanged = () => {
    if (ws.revision === baseRevision) return;
    throw new ToolFailure(
      `The workspace changed while the save of ${target} was being verified; nothing was written`,
      'revision_conflict',
      { saved: false, base_revision: baseEnvelope, current_revision: revisionEnvelope(ws) },
    );
  };
  const verify = args.verify_round_trip || args.atomic || args.backup;
  const round = verify ? await roundTrip(o, text, format, target) : null;
  unchanged();
  let backupPath: string | null = null;
  if (args.backup) {
    backupPath = target + '.bak';
    await copyFile(target, backupPath).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw new ToolFailure(`Cannot keep a backup of ${target}: ${err.message}`, 'io_error', { saved: false });
      backupPath = null;
    });
    unchanged();
  }
  // a cancelled call writes nothing; once the write starts it completes (it is atomic either way)
  signal.throwIfAborted();
  await writeTarget(target, text);
  o.documentIri = target;
  o.format = format;
  // a change that landed during the write is not in the file, so the ontology stays dirty
  if (ws.revision === baseRevision) ws.markSaved(o);
  if (round === null) return report;
  const bytes = Buffer.byteLength(text, 'utf8');
  return {
    ...report,
    verified: true,
    bytes,
    sha256: sha256Digest(text),
    round_trip: round,
    atomic: true,
    ...(backupPath === null ? {} : { backup_path: backupPath }),
    revision: revisionEnvelope(ws),
  };
}

async function saveAll(ws: Workspace, args: SaveArgs, ctx: ToolContext): Promise<JsonObject> {
  const signal = ctx.signal;
  const saved: JsonObject[] = [];
  const skipped: JsonObject[] = [];
  const targets = new Map<Ontology, string>();
  for (const o of ws.ontologies) {
    const file = ws.isDirty(o) ? localDocument(o) : null;
    if (file !== null) targets.set(o, file);
  }
  // every target is authorized before the first write, so a refusal writes nothing
  for (const file of targets.values()) await authorizeSave(ctx, file, false, false);
  for (const o of ws.ontologies) {
    if (!ws.isDirty(o)) continue;
    const file = targets.get(o);
    if (file === undefined) {
      skipped.push({ ontology: ontologyLabel(o), reason: 'no local document (untitled or remote); save it with path' });
      continue;
    }
    // on_lossy governs single-ontology saves only; a save of everything warns per ontology
    const { lossy_format_warning } = await saveOne(o, file, o.format, { ...args, on_lossy: 'warn' }, ws, signal);
    saved.push({ ontology: ontologyLabel(o), path: file, ...(lossy_format_warning === undefined ? {} : { lossy_format_warning }) });
  }
  return { saved, skipped, message: `Saved ${saved.length} ontolog${saved.length === 1 ? 'y' : 'ies'}, skipped ${skipped.length}.` };
}

export const saveOntology = defineTool({
  name: 'save_ontology',
  description: 'Save the active ontology (all=true: every dirty one), or save it as path.',
  input: v.strictObject({
    path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('Format from the extension.'))),
    all: v.optional(v.boolean(), false),
    verify_round_trip: v.optional(v.boolean(), false),
    atomic: v.optional(v.boolean(), false),
    backup: v.optional(v.boolean(), false),
    on_lossy: v.optional(v.picklist(['warn', 'fail']), 'warn'),
    policy_bootstrap: v.optional(v.boolean(), false),
  }),
  capabilities: ['ontology:admin', 'filesystem:project:write'],
  mutating: always,
  destructive: true,
  idempotent: true,
  summary: (args) => (args.all ? 'save_ontology all=true' : `save_ontology ${args.path ?? '(own document)'}`),
  handler: async (args, ctx) => {
    if (args.all && args.path !== undefined) throw new ToolFailure('all=true cannot be combined with path', 'invalid_argument');
    if (args.policy_bootstrap && args.path === undefined) throw new ToolFailure('policy_bootstrap needs path', 'invalid_argument');
    const ws = ctx.workspace;
    if (args.all) return saveAll(ws, args, ctx);
    const o = ws.active;
    let target: string;
    let format = o.format;
    if (args.path !== undefined) {
      target = resolveCallerPath(ctx, await resolvePolicy(ctx), args.path);
      format = saveFormatOf(target, o.format);
    } else {
      const file = localDocument(o);
      if (file === null) throw new ToolFailure('The active ontology has no local document: give path to save it', 'invalid_argument');
      target = file;
    }
    const bootstrap = await authorizeSave(ctx, target, args.path !== undefined, args.policy_bootstrap);
    const extra = await saveOne(o, target, format, args, ws, ctx.signal);
    return {
      saved: true,
      path: target,
      ...(args.path !== undefined ? { format } : {}),
      ...extra,
      ...(bootstrap === null ? {} : { policy_bootstrap: bootstrap }),
    };
  },
});

/** Reads a local path, `file:` IRI or http(s) IRI (GitHub blob URLs become raw-content URLs), authorized for `tool`. */
export async function fetchSource(
  ctx: ToolContext,
  source: string,
  timeoutMs: number,
  network: 'deny' | 'allow' | undefined,
  tool = 'load_ontology',
): Promise<{ text: string; document: string; base: string }> {
  const signal = ctx.signal;
  const src = classifySource(source);
  if (src.remote) {
    const url = src.url;
    await authorizeRemote(ctx, tool, url, network);
    return { text: await fetchText(url, source, timeoutMs, signal), document: source, base: url };
  }
  const res = await resolvePolicy(ctx);
  const file = resolveCallerPath(ctx, res, src.file);
  await authorizeLocalPath(ctx, tool, file, 'read', { resolution: res });
  let text: string;
  try {
    text = await readRegularFile(file, 'document', 'utf8');
  } catch (err) {
    if (signal.aborted || err instanceof FileReadError) throw err;
    throw new ToolFailure(`Cannot read ${file}: ${(err as Error).message}`, 'load_failed');
  }
  return { text, document: file, base: pathToFileURL(file).href };
}

export const loadOntology = defineTool({
  name: 'load_ontology',
  description: 'Load a document as a new ontology, active unless keep_active.',
  input: v.strictObject({
    source: v.pipe(v.string(), v.nonEmpty()),
    keep_active: v.optional(v.boolean(), false),
    connection_timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000)), 15000),
    missing_imports: v.optional(v.picklist(['warn', 'error', 'silent']), 'warn'),
    network: v.optional(v.picklist(['deny', 'allow'])),
    lock_mode: v.optional(v.picklist(['ignore', 'verify', 'required']), 'ignore'),
  }),
  capabilities: ['ontology:admin', 'filesystem:project:read'],
  mutating: always,
  openWorld: true,
  summary: (args) => `load_ontology ${args.source}`,
  handler: async (args, ctx) => load(args, ctx),
});

export type MissingMode = 'warn' | 'error' | 'silent';

/**
 * Parses on the parse pool; an abort of `signal` stops the parse there (the cancellation, not a parse error, is thrown).
 * `importedKinds`: what the document's loaded imports closure declares.
 */
export async function parseDocument(
  text: string,
  base: string,
  document: string,
  signal: AbortSignal,
  importedKinds?: ImportedKinds,
): Promise<Ontology> {
  let parsed: Ontology;
  try {
    parsed = (await readDocumentOffThread(text, { base, fileName: document, signal, importedKinds })).ontology;
  } catch (err) {
    if (signal.aborted) throw err;
    throw new ToolFailure(`Cannot parse ${document}: ${(err as Error).message}`, 'parse_error');
  }
  parsed.documentIri = document;
  return parsed;
}

const isRemote = (doc: string) => /^https?:\/\//i.test(doc);

/** The imported documents to attach with a new root, and why the other imports stay unresolved. */
export interface ImportPlan {
  /** The root as read with its imports closure's declarations (the parsed root itself when they change nothing). */
  readonly root: Ontology;
  readonly attach: Ontology[];
  readonly reasons: Map<IRI, string>;
}

/** A document's text as read, for reading it again with its imports closure's declarations. */
export interface ReadSource {
  readonly text: string;
  readonly base: string;
  readonly document: string;
}

const RDF_FORMATS: ReadonlySet<FormatId> = new Set(['turtle', 'ntriples', 'nquads', 'trig', 'rdfxml', 'jsonld']);

/** The ontologies `o` imports, directly or not, that `find` knows (`o` itself excluded). */
function closureOf(o: Ontology, find: (iri: IRI) => Ontology | undefined): Ontology[] {
  const seen = new Set<Ontology>([o]);
  const queue = [o];
  // breadth-first: for…of visits the ontologies pushed while it runs
  for (const next of queue) {
    for (const iri of next.imports) {
      const target = find(iri);
      if (target !== undefined && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return queue.slice(1);
}

/**
 * Reads again each RDF document of a planned closure whose mapping its imports closure's declarations change
 * (OWL 2 Mapping to RDF Graphs §3.1: a cardinality restriction on a data property declared only in an
 * import is a data restriction). The declarations come from the first readings: a declaration is an
 * explicit triple, which no typing changes, so one pass suffices.
 */
async function retypeWithImports(
  read: ReadonlyMap<Ontology, ReadSource>,
  find: (iri: IRI) => Ontology | undefined,
  signal: AbortSignal,
): Promise<Map<Ontology, Ontology>> {
  const again = new Map<Ontology, Ontology>();
  for (const [o, source] of read) {
    if (!RDF_FORMATS.has(o.format)) continue;
    const kinds = declaredKinds(closureOf(o, find));
    if (importsRetype(o, kinds)) again.set(o, await parseDocument(source.text, source.base, source.document, signal, kinds));
  }
  return again;
}

/** A load cannot proceed past a malformed catalog: its imports could not be resolved as the project intends. */
async function loadCatalog(catalogs: SiblingCatalogs, document: string): Promise<Catalog | null> {
  const c = await catalogs.of(document);
  if (c instanceof Error) throw new ToolFailure(`Cannot read the import catalog: ${c.message}`, 'catalog_invalid');
  return c;
}

/**
 * Resolves the imports closure of a freshly parsed root offline: an import is satisfied by a loaded ontology,
 * one already planned, or the local file a `catalog-v001.xml` beside the importing (else the root) document
 * maps it to. Nothing is attached here, so a refusal leaves the workspace untouched.
 */
async function planImports(
  root: Ontology,
  rootSource: ReadSource,
  ws: Workspace,
  strict: boolean,
  signal: AbortSignal,
): Promise<ImportPlan> {
  const rootFile = isRemote(rootSource.document) ? null : rootSource.document;
  const attach: Ontology[] = [];
  const read = new Map<Ontology, ReadSource>([[root, rootSource]]);
  const reasons = new Map<IRI, string>();
  const planned = new Map<IRI, Ontology>(ontologyIds(root).map((iri) => [iri, root]));
  const catalogs = new SiblingCatalogs();
  const queue: { o: Ontology; file: string | null }[] = [{ o: root, file: rootFile }];
  for (const { o, file } of queue) {
    for (const iri of [...o.imports].sort()) {
      if (planned.has(iri) || reasons.has(iri)) continue;
      const loaded = ws.find(iri);
      // a strict load needs documents: an untitled in-memory ontology satisfies only a lenient one
      if (loaded !== undefined && strict && loaded.documentIri === null) {
        reasons.set(iri, 'satisfied only by an untitled in-memory ontology, which never satisfies missing_imports=error');
        continue;
      }
      if (loaded !== undefined) continue;
      const own = file === null ? null : await loadCatalog(catalogs, file);
      const fallback = rootFile === null ? null : await loadCatalog(catalogs, rootFile);
      const target = (own && catalogLocalFile(own, iri)) ?? (fallback && catalogLocalFile(fallback, iri));
      if (target === null) {
        reasons.set(
          iri,
          rootFile === null
            ? 'not loaded; remote documents resolve no imports'
            : 'not loaded and not mapped to a local file by a catalog-v001.xml',
        );
        continue;
      }
      let text: string;
      try {
        text = await readRegularFile(target, 'document', 'utf8');
      } catch (err) {
        reasons.set(
          iri,
          `the catalog maps it to ${target}, which cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        );
        continue;
      }
      const source = { text, base: pathToFileURL(target).href, document: target };
      const parsed = await parseDocument(source.text, source.base, target, signal);
      if (!ontologyIds(parsed).includes(iri)) {
        reasons.set(iri, `the catalog maps it to ${target}, which holds ${ontologyLabel(parsed)}`);
        continue;
      }
      if (ontologyIds(parsed).some((x) => ws.find(x) !== undefined || planned.has(x))) {
        reasons.set(iri, `the catalog maps it to ${target}, whose ontology id is already in use`);
        continue;
      }
      for (const x of ontologyIds(parsed)) planned.set(x, parsed);
      attach.push(parsed);
      read.set(parsed, source);
      queue.push({ o: parsed, file: target });
    }
  }
  const again = await retypeWithImports(read, (iri) => planned.get(iri) ?? ws.find(iri), signal);
  return { root: again.get(root) ?? root, attach: attach.map((o) => again.get(o) ?? o), reasons };
}

function locality(document: string | null): 'local' | 'remote' | 'memory' {
  if (document === null) return 'memory';
  return isRemote(document) ? 'remote' : 'local';
}

/** Every import edge of the closure of `root` in the workspace, breadth first, with the importer's depth + 1. */
export function importEdges(
  find: (iri: IRI) => Ontology | undefined,
  root: Ontology,
  reasons: ReadonlyMap<IRI, string>,
): { resolved: JsonObject[]; unresolved: JsonObject[] } {
  const resolved: JsonObject[] = [];
  const unresolved: JsonObject[] = [];
  const queue: { o: Ontology; depth: number }[] = [{ o: root, depth: 0 }];
  const seen = new Set([root]);
  for (const { o, depth } of queue) {
    const source = { source_ontology: ontologyLabel(o), source_document: o.documentIri };
    for (const iri of [...o.imports].sort()) {
      const target = find(iri);
      if (target === undefined) {
        unresolved.push({ import_iri: iri, ...source, depth: depth + 1, reason: reasons.get(iri) ?? 'not loaded in the workspace' });
        continue;
      }
      resolved.push({
        import_iri: iri,
        ...source,
        target_ontology: ontologyLabel(target),
        target_document: target.documentIri,
        depth: depth + 1,
        location: locality(target.documentIri),
      });
      if (!seen.has(target)) {
        seen.add(target);
        queue.push({ o: target, depth: depth + 1 });
      }
    }
  }
  return { resolved, unresolved };
}

/**
 * Plans the imports of a parsed document (nothing is attached) and applies the refusals of `missing_imports=error`
 * and `lock_mode` (the closure judged as it would be attached), so a refused call changes nothing.
 */
export async function prepareImports(
  parsed: Ontology,
  source: ReadSource,
  args: { missing_imports: MissingMode; lock_mode: LoadArgs['lock_mode'] },
  ctx: ToolContext,
  what: string,
): Promise<{ plan: ImportPlan; lock: ImportLockVerification | null }> {
  const document = source.document;
  const plan = await planImports(parsed, source, ctx.workspace, args.missing_imports === 'error', ctx.signal);
  if (args.missing_imports === 'error' && plan.reasons.size > 0) {
    const missing = [...plan.reasons].map(([iri, reason]) => ({ import_iri: iri, reason }));
    throw new ToolFailure(
      `Unresolved imports of ${document}: ${missing.map((m) => m.import_iri).join(', ')}; nothing was ${what}`,
      'missing_imports',
      { unresolved_imports: missing },
    );
  }
  try {
    return { plan, lock: await checkLoadLock(ctx, args.lock_mode, plan.root, plan.attach) };
  } catch (err) {
    // the refusal names what did not happen to this call's document
    const verification = err instanceof ToolFailure ? err.context.import_lock_verification : undefined;
    if (verification !== undefined && what !== 'loaded') throw lockRefusal(verification as ImportLockVerification, what);
    throw err;
  }
}

/** Parses the source and its catalog-resolved imports, then attaches them all at once (or nothing). */
async function attachNew(
  text: string,
  document: string,
  base: string,
  args: LoadArgs,
  ctx: ToolContext,
): Promise<{ o: Ontology; added: number; reasons: Map<IRI, string>; lock: ImportLockVerification | null }> {
  const { workspace: ws, signal } = ctx;
  const parsed = await parseDocument(text, base, document, signal);
  const clash = ontologyIds(parsed)
    .map((iri) => ws.find(iri))
    .find((x) => x !== undefined);
  if (clash !== undefined)
    throw new ToolFailure(
      `Ontology id ${ontologyIds(parsed).join(' ')} is already in use by another loaded ontology (${ontologyLabel(clash)})`,
      'id_in_use',
    );
  const { plan, lock } = await prepareImports(parsed, { text, base, document }, args, ctx, 'loaded');
  // the last point a cancelled load can stop: nothing is attached yet
  signal.throwIfAborted();
  ws.load(plan.root, !args.keep_active);
  for (const imported of plan.attach) ws.load(imported, false);
  return { o: plan.root, added: 1 + plan.attach.length, reasons: plan.reasons, lock };
}

interface LoadArgs {
  source: string;
  keep_active: boolean;
  connection_timeout_ms: number;
  missing_imports: MissingMode;
  network?: 'deny' | 'allow' | undefined;
  lock_mode: 'ignore' | 'verify' | 'required';
}

async function load(args: LoadArgs, ctx: ToolContext): Promise<JsonObject> {
  const ws = ctx.workspace;
  const { text, document, base } = await fetchSource(ctx, args.source, args.connection_timeout_ms, args.network);
  const existing = ws.ontologies.find((o) => o.documentIri === document);
  const { o, added, reasons, lock } =
    existing !== undefined
      ? { o: existing, added: 0, reasons: new Map<IRI, string>(), lock: await checkLoadLock(ctx, args.lock_mode, existing, []) }
      : await attachNew(text, document, base, args, ctx);
  if (!args.keep_active) ws.setActive(o);
  const edges = importEdges((iri) => ws.find(iri), o, reasons);
  return {
    loaded_document: document,
    loaded_ontology: ontologyLabel(o),
    loaded_axioms: o.axiomCount,
    active_ontology: ontologyLabel(ws.active),
    kept_active: args.keep_active,
    ...(o.documentIri === null ? {} : { document_iri: o.documentIri }),
    active: activeCounts(ws),
    added_ontologies: added,
    already_loaded: existing !== undefined,
    workspace_ontologies: ws.ontologies.length,
    missing_imports_mode: args.missing_imports,
    resolved_imports: edges.resolved,
    unresolved_imports: args.missing_imports === 'silent' ? [] : edges.unresolved,
    ...(lock === null ? {} : { import_lock_verification: lock }),
    note: 'Loading is not undoable.',
  };
}
