// Ontology header tools (TOOLS.md 3.5, INTERFACE.md 4.3): set_ontology_id, set_prefix, remove_prefix,
// add_import, remove_import, add_ontology_annotation, remove_ontology_annotation. All act on the active
// ontology. Prefix edits are document-format changes (not undoable); the others are one undo unit each.
//
// Also the reading of caller-selected documents, authorized by the project policy rules (src/policy).

import * as v from 'valibot';

import { pathToFileURL } from 'node:url';
import type { Annotation } from '../../model/terms.js';
import * as t from '../../model/terms.js';
import type { Ontology } from '../../model/ontology.js';
import type { Change } from '../../model/changes.js';
import { hasPrefixMap } from '../../model/changes.js';
import { ontologyLabel } from '../../model/workspace.js';
import { displayName } from '../../model/display.js';
import { buildAxiom } from '../../model/operands/builder.js';
import { AnnotationSchema, type AnnotationInput } from '../../model/operands/schema.js';
import { readDocument } from '../../model/formats/registry.js';
import { XSD_STRING, STANDARD_PREFIXES } from '../../model/vocab.js';
import { annotationRow } from '../../report/rows.js';
import { authorizeLocalPath, authorizeRemote } from '../../policy/authorize.js';
import type { FetchPurpose } from '../../policy/path-rules.js';
import { classifySource } from '../../policy/paths.js';
import type { CallContext } from '../../window/call-context.js';
import { defineTool, always, ToolFailure, type ToolContext } from '../core/tool.js';
import { absoluteIri } from '../../model/iri.js';
import { FileReadError, readRegularFile } from '../../util/file-read.js';
import { resolveCallerPath } from '../../policy/path-rules.js';
import { resolvePolicy } from '../../policy/resolve.js';
import { AnyObject } from '../core/result-shapes.js';

// ---------------------------------------------------------------- caller-selected documents

/**
 * The body of a remote document. An unreachable host, a refused connection, a timeout or an HTTP error is
 * `load_failed` naming the cause; the caller's cancellation passes through as itself.
 */
export async function fetchText(url: string, source: string, timeoutMs: number, signal: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { signal: AbortSignal.any([timeout, signal]) });
    if (!response.ok) throw new ToolFailure(`Cannot fetch ${source}: HTTP ${response.status}`, 'load_failed');
    return await response.text();
  } catch (err) {
    if (err instanceof ToolFailure || signal.aborted) throw err;
    if (timeout.aborted)
      throw new ToolFailure(`Cannot fetch ${source}: no complete answer within ${timeoutMs} ms (connection_timeout_ms)`, 'load_failed');
    // undici reports "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND, ...) in `cause`
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    throw new ToolFailure(`Cannot fetch ${source}: ${cause ?? (err as Error).message}`, 'load_failed');
  }
}

/** Fetches and parses a document after authorizing it (as an import or a plain document); nothing in the workspace changes. */
export async function fetchDocument(
  ctx: CallContext,
  tool: string,
  source: string,
  timeoutMs: number,
  network: 'deny' | 'allow' | undefined,
  purpose: FetchPurpose,
): Promise<Ontology> {
  const src = classifySource(source);
  let text: string;
  let base: string;
  let document: string;
  if (src.remote) {
    await authorizeRemote(ctx, tool, src.url, network, { purpose });
    text = await fetchText(src.url, source, timeoutMs, ctx.signal);
    base = src.url;
    document = source;
  } else {
    const res = await resolvePolicy(ctx);
    const file = resolveCallerPath(ctx, res, src.file);
    await authorizeLocalPath(ctx, tool, file, 'read', { resolution: res });
    try {
      text = await readRegularFile(file, 'document', 'utf8');
    } catch (err) {
      if (err instanceof FileReadError) throw err;
      throw new ToolFailure(`Cannot read ${file}: ${(err as Error).message}`, 'load_failed');
    }
    base = pathToFileURL(file).href;
    document = file;
  }
  let o: Ontology;
  try {
    o = (await readDocument(text, { base, fileName: document })).ontology;
  } catch (err) {
    throw new ToolFailure(`Cannot parse ${document}: ${(err as Error).message}`, 'parse_error');
  }
  o.documentIri = document;
  return o;
}

// ---------------------------------------------------------------- shared pieces

/** `prefix` with exactly one trailing ':' (':' alone is the default namespace). */
export function normalizePrefix(prefix: string): string {
  const p = prefix.trim();
  return p.endsWith(':') ? p : p + ':';
}

