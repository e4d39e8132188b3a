// SSSOM/TSV reading and canonical writing. A file is an optional block of `#`-prefixed lines holding the
// mapping-set metadata as YAML (read with the policy's strict YAML rules), then one line of column names
// and one line per mapping, tab-separated, no quoting. Reading is bounded (file, columns, cells, rows) and
// every structural problem is a finding with its line number. Writing is canonical: header keys in SSSOM
// order, prefixes and extension definitions sorted, only columns that hold a value (in slot order, then
// extensions by name), rows sorted by mapping id, LF line ends. Its bytes are what `mapping_revision` digests.

import { parseStrictYaml, yamlModule } from '../policy/yaml.js';
import {
  EMPTY_DOCUMENT,
  MAPPING_ID_PATTERN,
  PREFIX_NAME,
  effectivePrefixes,
  expanderFor,
  sortRecords,
  stableMappingId,
  type Expand,
  type ExtensionDefinition,
  type MappingDocument,
  type MappingRecord,
  type MetadataValue,
} from './document.js';
import { isAbsoluteIri } from '../model/iri.js';
import { finding, type MappingFinding } from './finding.js';
import {
  BUILT_IN_PREFIXES,
  MAPPING_ID,
  MAPPING_ID_DEFINITION,
  MAPPING_SLOTS,
  MAPPING_SLOT_SET,
  MULTIVALUED,
  SET_SLOTS,
  SET_SLOT_SET,
} from './slots.js';

export const MAX_STORE_BYTES = 32 * 1024 * 1024;
export const MAX_RECORDS = 100_000;
export const MAX_COLUMNS = 128;
export const MAX_CELL_BYTES = 64 * 1024;
export const MAX_ROW_BYTES = 256 * 1024;
const MAX_PARSE_FINDINGS = 200;

export type ParseResult =
  { readonly ok: true; readonly document: MappingDocument } | { readonly ok: false; readonly findings: readonly MappingFinding[] };

const structural = (code: string, message: string, column?: string) =>
  finding('error', code, message, column === undefined ? {} : { column });

/** Control characters have no place in a TSV cell (tabs and line ends would split it). */
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why a column name is not allowed in a set with these extension slots, or null. */
export function columnProblem(name: string, extensions: readonly ExtensionDefinition[]): string | null {
  if (name === MAPPING_ID || MAPPING_SLOT_SET.has(name) || extensions.some((e) => e.slot_name === name)) return null;
  return `'${name}' is not an SSSOM 1.0 mapping slot; declare it in extension_definitions to keep it`;
}

// ---------------------------------------------------------------- the YAML header

interface Header {
  readonly metadata: Record<string, MetadataValue>;
  readonly prefixes: Record<string, string>;
  readonly extensions: ExtensionDefinition[];
}

const isRecord = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

function readPrefixes(value: unknown, out: MappingFinding[]): Record<string, string> {
  const prefixes: Record<string, string> = {};
  if (!isRecord(value)) {
    out.push(structural('metadata_invalid', 'curie_map must be a mapping of prefix names to IRIs', 'curie_map'));
    return prefixes;
  }
  for (const [name, iri] of Object.entries(value)) {
    if (!PREFIX_NAME.test(name))
      out.push(structural('prefix_invalid', `curie_map: '${name.slice(0, 64)}' is not a prefix name`, 'curie_map'));
    else if (typeof iri !== 'string' || !isAbsoluteIri(iri))
      out.push(structural('prefix_invalid', `curie_map: prefix '${name}' must map to an absolute IRI`, 'curie_map'));
    else if (Object.hasOwn(BUILT_IN_PREFIXES, name) && BUILT_IN_PREFIXES[name] !== iri) {
      out.push(
        structural(
          'prefix_builtin_conflict',
          `curie_map: the built-in prefix '${name}' may not be rebound (it is ${BUILT_IN_PREFIXES[name]})`,
          'curie_map',
        ),
      );
    } else prefixes[name] = iri;
  }
  return prefixes;
}

const EXTENSION_KEYS = new Set(['slot_name', 'property', 'type_hint']);

