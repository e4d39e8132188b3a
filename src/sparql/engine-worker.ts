// The SPARQL evaluation thread: keeps one oxigraph Store for the latest snapshot it was given and answers
// queries over it. Oxigraph evaluates synchronously inside wasm and cannot be interrupted, so evaluation
// lives here, where the engine can bound it by terminating the thread.

import oxigraph from 'oxigraph';
import { SparqlFailure, type EvaluationRequest, type EvaluationResult, type ResultRow, type ResultTerm } from './engine-protocol.js';
import { HeldDataMissing, type HeldDataApi } from '../util/held-data-worker.js';
import { crossesThreads, exposeToParent } from '../util/thread-link.js';

crossesThreads(SparqlFailure);

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const EMPTY = new oxigraph.Store();
let loaded: { key: string; store: oxigraph.Store } | null = null;

interface JsonTerm {
  type: 'uri' | 'bnode' | 'literal' | 'typed-literal';
  value: string;
  'xml:lang'?: string;
  datatype?: string;
}

interface JsonResults {
  head: { vars?: string[] };
  boolean?: boolean;
  results?: { bindings: Record<string, JsonTerm>[] };
}

/** Blank-node labels are the store's random ids; results renumber them in order of appearance. */
class BlankLabels {
  private readonly labels = new Map<string, string>();
  label(id: string): string {
    let l = this.labels.get(id);
    if (l === undefined) this.labels.set(id, (l = `b${this.labels.size}`));
    return l;
  }
}

function resultTerm(t: JsonTerm, blanks: BlankLabels): ResultTerm {
  if (t.type === 'uri') return { type: 'uri', value: t.value };
  if (t.type === 'bnode') return { type: 'bnode', value: blanks.label(t.value) };
  const lang = t['xml:lang'];
  if (lang !== undefined) return { type: 'literal', value: t.value, lang };
  if (t.datatype !== undefined && t.datatype !== XSD_STRING) return { type: 'literal', value: t.value, datatype: t.datatype };
  return { type: 'literal', value: t.value };
}

function selectResult(json: JsonResults, limit: number): EvaluationResult {
  const all = json.results?.bindings ?? [];
  const blanks = new BlankLabels();
  const rows: ResultRow[] = all.slice(0, limit).map((b) => {
    const row: Record<string, ResultTerm> = {};
    for (const [name, term] of Object.entries(b).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) row[name] = resultTerm(term, blanks);
    return row;
  });
  return { kind: 'select', vars: json.head.vars ?? [], total: all.length, rows };
}

function graphResult(ntriples: string, limit: number): EvaluationResult {
  const blanks = new BlankLabels();
  const lines = ntriples
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => l.replace(/_:([A-Za-z0-9]+)/g, (_m, id: string) => `_:${blanks.label(id)}`))
    .sort();
  return { kind: 'graph', total: lines.length, lines: lines.slice(0, limit) };
}

function storeFor(req: EvaluationRequest): oxigraph.Store {
  if (req.parseOnly === true) return EMPTY;
  if (req.documents !== undefined) {
    loaded = null;
    const store = new oxigraph.Store();
    for (const doc of req.documents) store.load(doc, { format: 'application/n-triples', lenient: true, no_transaction: true });
    loaded = { key: req.snapshotKey, store };
  }
  if (loaded === null || loaded.key !== req.snapshotKey) throw new HeldDataMissing();
  return loaded.store;
}

function evaluate(req: EvaluationRequest): EvaluationResult {
  const store = storeFor(req);
  let raw: unknown;
  try {
    if (req.form === 'UPDATE') {
      new oxigraph.Store().update(req.query);
      return { kind: 'ask', boolean: true };
    }
    const graph = req.form === 'CONSTRUCT' || req.form === 'DESCRIBE';
    raw = store.query(req.query, { results_format: graph ? 'application/n-triples' : 'application/sparql-results+json' });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new SparqlFailure(message, /^error at \d+:\d+/.test(message) ? 'syntax' : 'evaluation');
  }
  if (req.form === 'CONSTRUCT' || req.form === 'DESCRIBE') return graphResult(String(raw), req.limit);
  const json = JSON.parse(String(raw)) as JsonResults;
  if (typeof json.boolean === 'boolean') return { kind: 'ask', boolean: json.boolean };
  return selectResult(json, req.limit);
}

const api: HeldDataApi<EvaluationRequest, EvaluationResult> = {
  async run(req) {
    try {
      return evaluate(req);
    } catch (e) {
      if (e instanceof SparqlFailure || e instanceof HeldDataMissing) throw e;
      throw new SparqlFailure(`The SPARQL evaluation thread failed: ${e instanceof Error ? e.message : String(e)}`, 'evaluation');
    }
  },
};
exposeToParent(api);
