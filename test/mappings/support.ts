// SSSOM/TSV texts for the mapping tests.

export const SET_ID = 'http://example.org/zoo/mappings';
export const LICENSE = 'https://creativecommons.org/licenses/by/4.0/';
export const ZOO = 'http://example.org/zoo#';
export const OTHER = 'http://other.org/onto/';

/** A header (as `#` lines) with the usual prefixes, set id and license, plus any extra YAML lines. */
export function header(extra: readonly string[] = []): string {
  return (
    ['curie_map:', `  zoo: "${ZOO}"`, `  other: ${OTHER}`, `mapping_set_id: ${SET_ID}`, `license: ${LICENSE}`, ...extra]
      .map((l) => '#' + l)
      .join('\n') + '\n'
  );
}

/** A TSV table: the column line and rows of cells. */
export function table(columns: readonly string[], rows: readonly (readonly string[])[]): string {
  return [columns, ...rows].map((r) => r.join('\t')).join('\n') + '\n';
}

export const BASIC_COLUMNS = ['subject_id', 'predicate_id', 'object_id', 'mapping_justification'] as const;

export function sssom(
  rows: readonly (readonly string[])[],
  columns: readonly string[] = BASIC_COLUMNS,
  extra: readonly string[] = [],
): string {
  return header(extra) + table(columns, rows);
}