/** A prefix name as Turtle and SPARQL accept it (PN_PREFIX, ASCII subset): empty, or a letter first and no final '.'. */
const PREFIX_NAME = /^(?:[A-Za-z](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?)?:$/;

function requirePrefixMap(o: Ontology): void {
  if (!hasPrefixMap(o)) throw new ToolFailure(`The active ontology's document format (${o.format}) has no prefix map`, 'no_prefix_map');
}

/** The prefix map as an object with keys in sorted order, so unchanged maps serialize identically. */
/** A document prefix map in a declared result shape: prefix → namespace. */
const PrefixesOutput = v.record(v.string(), v.string());

export function prefixObject(o: Ontology): Record<string, string> {
  // the standard five are always there: every writer binds them and set_prefix/remove_prefix keep them
  const map = new Map<string, string>([...STANDARD_PREFIXES, ...o.prefixes]);
  const out: Record<string, string> = {};
  for (const key of [...map.keys()].sort()) out[key] = map.get(key)!;
  return out;
}

/** Refuses an edit of a standard binding (`rdf:`, `rdfs:`, `owl:`, `xsd:`, `xml:`) other than to its own namespace. */
function keepStandard(prefix: string, namespace: string | null): void {
  const standard = STANDARD_PREFIXES.find(([p]) => p === prefix)?.[1];
  if (standard === undefined || namespace === standard) return;
  throw new ToolFailure(
    `${prefix} is a standard binding (${standard}) and cannot be ${namespace === null ? 'removed' : 'rebound'}`,
    'invalid_argument',
    { prefix, standard_namespace: standard },
  );
}

/** `property = value` for messages: the property's display name, a quoted literal or an `<IRI>`. */
function describeAnnotation(a: Annotation, ctx: ToolContext): string {
  const property = displayName(a.property, ctx.resolver.closure, ctx.settings.label_language);
  const value = a.value;
  if (value.kind === 'IRI') return `${property} = <${value.iri}>`;
  if (value.kind === 'AnonymousIndividual') return `${property} = _:${value.nodeId}`;
  const suffix = value.lang !== '' ? '@' + value.lang : value.datatype === XSD_STRING ? '' : `^^<${value.datatype}>`;
  return `${property} = ${JSON.stringify(value.lex)}${suffix}`;
}

/** Placeholder subject: the header annotation is built as an annotation assertion and then unwrapped. */
const HEADER_SUBJECT = '<urn:x-athene:ontology-header>';

type AnnotationArgs = AnnotationInput;

/**
 * Builds an ontology annotation with the shared operand builder, so it resolves names, mints and checks
 * exactly as an `annotation_assertion` operand set does; returns it with the declarations (and labels of
 * generated ids) a write adds.
 */
function buildHeaderAnnotation(args: AnnotationArgs, ctx: ToolContext): { annotation: Annotation; declarations: readonly t.Axiom[] } {
  const built = buildAxiom({ axiom_type: 'annotation_assertion', subject: HEADER_SUBJECT, ...args }, ctx.resolver);
  const a = built.axiom as t.AnnotationAssertion;
  return { annotation: t.annotation(a.property, a.value, a.annotations), declarations: [...built.declarations, ...built.labels] };
}

// ---------------------------------------------------------------- tools

export const setOntologyId = defineTool({
  name: 'set_ontology_id',
  description: "Set the active ontology's IRI and version IRI (omitted: cleared).",
  input: v.strictObject({
    ontology_iri: v.pipe(v.string(), v.nonEmpty()),
    version_iri: v.optional(v.pipe(v.string(), v.nonEmpty())),
  }),
  output: v.object({ ontology_iri: v.nullable(v.string()), version_iri: v.optional(v.string()), message: v.string() }),
  capabilities: ['ontology:admin'],
  mutating: always,
  rehearse: true,
  destructive: true,
  idempotent: true,
  summary: (args) => `set_ontology_id ${args.ontology_iri}${args.version_iri === undefined ? '' : ' version ' + args.version_iri}`,
  handler: (args, ctx) => {
    const iri = absoluteIri(args.ontology_iri, 'ontology_iri');
    const versionIri = args.version_iri === undefined ? null : absoluteIri(args.version_iri, 'version_iri');
    const o = ctx.workspace.active;
    // the workspace refuses an id another loaded ontology holds (WorkspaceError id_in_use); nothing changes then
    ctx.workspace.apply([{ kind: 'SetOntologyId', ontology: o, id: { iri, versionIri } }]);
    return {
      ontology_iri: o.id.iri,
      ...(versionIri === null ? {} : { version_iri: versionIri }),
      message: `Set ontology id to ${iri}${versionIri === null ? '' : ' version ' + versionIri}.`,
    };
  },
});

export const setPrefix = defineTool({
  name: 'set_prefix',
  description: 'Bind a prefix of the document (":" is the default namespace).',
  input: v.strictObject({
    prefix: v.pipe(v.string(), v.description('With or without ":".')),
    namespace: v.pipe(v.string(), v.nonEmpty()),
  }),
  output: v.object({ prefix: v.string(), namespace: v.string(), prefixes: PrefixesOutput }),
  capabilities: ['ontology:admin'],
  mutating: always,
  rehearse: true,
  destructive: true,
  idempotent: true,
  summary: (args) => `set_prefix ${normalizePrefix(args.prefix)} ${args.namespace}`,
  handler: (args, ctx) => {
    const o = ctx.workspace.active;
    requirePrefixMap(o);
    const prefix = normalizePrefix(args.prefix);
    if (!PREFIX_NAME.test(prefix)) throw new ToolFailure(`Not a valid prefix name: ${JSON.stringify(args.prefix)}`, 'invalid_argument');
    const namespace = absoluteIri(args.namespace, 'namespace');
    keepStandard(prefix, namespace);
    ctx.workspace.apply([{ kind: 'SetPrefix', ontology: o, prefix, namespace }]);
    return { prefix, namespace, prefixes: prefixObject(o) };
  },
});

export const removePrefix = defineTool({
  name: 'remove_prefix',
  description: 'Remove one prefix binding of the document.',
  input: v.strictObject({ prefix: v.pipe(v.string(), v.description('With or without ":".')) }),
  output: v.object({ removed: v.boolean(), prefix: v.string(), namespace: v.string(), prefixes: PrefixesOutput, note: v.string() }),
  capabilities: ['ontology:admin'],
  mutating: always,
  rehearse: true,
  destructive: true,
  idempotent: true,
  summary: (args) => `remove_prefix ${normalizePrefix(args.prefix)}`,
  handler: (args, ctx) => {
    const o = ctx.workspace.active;
    requirePrefixMap(o);
    const prefix = normalizePrefix(args.prefix);
    keepStandard(prefix, null);
    const namespace = o.prefixes.get(prefix);
    if (namespace === undefined)
      throw new ToolFailure(`Prefix not registered in the active ontology's prefix map: ${prefix}`, 'not_found', { prefix });
    ctx.workspace.apply([{ kind: 'RemovePrefix', ontology: o, prefix }]);
    return {
      removed: true,
      prefix,
      namespace,
      prefixes: prefixObject(o),
      note: `Not undoable: CURIEs using ${prefix} no longer parse or render; re-add it with set_prefix.`,
    };
  },
});

const UNRESOLVED_NOTE =
  'The import is declared but no loaded ontology satisfies it: its terms stay invisible to lookups and reasoning until it is loaded. ' +
  'Pass document, use load_ontology with keep_active=true, or add a catalog mapping.';

export const addImport = defineTool({
  name: 'add_import',
  description: 'Add an owl:imports; with document, load the imported document too.',
  input: v.strictObject({
    iri: v.pipe(v.string(), v.nonEmpty()),
    document: v.optional(v.pipe(v.string(), v.nonEmpty())),
    connection_timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3_600_000)), 15000),
    network: v.optional(v.picklist(['deny', 'allow'])),
  }),
  output: v.object({
    added: v.boolean(),
    iri: v.string(),
    already_present: v.boolean(),
    resolved: v.boolean(),
    document: v.optional(v.string()),
    note: v.optional(v.string()),
  }),
  capabilities: ['ontology:admin'],
  mutating: always,
  // a document to fetch is fetched once, by the call itself
  rehearse: (args) => args.document === undefined,
  idempotent: true,
  // document may be an http(s) URL
  openWorld: true,
  summary: (args) => `add_import ${args.iri}${args.document === undefined ? '' : ' from ' + args.document}`,
  handler: async (args, ctx) => {
    const ws = ctx.workspace;
    const active = ws.active;
    const iri = absoluteIri(args.iri, 'iri');
    let loaded: Ontology | null = null;
    if (args.document !== undefined && ws.find(iri) === undefined) {
      loaded = await fetchDocument(ctx, 'add_import', args.document, args.connection_timeout_ms, args.network, 'import');
      if (loaded.id.iri !== iri && loaded.id.versionIri !== iri) {
        throw new ToolFailure(
          `The document ${args.document} holds ontology ${ontologyLabel(loaded)}, not ${iri}: the import would not resolve`,
          'load_failed',
        );
      }
      if (ws.active !== active)
        throw new ToolFailure('The active ontology changed while the document was loading; nothing was changed', 'revision_conflict');
    }
    // a call cancelled while its document loaded changes nothing
    ctx.signal.throwIfAborted();
    // read after the fetch: other calls of this window may have run meanwhile
    const alreadyPresent = active.imports.has(iri);
    if (loaded !== null) ws.load(loaded, false);
    try {
      if (!alreadyPresent) ws.apply([{ kind: 'AddImport', ontology: active, iri }]);
    } catch (err) {
      if (loaded !== null) ws.unload(loaded);
      throw err;
    }
    const resolved = ws.find(iri) !== undefined;
    return {
      added: !alreadyPresent,
      iri,
      already_present: alreadyPresent,
      resolved,
      ...(args.document === undefined ? {} : { document: args.document }),
      ...(resolved ? {} : { note: UNRESOLVED_NOTE }),
    };
  },
});

