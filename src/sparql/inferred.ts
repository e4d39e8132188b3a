// The reasoner's current inferences as one N-Triples document for `include_inferred`: the named-class
// taxonomy (rdfs:subClassOf to every named superclass, owl:equivalentClass between equivalent named
// classes) and rdf:type of every named individual to every named class it belongs to. Only the
// results of a classification at the current revision of a consistent ontology are used.

import type { Classification, ReasoningSession } from '../reasoner/pool.js';
import type { ErrorCode } from '../util/errors.js';
import { OWL, RDF, RDFS } from '../model/vocab.js';

export const NOT_MATERIALIZED = 'Inferences are unavailable: select a reasoner and run run_reasoner first';

export type InferredSnapshot =
  | { readonly kind: 'ready'; readonly key: string; readonly document: string; readonly note: string }
  | { readonly kind: 'unavailable'; readonly code: ErrorCode; readonly message: string };

const ids = new WeakMap<Classification, number>();
let nextId = 0;
const documents = new WeakMap<Classification, string>();

const lines = (s: string): string[] => (s === '' ? [] : s.split('\n'));
const SAFE_IRI = /^[^<>"{}|^`\\\x00-\x20]+$/;

function materialize(c: Classification): string {
  const out: string[] = [];
  const triple = (s: string, p: string, o: string): void => {
    if (SAFE_IRI.test(s) && SAFE_IRI.test(o)) out.push(`<${s}> <${p}> <${o}> .`);
  };
  for (const cls of lines(c.data.members)) {
    for (const sup of c.superclasses(cls, false)) triple(cls, RDFS + 'subClassOf', sup);
    for (const eq of c.equivalents(cls)) triple(cls, OWL + 'equivalentClass', eq);
  }
  for (const ind of lines(c.data.individuals)) for (const t of c.types(ind, false)) triple(ind, RDF + 'type', t);
  return out.join('\n') + '\n';
}

/** The materialized inferences of the selected reasoner, or why there are none (TOOLS.md 1.10). */
export function inferredDocument(session: ReasoningSession): InferredSnapshot {
  const status = session.status();
  const result = session.result;
  if (status === 'inconsistent')
    return {
      kind: 'unavailable',
      code: 'inconsistent_ontology',
      message: 'The ontology is inconsistent, so every statement is entailed: see explain_inconsistency',
    };
  if (status !== 'classified' || result === null)
    return { kind: 'unavailable', code: 'reasoner_not_ready', message: `${NOT_MATERIALIZED} (reasoner status: ${status})` };
  return readyInferences(result);
}

/** The materialized inferences of a finished classification of a consistent ontology (the window's, or a private one). */
export function readyInferences(result: Classification): InferredSnapshot {
  let id = ids.get(result);
  if (id === undefined) ids.set(result, (id = nextId++));
  let document = documents.get(result);
  if (document === undefined) documents.set(result, (document = materialize(result)));
  return {
    kind: 'ready',
    key: `inferred-${id}`,
    document,
    note: `Inferences of ${result.reasoner.name} materialized: rdfs:subClassOf and owl:equivalentClass between named classes, rdf:type of named individuals (property-level inferences are not included).`,
  };
}
