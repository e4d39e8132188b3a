// The SPARQL engine of one window: a private snapshot of the active ontology's imports closure, loaded into
// an oxigraph Store on its own thread and reused until the model state changes. The snapshot key is the
// workspace revision (every edit, undo, load, reload and active switch moves it) plus the closure members'
// identity, so a query after any change sees the change. A call that outlives `timeout_ms` terminates the
// thread (oxigraph cannot interrupt an evaluation); the next call starts a fresh one.

import type { Workspace } from '../model/workspace.js';
import type { Ontology } from '../model/ontology.js';
import { writeNTriples } from '../model/formats/rdf-writers.js';
import { SparqlFailure, type EvaluationRequest, type EvaluationResult } from './engine-protocol.js';
import { HeldDataWorker } from '../util/held-data-worker.js';
import { crossesThreads } from '../util/thread-link.js';

export { SparqlFailure } from './engine-protocol.js';

crossesThreads(SparqlFailure);

export interface EvaluateOptions {
  readonly form: EvaluationRequest['form'];
  readonly limit: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Parse against an empty store only (no snapshot is built). */
  readonly parseOnly?: boolean;
  /** A further N-Triples document in the snapshot (materialized inferences), named by `key`. */
  readonly extra?: { readonly key: string; readonly document: string } | undefined;
  /** Evaluate over these ontologies (a private QC snapshot's closure) instead of the live active closure. */
  readonly closure?: readonly Ontology[] | undefined;
}

const closureIds = new WeakMap<Ontology, number>();
let nextClosureId = 0;

/** The closure members' ids, in order (stable per object). */
function closureKey(closure: readonly Ontology[]): string {
  return closure
    .map((o) => {
      let id = closureIds.get(o);
      if (id === undefined) closureIds.set(o, (id = nextClosureId++));
      return id;
    })
    .join(',');
}

/** Names a model state: the revision and which ontologies form the closure (ids stable per object). */
export function snapshotKey(ws: Workspace, closure: readonly Ontology[]): string {
  return `${ws.revision}:${closureKey(closure)}`;
}

/** Names a private snapshot: its root is a private copy, so the objects alone identify it. */
function privateKey(closure: readonly Ontology[]): string {
  return `private:${closureKey(closure)}`;
}

export class SparqlEngine {
  private readonly thread = new HeldDataWorker<Omit<EvaluationRequest, 'documents'>, EvaluationResult>({
    url: new URL('./engine-worker.js', import.meta.url),
    work: 'SPARQL evaluation',
    failure: (message, kind) => new SparqlFailure(message, kind === 'lost' ? 'evaluation' : kind),
  });

  constructor(private readonly workspace: Workspace) {}

  /** Whether the engine's thread is running (it starts on the first query). */
  get running(): boolean {
    return this.thread.running;
  }

  /** The window is closing: the thread ends, and the snapshot it held with it. */
  close(): Promise<void> {
    return this.thread.close();
  }

  evaluate(query: string, options: EvaluateOptions): Promise<EvaluationResult> {
    return this.thread.serialized(() => this.evaluateNow(query, options));
  }

  private async evaluateNow(query: string, options: EvaluateOptions): Promise<EvaluationResult> {
    const closure = options.parseOnly === true ? [] : (options.closure ?? this.workspace.importsClosure(this.workspace.active));
    const extra = options.extra;
    const state = options.closure === undefined ? snapshotKey(this.workspace, closure) : privateKey(closure);
    const key = options.parseOnly === true ? 'empty' : state + (extra === undefined ? '' : `|${extra.key}`);
    return this.thread.request(
      { snapshotKey: key, query, form: options.form, limit: options.limit, parseOnly: options.parseOnly === true },
      {
        key,
        documents:
          options.parseOnly === true ? null : () => [...closure.map(writeNTriples), ...(extra === undefined ? [] : [extra.document])],
        // The thread keeps a snapshot it loaded even when the query was refused.
        keeps: (failure) => failure instanceof SparqlFailure && failure.reason === 'syntax',
        deadline: Date.now() + options.timeoutMs,
        signal: options.signal,
      },
    );
  }
}