function readExtensions(value: unknown, out: MappingFinding[]): ExtensionDefinition[] {
  const defs: ExtensionDefinition[] = [];
  if (!Array.isArray(value)) {
    out.push(structural('metadata_invalid', 'extension_definitions must be a list', 'extension_definitions'));
    return defs;
  }
  for (const [i, item] of value.entries()) {
    const where = `extension_definitions[${i}]`;
    if (!isRecord(item) || typeof item.slot_name !== 'string' || !PREFIX_NAME.test(item.slot_name)) {
      out.push(structural('extension_invalid', `${where} needs a slot_name (an NCName)`, 'extension_definitions'));
      continue;
    }
    const extra = Object.keys(item).filter((k) => !EXTENSION_KEYS.has(k));
    const notText = ['property', 'type_hint'].filter((k) => item[k] !== undefined && typeof item[k] !== 'string');
    if (extra.length > 0 || notText.length > 0) {
      out.push(
        structural('extension_invalid', `${where}: only slot_name, property and type_hint (strings) are allowed`, 'extension_definitions'),
      );
      continue;
    }
    const name = item.slot_name;
    if (name === MAPPING_ID) continue;
    if (MAPPING_SLOT_SET.has(name) || SET_SLOT_SET.has(name)) {
      out.push(structural('extension_invalid', `${where}: '${name}' is a standard SSSOM slot, not an extension`, 'extension_definitions'));
    } else if (defs.some((d) => d.slot_name === name)) {
      out.push(structural('extension_invalid', `${where}: '${name}' is defined twice`, 'extension_definitions'));
    } else {
      defs.push({
        slot_name: name,
        ...(item.property === undefined ? {} : { property: item.property as string }),
        ...(item.type_hint === undefined ? {} : { type_hint: item.type_hint as string }),
      });
    }
  }
  return defs;
}

function readMetadataValue(key: string, value: unknown, out: MappingFinding[]): MetadataValue | null {
  if (typeof value === 'string') return MULTIVALUED.has(key) ? [value] : value;
  if (MULTIVALUED.has(key) && Array.isArray(value) && value.every((x) => typeof x === 'string')) return [...value];
  out.push(
    structural(
      'metadata_invalid',
      `${key} must be ${MULTIVALUED.has(key) ? 'a string or a list of strings' : 'a string'} (quote numbers and dates)`,
      key,
    ),
  );
  return null;
}

function readHeader(lines: readonly string[], out: MappingFinding[]): Header {
  const header: Header = { metadata: {}, prefixes: {}, extensions: [] };
  // each `#` becomes a space, so the YAML keeps the file's line and column numbers
  const text = lines.map((l) => ' ' + l.slice(1)).join('\n');
  if (text.trim() === '') return header;
  const yaml = parseStrictYaml(text);
  if (!yaml.ok) {
    for (const issue of yaml.issues)
      if (issue.code !== 'yaml_empty') out.push(structural('metadata_yaml', `metadata header: ${issue.message}`));
    return header;
  }
  if (!isRecord(yaml.value)) {
    out.push(structural('metadata_invalid', 'the metadata header must be a YAML mapping'));
    return header;
  }
  const data = yaml.value;
  if (data.curie_map !== undefined) Object.assign(header.prefixes, readPrefixes(data.curie_map, out));
  if (data.extension_definitions !== undefined) header.extensions.push(...readExtensions(data.extension_definitions, out));
  for (const [key, value] of Object.entries(data)) {
    if (key === 'curie_map' || key === 'extension_definitions') continue;
    if (!SET_SLOT_SET.has(key) && !header.extensions.some((e) => e.slot_name === key)) {
      out.push(
        structural(
          'metadata_unknown',
          `metadata header: '${key.slice(0, 64)}' is not an SSSOM 1.0 mapping-set slot; declare it in extension_definitions to keep it`,
          key.slice(0, 64),
        ),
      );
      continue;
    }
    const read = readMetadataValue(key, value, out);
    if (read !== null) header.metadata[key] = read;
  }
  return header;
}

// ---------------------------------------------------------------- the table

