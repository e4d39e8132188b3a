// The in-memory mapping set: header metadata, the CURIE map, extension definitions and the records, each
// record keyed by its mapping id. CURIE expansion and the stable mapping id (SHA-256 over the normalized
// identity fields) live here because every other part (reader, validator, store) needs the same answer.

import { sha256Digest } from '../util/digest.js';
import { BUILT_IN_PREFIXES } from './slots.js';
import { isAbsoluteIri } from '../model/iri.js';

export type MetadataValue = string | readonly string[];

export interface ExtensionDefinition {
  readonly slot_name: string;
  readonly property?: string;
  readonly type_hint?: string;
}

export interface MappingRecord {
  readonly mapping_id: string;
  /** Every non-empty cell except `mapping_id`, by column name. */
  readonly cells: Readonly<Record<string, string>>;
}

export interface MappingDocument {
  /** Mapping-set slots and set-level extension slots, without `curie_map` and `extension_definitions`. */
  readonly metadata: Readonly<Record<string, MetadataValue>>;
  readonly prefixes: Readonly<Record<string, string>>;
  /** Declared extension slots, `mapping_id` excluded (the writer always declares it). */
  readonly extensions: readonly ExtensionDefinition[];
  readonly records: readonly MappingRecord[];
}

export const EMPTY_DOCUMENT: MappingDocument = { metadata: {}, prefixes: {}, extensions: [], records: [] };

/** A caller-chosen mapping id: short, printable, no separators a TSV or a CURIE would split on. */
export const MAPPING_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** A prefix name (an NCName without dots at the ends). */
export const PREFIX_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

const IRI_LOCAL = /^[^\s<>"{}|\\^`]*$/;

/** URI schemes a cell may use as a full IRI even though it looks like `prefix:local`. */
const IRI_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'urn', 'ftp', 'mailto', 'tag', 'info', 'doi', 'file']);

/** The prefix map a document's CURIEs expand through: its curie_map over the built-ins. */
export function effectivePrefixes(doc: Pick<MappingDocument, 'prefixes'>): Readonly<Record<string, string>> {
  return { ...BUILT_IN_PREFIXES, ...doc.prefixes };
}

/**
 * The full IRI an entity reference names: a CURIE whose prefix is declared, else an absolute IRI of a
 * real IRI scheme; null when neither (an undeclared prefix).
 */
export function expandReference(value: string, prefixes: Readonly<Record<string, string>>): string | null {
  const colon = value.indexOf(':');
  if (colon <= 0) return null;
  const prefix = value.slice(0, colon);
  const local = value.slice(colon + 1);
  // declared namespaces are absolute IRIs already (the reader checks them), so only the local part needs checking
  if (Object.hasOwn(prefixes, prefix) && !local.startsWith('//')) return IRI_LOCAL.test(local) ? prefixes[prefix] + local : null;
  return IRI_SCHEMES.has(prefix.toLowerCase()) && isAbsoluteIri(value) ? value : null;
}

/** Expands entity references through one prefix map. */
export type Expand = (value: string) => string | null;

export function expanderFor(prefixes: Readonly<Record<string, string>>): Expand {
  return (value) => expandReference(value, prefixes);
}

/** The identity of a record: what it maps to what, how, and with which negation. Labels stand in for literal endpoints. */
export function identityFields(cells: Readonly<Record<string, string>>, expand: Expand): readonly string[] {
  const ref = (slot: string) => {
    const value = cells[slot] ?? '';
    return expand(value) ?? value;
  };
  const endpoint = (side: 'subject' | 'object') =>
    cells[`${side}_type`] === 'rdfs literal' ? `literal:${cells[`${side}_label`] ?? ''}` : ref(`${side}_id`);
  return [endpoint('subject'), ref('predicate_id'), cells.predicate_modifier ?? '', endpoint('object'), ref('mapping_justification')];
}

/** The stable id of a record without an explicit one: `sha256:` over its normalized identity fields. */
export function stableMappingId(cells: Readonly<Record<string, string>>, expand: Expand): string {
  // a JSON array of strings is already canonical
  return sha256Digest(JSON.stringify(identityFields(cells, expand)));
}

/** Records ordered by mapping id (code-unit order, locale-independent). */
export function sortRecords(records: readonly MappingRecord[]): MappingRecord[] {
  const sorted = records.every((r, i) => {
    const previous = records[i - 1];
    return previous === undefined || previous.mapping_id < r.mapping_id;
  });
  return sorted ? [...records] : [...records].sort((a, b) => (a.mapping_id < b.mapping_id ? -1 : a.mapping_id > b.mapping_id ? 1 : 0));
}