export const removeImport = defineTool({
  name: 'remove_import',
  description: 'Remove an owl:imports; the imported ontology stays loaded.',
  input: v.strictObject({ iri: v.pipe(v.string(), v.nonEmpty()) }),
  output: v.object({ removed: v.boolean(), iri: v.string() }),
  capabilities: ['ontology:admin'],
  mutating: always,
  rehearse: true,
  destructive: true,
  idempotent: true,
  summary: (args) => `remove_import ${args.iri}`,
  handler: (args, ctx) => {
    const o = ctx.workspace.active;
    const iri = args.iri.trim().replace(/^<(.*)>$/, '$1');
    if (!o.imports.has(iri)) throw new ToolFailure(`Import not present in the active ontology: ${iri}`, 'not_found', { iri });
    ctx.workspace.apply([{ kind: 'RemoveImport', ontology: o, iri }]);
    return { removed: true, iri };
  },
});

const AnnotationArgsSchema = {
  property: v.optional(v.pipe(v.string(), v.nonEmpty())),
  value: v.optional(v.pipe(v.string(), v.description('Literal text; or value_iri.'))),
  value_iri: v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('Wins over value.'))),
  lang: v.optional(v.string()),
  datatype: v.optional(v.pipe(v.string(), v.nonEmpty())),
  annotations: v.optional(v.array(AnnotationSchema)),
};