function readColumns(line: string, lineNo: number, extensions: readonly ExtensionDefinition[], out: MappingFinding[]): string[] {
  const names = line.split('\t');
  if (names.length > MAX_COLUMNS)
    out.push(structural('too_many_columns', `line ${lineNo}: ${names.length} columns exceed the bound of ${MAX_COLUMNS}`));
  const seen = new Set<string>();
  for (const name of names) {
    if (name === '') out.push(structural('column_invalid', `line ${lineNo}: an empty column name`));
    else if (seen.has(name))
      out.push(structural('column_duplicate', `line ${lineNo}: column '${name.slice(0, 64)}' appears twice`, name.slice(0, 64)));
    else {
      const problem = columnProblem(name, extensions);
      if (problem !== null) out.push(structural('column_unknown', `line ${lineNo}: ${problem.slice(0, 200)}`, name.slice(0, 64)));
    }
    seen.add(name);
  }
  return names;
}

function readRow(line: string, lineNo: number, columns: readonly string[], out: MappingFinding[]): Record<string, string> | null {
  if (Buffer.byteLength(line, 'utf8') > MAX_ROW_BYTES) {
    out.push(structural('row_too_large', `line ${lineNo}: the row is larger than ${MAX_ROW_BYTES} bytes`));
    return null;
  }
  const values = line.split('\t');
  if (values.length !== columns.length) {
    out.push(structural('column_count', `line ${lineNo}: ${values.length} cells where the header names ${columns.length} columns`));
    return null;
  }
  const cells: Record<string, string> = {};
  let ok = true;
  columns.forEach((column, i) => {
    const value = values[i]!; // as many values as columns: checked above
    if (CONTROL.test(value)) {
      out.push(structural('cell_invalid', `line ${lineNo}: column ${column} holds a control character`, column));
      ok = false;
    } else if (Buffer.byteLength(value, 'utf8') > MAX_CELL_BYTES) {
      out.push(structural('cell_too_large', `line ${lineNo}: column ${column} is larger than ${MAX_CELL_BYTES} bytes`, column));
      ok = false;
    } else if (value !== '') cells[column] = value;
  });
  return ok ? cells : null;
}

/** The record a row of cells makes: its explicit mapping id, else the stable one. */
export function recordOf(cells: Readonly<Record<string, string>>, expand: Expand): MappingRecord {
  const { [MAPPING_ID]: explicit, ...rest } = cells;
  return { mapping_id: explicit ?? stableMappingId(rest, expand), cells: rest };
}

/** Reads SSSOM/TSV bytes (or text); any structural problem rejects the whole file with its findings. */
export function parseSssom(input: Uint8Array | string): ParseResult {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (size > MAX_STORE_BYTES)
    return { ok: false, findings: [structural('store_too_large', `the file is larger than ${MAX_STORE_BYTES} bytes`)] };
  let text: string;
  try {
    text = typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(input);
  } catch {
    return { ok: false, findings: [structural('encoding_invalid', 'the file is not valid UTF-8')] };
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (text === '') return { ok: true, document: EMPTY_DOCUMENT };
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines[lines.length - 1] === '') lines.pop();
  const out: MappingFinding[] = [];
  let i = 0;
  while (lines[i]?.startsWith('#')) i++;
  const header = readHeader(lines.slice(0, i), out);
  const records: MappingRecord[] = [];
  const columnLine = lines[i];
  if (columnLine !== undefined) {
    const columns = readColumns(columnLine, i + 1, header.extensions, out);
    const ids = new Map<string, number>();
    const expand = expanderFor(effectivePrefixes(header));
    for (const [k, line] of lines.slice(i + 1).entries()) {
      if (out.length >= MAX_PARSE_FINDINGS) break;
      const lineNo = i + k + 2;
      if (line.startsWith('#')) {
        out.push(structural('comment_misplaced', `line ${lineNo}: comment lines may only open the file (the metadata header)`));
        continue;
      }
      if (line === '') {
        out.push(structural('row_empty', `line ${lineNo}: an empty line inside the table`));
        continue;
      }
      if (records.length >= MAX_RECORDS) {
        out.push(structural('too_many_records', `more than ${MAX_RECORDS} mappings (line ${lineNo})`));
        break;
      }
      const cells = readRow(line, lineNo, columns, out);
      if (cells === null) continue;
      const explicit = cells[MAPPING_ID];
      if (explicit !== undefined && !MAPPING_ID_PATTERN.test(explicit)) {
        out.push(
          structural('mapping_id_invalid', `line ${lineNo}: mapping_id must be 1-128 letters, digits, '.', '_', ':' or '-'`, MAPPING_ID),
        );
        continue;
      }
      const record = recordOf(cells, expand);
      const first = ids.get(record.mapping_id);
      if (first !== undefined) {
        out.push(
          finding('error', 'mapping_id_duplicate', `line ${lineNo}: mapping ${record.mapping_id} repeats line ${first}`, {
            mapping_id: record.mapping_id,
          }),
        );
        continue;
      }
      ids.set(record.mapping_id, lineNo);
      records.push(record);
    }
  }
  if (out.length > 0) return { ok: false, findings: out };
  return {
    ok: true,
    document: { metadata: header.metadata, prefixes: header.prefixes, extensions: header.extensions, records: sortRecords(records) },
  };
}

