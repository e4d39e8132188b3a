// The changes a mapping commit applies to a set, as pure functions of documents: add one record (with the
// set's metadata and prefixes on the first add), remove one, and merge an imported set by mapping id. Each
// refuses with a DomainError naming what is wrong; nothing here touches the disk.

import { DomainError } from '../util/errors.js';
import {
  MAPPING_ID_PATTERN,
  PREFIX_NAME,
  effectivePrefixes,
  expanderFor,
  sortRecords,
  type ExtensionDefinition,
  type MappingDocument,
  type MappingRecord,
  type MetadataValue,
} from './document.js';
import { isAbsoluteIri } from '../model/iri.js';
import { MAPPING_ID, BUILT_IN_PREFIXES } from './slots.js';
import { MAX_CELL_BYTES, MAX_COLUMNS, MAX_RECORDS, columnProblem, recordOf } from './tsv.js';

export interface NewMapping {
  /** SSSOM cells by column; an empty or absent `mapping_id` gets the stable id. */
  readonly cells: Readonly<Record<string, string>>;
  readonly mapping_set_id?: string | undefined;
  readonly license?: string | undefined;
  readonly prefix_map?: Readonly<Record<string, string>> | undefined;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

function invalid(message: string, argument: string): DomainError {
  return new DomainError(message, 'invalid_argument', { argument, committed: false });
}

/** The set's prefixes with `extra` added; a prefix bound to another IRI is a conflict, never a silent rebind. */
function mergedPrefixes(
  current: Readonly<Record<string, string>>,
  extra: Readonly<Record<string, string>>,
  argument: string,
): Record<string, string> {
  const out = { ...current };
  for (const [name, iri] of Object.entries(extra)) {
    if (!PREFIX_NAME.test(name) || !isAbsoluteIri(iri))
      throw invalid(`${argument}: '${name.slice(0, 64)}' must be a prefix name mapped to an absolute IRI`, argument);
    const bound = Object.hasOwn(BUILT_IN_PREFIXES, name) ? BUILT_IN_PREFIXES[name] : out[name];
    if (bound !== undefined && bound !== iri) {
      throw new DomainError(`${argument}: the prefix '${name}' is already bound to ${bound}`, 'prefix_conflict', {
        prefix: name,
        bound_iri: bound,
        committed: false,
      });
    }
    if (!Object.hasOwn(BUILT_IN_PREFIXES, name)) out[name] = iri;
  }
  return out;
}

/** Set metadata the caller names must agree with the set's; on an absent store both are required. */
function metadataFor(doc: MappingDocument, exists: boolean, input: NewMapping): Record<string, MetadataValue> {
  const metadata: Record<string, MetadataValue> = { ...doc.metadata };
  for (const slot of ['mapping_set_id', 'license'] as const) {
    const given = input[slot];
    if (given !== undefined && !isAbsoluteIri(given)) throw invalid(`${slot} must be an absolute IRI`, slot);
    if (!exists) {
      if (given === undefined) throw invalid(`${slot} is required on the first add to an absent mapping store`, slot);
      metadata[slot] = given;
    } else if (given !== undefined && metadata[slot] !== undefined && metadata[slot] !== given) {
      throw new DomainError(`${slot} ${given} differs from the store's ${String(metadata[slot])}`, 'metadata_conflict', {
        field: slot,
        committed: false,
      });
    } else if (given !== undefined) metadata[slot] = given;
  }
  return metadata;
}

/** Checks and normalizes caller cells: known columns only, no control characters, bounded, empty cells dropped. */
export function checkedCells(cells: Readonly<Record<string, string>>, extensions: readonly ExtensionDefinition[]): Record<string, string> {
  const entries = Object.entries(cells);
  if (entries.length > MAX_COLUMNS) throw invalid(`mapping has ${entries.length} columns; at most ${MAX_COLUMNS}`, 'mapping');
  const out: Record<string, string> = {};
  for (const [name, value] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const problem = columnProblem(name, extensions);
    if (problem !== null) throw invalid(`mapping: ${problem}`, 'mapping');
    if (CONTROL.test(value))
      throw invalid(`mapping.${name} holds a control character (tabs and line breaks cannot be stored in SSSOM/TSV)`, 'mapping');
    if (Buffer.byteLength(value, 'utf8') > MAX_CELL_BYTES)
      throw invalid(`mapping.${name} is larger than ${MAX_CELL_BYTES} bytes`, 'mapping');
    if (value !== '') out[name] = value;
  }
  const id = out[MAPPING_ID];
  if (id !== undefined && !MAPPING_ID_PATTERN.test(id))
    throw invalid("mapping.mapping_id must be 1-128 letters, digits, '.', '_', ':' or '-' (or empty for the stable id)", 'mapping');
  return out;
}

/** The set with one more record; refuses an id already present. */
export function withAddedMapping(
  doc: MappingDocument,
  exists: boolean,
  input: NewMapping,
): { document: MappingDocument; record: MappingRecord } {
  const metadata = metadataFor(doc, exists, input);
  const prefixes = mergedPrefixes(doc.prefixes, input.prefix_map ?? {}, 'prefix_map');
  const record = recordOf(checkedCells(input.cells, doc.extensions), expanderFor(effectivePrefixes({ prefixes })));
  if (doc.records.some((r) => r.mapping_id === record.mapping_id)) {
    throw new DomainError(`mapping ${record.mapping_id} is already in the store`, 'mapping_exists', {
      mapping_id: record.mapping_id,
      committed: false,
    });
  }
  if (doc.records.length >= MAX_RECORDS)
    throw new DomainError(`the store already holds ${MAX_RECORDS} mappings`, 'store_full', { committed: false });
  return { document: { ...doc, metadata, prefixes, records: sortRecords([...doc.records, record]) }, record };
}

/** The set without one record; refuses an unknown id. */
export function withoutMapping(doc: MappingDocument, mappingId: string): MappingDocument {
  const records = doc.records.filter((r) => r.mapping_id !== mappingId);
  if (records.length === doc.records.length)
    throw new DomainError(`no mapping ${mappingId} in the store`, 'unknown_mapping', { mapping_id: mappingId, committed: false });
  return { ...doc, records };
}

export interface MergeOutcome {
  readonly document: MappingDocument;
  readonly added: number;
  readonly updated: number;
  readonly unchanged: number;
}

const sameValue = (a: MetadataValue, b: MetadataValue) => JSON.stringify(a) === JSON.stringify(b);
const sameExtension = (a: ExtensionDefinition, b: ExtensionDefinition) => a.property === b.property && a.type_hint === b.type_hint;

/**
 * `incoming` merged into `current` by mapping id (an incoming record replaces the one with its id). Metadata,
 * prefixes and extension definitions must agree wherever both name the same key; otherwise nothing merges.
 */
export function mergeDocuments(current: MappingDocument, incoming: MappingDocument): MergeOutcome {
  const conflicts: string[] = [];
  const metadata: Record<string, MetadataValue> = { ...current.metadata };
  for (const [key, value] of Object.entries(incoming.metadata)) {
    if (metadata[key] !== undefined && !sameValue(metadata[key], value)) conflicts.push(`metadata ${key}`);
    else metadata[key] = value;
  }
  const prefixes: Record<string, string> = { ...current.prefixes };
  for (const [name, iri] of Object.entries(incoming.prefixes)) {
    if (prefixes[name] !== undefined && prefixes[name] !== iri) conflicts.push(`prefix ${name}`);
    else prefixes[name] = iri;
  }
  const extensions = [...current.extensions];
  for (const def of incoming.extensions) {
    const mine = extensions.find((e) => e.slot_name === def.slot_name);
    if (mine === undefined) extensions.push(def);
    else if (!sameExtension(mine, def)) conflicts.push(`extension ${def.slot_name}`);
  }
  if (conflicts.length > 0) {
    throw new DomainError(
      `the imported set is not compatible with the store (${conflicts.slice(0, 16).join(', ')}); nothing was merged`,
      'incompatible_merge',
      { conflicts: conflicts.slice(0, 64), committed: false },
    );
  }
  const byId = new Map(current.records.map((r) => [r.mapping_id, r]));
  let added = 0;
  let updated = 0;
  let unchanged = 0;
  for (const r of incoming.records) {
    const mine = byId.get(r.mapping_id);
    if (mine === undefined) added++;
    else if (JSON.stringify(Object.entries(mine.cells).sort()) === JSON.stringify(Object.entries(r.cells).sort())) unchanged++;
    else updated++;
    byId.set(r.mapping_id, r);
  }
  if (byId.size > MAX_RECORDS)
    throw new DomainError(`the merged store would hold ${byId.size} mappings; at most ${MAX_RECORDS}`, 'store_full', { committed: false });
  return { document: { metadata, prefixes, extensions, records: sortRecords([...byId.values()]) }, added, updated, unchanged };
}
