// What an MCP session of a window offers beyond tools and prompts: the server instructions, resources (each
// loaded ontology, its other formats, its entities) with subscriptions, completions of entity names,
// progress for long calls, and log messages about what an agent should know after a call.

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { LoggingLevel, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ontologyLabel, type Workspace } from '../model/workspace.js';
import type { FormatId, Ontology } from '../model/ontology.js';
import { ALL_FORMATS, parseFormatName } from '../model/formats/detect.js';
import { writeDocument } from '../model/formats/registry.js';
import type { JsonObject } from '../util/json-object.js';
import type { ProgressMeasure } from '../window/call-context.js';
import type { RecoveryNotice } from '../journal/recorder.js';

export const INSTRUCTIONS = [
  'Athene edits OWL 2 ontologies loaded in this window; the active ontology is the target of every edit (list_ontologies, set_active_ontology).',
  "Conventions of every tool: an argument naming an entity takes an IRI, a CURIE or a display name; a class expression is Manchester syntax; an unknown argument is refused; an argument described 'As tool's argument.' takes what that argument of that tool takes, listed in full there. Timeouts are in milliseconds. Paged lists take limit and offset, or a cursor from next_cursor. A preview argument (preview, dry_run, peek) applies nothing. Each ontology edit is one undo entry; loads, prefix changes and file writes are not undoable.",
  'Find terms before minting: search_entities ranks existing entities and says would_mint or best_match; reuse what exists, and search_external_terms when a project policy allows it.',
  "Edits: preview_changes (or a tool's preview/dry_run) shows what would change; apply_changes or the authoring tools commit one undo entry each; undo_change and redo_change step through them; save_ontology writes the document. With confirm-each-write, a write waits for the owner's approval.",
  'The project policy (.athene/project.yaml beside the document; get_project_policy) decides paths, network use, naming and gates; run_project_qc checks a change set against it.',
  'Resources: each loaded ontology is athene://ontology/{key} (subscribe for updates), its entities athene://ontology/{key}/entity/{iri}.',
].join('\n\n');

const MIME: Readonly<Record<FormatId, string>> = {
  turtle: 'text/turtle',
  ntriples: 'application/n-triples',
  nquads: 'application/n-quads',
  trig: 'application/trig',
  rdfxml: 'application/rdf+xml',
  jsonld: 'application/ld+json',
  owlxml: 'application/owl+xml',
  ofn: 'text/owl-functional',
  manchester: 'text/owl-manchester',
  obo: 'text/obo',
};

export const FORMAT_TEMPLATE = 'athene://ontology/{key}/format/{format}';
export const ENTITY_TEMPLATE = 'athene://ontology/{key}/entity/{iri}';

export const RESOURCE_TEMPLATES: readonly ResourceTemplate[] = [
  {
    uriTemplate: FORMAT_TEMPLATE,
    name: 'ontology-in-format',
    title: 'Loaded ontology in another format',
    description: `format: ${ALL_FORMATS.join(', ')}`,
  },
  {
    uriTemplate: ENTITY_TEMPLATE,
    name: 'entity',
    title: 'Entity card',
    description: 'The get_entity card of an entity (iri percent-encoded).',
    mimeType: 'application/json',
  },
];

/** Stable keys of the window's ontologies for resource URIs: a label changes with set_ontology_id, a key never. */
export class OntologyKeys {
  private readonly keys = new WeakMap<Ontology, number>();
  private next = 1;

  of(o: Ontology): number {
    let key = this.keys.get(o);
    if (key === undefined) {
      key = this.next++;
      this.keys.set(o, key);
    }
    return key;
  }

  uri(o: Ontology): string {
    return `athene://ontology/${this.of(o)}`;
  }

  find(ws: Workspace, key: number): Ontology | undefined {
    return ws.ontologies.find((o) => this.keys.get(o) === key);
  }
}

export function listResources(ws: Workspace, keys: OntologyKeys): Resource[] {
  return ws.ontologies.map((o) => ({
    uri: keys.uri(o),
    name: ontologyLabel(o),
    mimeType: MIME[o.format],
    description: `${o.axiomCount} axioms, ${o.format}`,
  }));
}

