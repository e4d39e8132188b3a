// The module-extraction thread (a piscina worker): rebuilds the snapshot, extracts the module and sends it
// back either serialized in the requested format (a save) or in the transfer encoding (a workspace load).
// Interned model objects cannot cross threads, so seeds travel as (kind, IRI) pairs.

import { move, transferableSymbol, valueSymbol } from 'piscina';
import { Ontology, type FormatId } from '../ontology.js';
import { entity, type EntityKind, type IRI } from '../terms.js';
import { decodeOntology, encodeOntology, transferables, type EncodedOntology } from '../transfer.js';
import { writeDocument } from '../formats/registry.js';
import { extractModule, type ModuleType } from './extract.js';

export interface ModuleTask {
  /** The axioms to extract from (the header carries the prefix map the module keeps). */
  readonly source: EncodedOntology;
  readonly seeds: readonly (readonly [EntityKind, IRI])[];
  readonly type: ModuleType;
  readonly moduleIri: IRI | null;
  /** Serialize in this format; null: send the module back encoded. */
  readonly format: FormatId | null;
}

export interface ModuleOutcome {
  readonly axioms: number;
  readonly entities: number;
  readonly text?: string;
  readonly encoded?: EncodedOntology;
}

function extract(task: ModuleTask): ModuleOutcome {
  const source = decodeOntology(task.source);
  const seeds = task.seeds.map(([kind, iri]) => entity(kind, iri));
  const module = extractModule([...source.axioms()], seeds, task.type);
  const o = new Ontology();
  if (task.moduleIri !== null) o.id = { iri: task.moduleIri, versionIri: null };
  for (const [prefix, ns] of source.prefixes) o.prefixes.set(prefix, ns);
  o.format = task.format ?? source.format;
  o.addAll(module.axioms);
  const counts = { axioms: o.axiomCount, entities: module.entities.size };
  return task.format === null ? { ...counts, encoded: encodeOntology(o) } : { ...counts, text: writeDocument(o, task.format) };
}

/** Piscina's task handler; an encoded module moves its typed arrays instead of copying them. */
export default function handle(task: ModuleTask): unknown {
  const outcome = extract(task);
  if (outcome.encoded === undefined) return outcome;
  return move({ [transferableSymbol]: transferables(outcome.encoded), [valueSymbol]: outcome });
}