// ---------------------------------------------------------------- canonical writing

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The header data in canonical order (insertion order is what the YAML writer keeps). */
function headerData(doc: MappingDocument): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const slot of SET_SLOTS) {
    if (slot === 'curie_map') {
      const names = Object.keys(doc.prefixes).sort(byName);
      if (names.length > 0) data.curie_map = Object.fromEntries(names.map((n) => [n, doc.prefixes[n]]));
    } else if (slot === 'extension_definitions') {
      data.extension_definitions = [MAPPING_ID_DEFINITION, ...[...doc.extensions].sort((a, b) => byName(a.slot_name, b.slot_name))].map(
        (d) => ({
          slot_name: d.slot_name,
          ...(d.property === undefined ? {} : { property: d.property }),
          ...(d.type_hint === undefined ? {} : { type_hint: d.type_hint }),
        }),
      );
    } else if (doc.metadata[slot] !== undefined) data[slot] = doc.metadata[slot];
  }
  for (const key of Object.keys(doc.metadata)
    .filter((k) => !SET_SLOT_SET.has(k))
    .sort(byName))
    data[key] = doc.metadata[key];
  return data;
}

const REQUIRED_COLUMNS = ['subject_id', 'predicate_id', 'object_id', 'mapping_justification'];

/** mapping_id, the standard slots that hold a value (or are required) in slot order, then extensions by name. */
export function canonicalColumns(doc: MappingDocument): string[] {
  const used = new Set<string>(REQUIRED_COLUMNS);
  for (const r of doc.records) for (const k of Object.keys(r.cells)) used.add(k);
  return [MAPPING_ID, ...MAPPING_SLOTS.filter((s) => used.has(s)), ...[...used].filter((k) => !MAPPING_SLOT_SET.has(k)).sort(byName)];
}

/** A cell a spreadsheet would run as a formula. */
const FORMULA_LIKE = /^[=+\-@]/;

export interface SerializeOptions {
  /** Prefix formula-like cells with `'` (no longer lossless). */
  readonly spreadsheetSafe?: boolean;
}

export interface Serialized {
  readonly text: string;
  /** Cells changed by the spreadsheet-safe prefix. */
  readonly altered: number;
}

/** The canonical SSSOM/TSV text of a document (or its spreadsheet-safe export). */
export function serializeSssom(doc: MappingDocument, options: SerializeOptions = {}): Serialized {
  // YAML 1.1 quoting keeps yes/no/dates strings for YAML 1.1 readers too (PyYAML reads most SSSOM)
  const yaml = yamlModule().stringify(headerData(doc), { lineWidth: 0, minContentWidth: 0, version: '1.1' });
  const header = yaml
    .split('\n')
    .filter((l, i, all) => !(i === all.length - 1 && l === ''))
    .map((l) => '#' + l);
  const columns = canonicalColumns(doc);
  let altered = 0;
  const cell = (value: string) => {
    if (options.spreadsheetSafe !== true || !FORMULA_LIKE.test(value)) return value;
    altered++;
    return "'" + value;
  };
  const rows = sortRecords(doc.records).map((r) =>
    columns.map((c) => cell(c === MAPPING_ID ? r.mapping_id : (r.cells[c] ?? ''))).join('\t'),
  );
  return { text: [...header, columns.join('\t'), ...rows].join('\n') + '\n', altered };
}

/** The canonical text alone. */
export function canonicalText(doc: MappingDocument): string {
  return serializeSssom(doc).text;
}