/** What a resource URI names; null when it is none of ours. */
export type ResourceTarget =
  | { readonly kind: 'document'; readonly ontology: Ontology; readonly format: FormatId }
  | { readonly kind: 'entity'; readonly ontology: Ontology; readonly iri: string };

const RESOURCE_URI = /^athene:\/\/ontology\/(\d+)(?:\/format\/([^/]+)|\/entity\/(.+))?$/;

export function resourceTarget(uri: string, ws: Workspace, keys: OntologyKeys): ResourceTarget | null {
  const m = RESOURCE_URI.exec(uri);
  if (m === null) return null;
  const ontology = keys.find(ws, Number(m[1]));
  if (ontology === undefined) return null;
  if (m[3] !== undefined) {
    let iri: string;
    try {
      iri = decodeURIComponent(m[3]);
    } catch {
      return null;
    }
    return { kind: 'entity', ontology, iri };
  }
  const format = m[2] === undefined ? ontology.format : parseFormatName(decodeURIComponent(m[2]));
  return format === null ? null : { kind: 'document', ontology, format };
}

export function documentContents(uri: string, o: Ontology, format: FormatId): { uri: string; mimeType: string; text: string } {
  return { uri, mimeType: MIME[format], text: writeDocument(o, format) };
}

/** Completion values for a resource template's `key` or `format` variable. */
export function completeTemplateVariable(name: string, value: string, ws: Workspace, keys: OntologyKeys): string[] {
  if (name === 'format') return ALL_FORMATS.filter((f) => f.startsWith(value));
  if (name === 'key') return ws.ontologies.map((o) => String(keys.of(o))).filter((k) => k.startsWith(value));
  return [];
}

/** One `notifications/message`: a level and a JSON payload (never a secret: only ontology facts). */
export interface Notice {
  readonly level: LoggingLevel;
  readonly logger: string;
  readonly data: JsonObject;
}

const WARNING_KEY = /(^|_)warnings?$/;
const MAX_LISTED_WARNINGS = 10;

/** What a finished call's result tells the agent to heed: incomplete reasoning and any warnings it carries. */
export function resultNotices(tool: string, body: JsonObject): Notice[] {
  const notices: Notice[] = [];
  if (body.completed === false)
    notices.push({
      level: 'warning',
      logger: tool,
      data: { message: 'Reasoning did not finish; its results are unknown', detail: body.message ?? null },
    });
  else if (body.complete === false)
    notices.push({
      level: 'warning',
      logger: tool,
      data: { message: 'Reasoning is incomplete: some axioms are outside what the reasoner handles, so inferences may be missing' },
    });
  for (const key of Object.keys(body)) {
    if (!WARNING_KEY.test(key)) continue;
    const value = body[key];
    const empty = value === null || value === undefined || (Array.isArray(value) && value.length === 0);
    if (empty) continue;
    // a long warning list is already in the result: the message carries its head and its size
    const shown =
      Array.isArray(value) && value.length > MAX_LISTED_WARNINGS
        ? { [key]: value.slice(0, MAX_LISTED_WARNINGS), [`${key}_count`]: value.length }
        : { [key]: value };
    notices.push({ level: 'warning', logger: tool, data: shown as JsonObject });
  }
  return notices;
}

/** The ontology loaded with triples that mapped to no axiom, as a warning. */
export function unmappedNotice(o: Ontology): Notice | null {
  if (o.unmapped.length === 0) return null;
  return {
    level: 'warning',
    logger: 'load_ontology',
    data: {
      message: `${o.unmapped.length} triple(s) or item(s) of ${ontologyLabel(o)} were not mapped to axioms`,
      ontology: ontologyLabel(o),
      unmapped_count: o.unmapped.length,
      first: o.unmapped.slice(0, 5),
    },
  };
}

/** Journaled changes of a document that were recovered or set aside when the window opened: each new session hears of them. */
export function recoveryNotice(n: RecoveryNotice): Notice {
  return { level: 'warning', logger: 'change_journal', data: { message: n.message, document: n.document, count: n.count, from: n.from } };
}

/** Most distinct resource URIs a session's queue holds; beyond it the session is told to re-list instead. */
const MAX_PENDING_UPDATES = 256;
/** Most log messages a session's queue holds while no stream is open; the oldest go first. */
const MAX_PENDING_NOTICES = 64;

