// The data graph SHACL validates: the imports-closure RDF (OWL 2 RDF mapping, one N-Triples document per
// member, blank nodes distinct per document), with the selected reasoner's materialized inferences when asked.

import type { Workspace } from '../model/workspace.js';
import type { Ontology } from '../model/ontology.js';
import { writeNTriples } from '../model/formats/rdf-writers.js';
import type { InferredSnapshot } from '../sparql/inferred.js';
import type { DataGraph } from './engine.js';
import { snapshotKey } from '../sparql/engine.js';

type Ready = Extract<InferredSnapshot, { kind: 'ready' }>;

/** The active ontology's closure at the current revision (reused by the thread while unchanged). */
export function workspaceDataGraph(ws: Workspace, inferred: Ready | null): DataGraph {
  const closure = ws.importsClosure(ws.active);
  return {
    key: snapshotKey(ws, closure) + (inferred === null ? '' : `|${inferred.key}`),
    documents: () => [...closure.map(writeNTriples), ...(inferred === null ? [] : [inferred.document])],
  };
}

/** A private snapshot's closure (a QC snapshot: never reused). */
export function snapshotDataGraph(closure: readonly Ontology[]): DataGraph {
  return { key: null, documents: () => closure.map(writeNTriples) };
}