export const addOntologyAnnotation = defineTool({
  name: 'add_ontology_annotation',
  description: 'Add an ontology annotation.',
  input: v.strictObject(AnnotationArgsSchema),
  output: v.object({ added: v.boolean(), annotation: AnyObject, already_present: v.boolean() }),
  capabilities: ['ontology:admin'],
  mutating: always,
  rehearse: true,
  idempotent: true,
  summary: (args) => `add_ontology_annotation ${args.property ?? 'rdfs:label'} = ${args.value_iri ?? args.value ?? ''}`,
  handler: (args, ctx) => {
    const o = ctx.workspace.active;
    const { annotation, declarations } = buildHeaderAnnotation(args, ctx);
    const present = o.annotations.has(annotation);
    const changes: Change[] = [];
    if (!present) {
      for (const d of declarations) if (!o.has(d)) changes.push({ kind: 'AddAxiom', ontology: o, axiom: d });
      changes.push({ kind: 'AddOntologyAnnotation', ontology: o, annotation });
      ctx.workspace.apply(changes);
    }
    return { added: !present, annotation: annotationRow(annotation, ctx), already_present: present };
  },
});

export const removeOntologyAnnotation = defineTool({
  name: 'remove_ontology_annotation',
  description: 'Remove an ontology annotation equal to the one given.',
  input: v.strictObject(AnnotationArgsSchema),
  output: v.object({ removed: v.boolean(), annotation: AnyObject }),
  capabilities: ['ontology:admin'],
  mutating: always,
  rehearse: true,
  destructive: true,
  idempotent: true,
  summary: (args) => `remove_ontology_annotation ${args.property ?? 'rdfs:label'} = ${args.value_iri ?? args.value ?? ''}`,
  handler: (args, ctx) => {
    const o = ctx.workspace.active;
    const { annotation } = buildHeaderAnnotation(args, ctx);
    if (!o.annotations.has(annotation)) {
      throw new ToolFailure(`Ontology annotation not present: ${describeAnnotation(annotation, ctx)}`, 'not_found', {
        annotation: annotationRow(annotation, ctx),
      });
    }
    ctx.workspace.apply([{ kind: 'RemoveOntologyAnnotation', ontology: o, annotation }]);
    return { removed: true, annotation: annotationRow(annotation, ctx) };
  },
});