/**
 * The notifications one session gets outside any request, sent on its standalone GET stream. The writer
 * only records into a bounded, coalescing queue (a URI updated twice is sent once); sending happens later,
 * and waits while the session has no open stream.
 */
export class SessionNotices {
  private readonly subscribed = new Set<string>();
  private readonly updated = new Set<string>();
  private readonly notices: Notice[] = [];
  private resourcesChanged = false;
  private toolsChanged = false;
  private openStreams = 0;
  private scheduled = false;

  constructor(
    private readonly server: Server,
    private readonly sessionId: string,
  ) {}

  subscribe(uri: string): void {
    this.subscribed.add(uri);
  }

  unsubscribe(uri: string): void {
    this.subscribed.delete(uri);
  }

  /** A change committed to the ontology of `uri`: subscribers of it, or of anything under it, hear of it. */
  ontologyChanged(uri: string): void {
    for (const s of this.subscribed) {
      if (s !== uri && !s.startsWith(uri + '/')) continue;
      if (this.updated.size >= MAX_PENDING_UPDATES && !this.updated.has(s)) this.resourcesChanged = true;
      else this.updated.add(s);
    }
    this.schedule();
  }

  resourceListChanged(): void {
    this.resourcesChanged = true;
    this.schedule();
  }

  toolListChanged(): void {
    this.toolsChanged = true;
    this.schedule();
  }

  log(notice: Notice): void {
    if (this.notices.length >= MAX_PENDING_NOTICES) this.notices.shift();
    this.notices.push(notice);
    this.schedule();
  }

  streamOpened(): void {
    this.openStreams++;
    this.schedule();
  }

  streamClosed(): void {
    this.openStreams = Math.max(0, this.openStreams - 1);
  }

  private schedule(): void {
    if (this.scheduled || this.openStreams === 0) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const uris = [...this.updated];
    const notices = this.notices.splice(0);
    const resources = this.resourcesChanged;
    const tools = this.toolsChanged;
    this.updated.clear();
    this.resourcesChanged = false;
    this.toolsChanged = false;
    try {
      if (resources) await this.server.sendResourceListChanged();
      if (tools) await this.server.sendToolListChanged();
      for (const uri of uris) await this.server.sendResourceUpdated({ uri });
      for (const n of notices) await this.server.sendLoggingMessage({ level: n.level, logger: n.logger, data: n.data }, this.sessionId);
    } catch {
      // the session is closing: what it was not sent no longer matters
    } finally {
      this.scheduled = false;
      if (this.updated.size > 0 || this.notices.length > 0 || this.resourcesChanged || this.toolsChanged) this.schedule();
    }
  }
}

/** How often a long call's progress is repeated: well within the 2 s a client may wait for a sign of life. */
const BEAT_MS = 1000;
/** The least step between two progress values: MCP wants every notification's progress above the last one. */
const MIN_STEP = 0.001;

/** One progress notification's numbers. */
export interface ProgressValue {
  readonly progress: number;
  readonly total?: number;
}

/**
 * Progress notifications for one call whose request carried a progress token: the current phase, repeated
 * every second. A phase with a measure reports `done` of its `total`; one without counts its beats. Either
 * way each value is above the one before, as MCP requires, and a measured one never passes its total.
 */
export class ProgressBeat {
  private last = 0;
  private measure: ProgressMeasure | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly send: (value: ProgressValue, message: string) => Promise<void>,
    private message: string,
  ) {
    this.beat();
    this.timer = setInterval(() => this.beat(), BEAT_MS);
  }

  phase(message: string, measure?: ProgressMeasure): void {
    if (message === this.message && measure === this.measure) return;
    this.message = message;
    this.measure = measure;
    this.beat();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private beat(): void {
    const value = nextProgress(this.last, this.measure);
    this.last = value.progress;
    this.send(value, this.message).catch(() => this.stop());
  }
}

/**
 * The progress after `last`: with a measure, how far it has come, kept above `last` and at most its total;
 * without one, or once the total is reached, one beat more.
 */
export function nextProgress(last: number, measure: ProgressMeasure | undefined): ProgressValue {
  if (measure !== undefined) {
    const done = Math.min(measure.total, Math.max(measure.done(), last + MIN_STEP));
    if (done > last) return { progress: done, total: measure.total };
  }
  return { progress: Math.floor(last) + 1 };
}
