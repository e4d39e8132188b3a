// The shacl_validate report over a complete result set (TOOLS.md 3.3): results in one total order, counts
// per severity, the worst severity, an identity digest over every result (not only the returned ones), and
// at most `limit` rows.

import { sha256Digest } from '../util/digest.js';
import type { ShaclResult } from './protocol.js';

/** Severity rank; a non-standard severity IRI counts as a violation (SHACL: any result means non-conformance). */
export function severityRank(severity: string): 0 | 1 | 2 {
  return severity === 'Info' ? 0 : severity === 'Warning' ? 1 : 2;
}

const FIELDS = ['focus_node', 'result_path', 'value', 'severity', 'constraint_component', 'source_shape', 'message'] as const;

/** Code-unit order of every field in turn, null first: a total order, independent of locale. */
export function compareResults(a: ShaclResult, b: ShaclResult): number {
  for (const f of FIELDS) {
    const x = a[f],
      y = b[f];
    if (x === y) continue;
    if (x === null) return -1;
    if (y === null) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

export function sortResults(results: readonly ShaclResult[]): ShaclResult[] {
  return [...results].sort(compareResults);
}

export interface ShaclReport {
  readonly conforms: boolean;
  readonly total_results: number;
  readonly violations: number;
  readonly warnings: number;
  readonly infos: number;
  readonly worst_severity: 'Violation' | 'Warning' | 'Info' | null;
  readonly identity_digest: string;
  readonly results: readonly ShaclResult[];
  /** How many results were left out past `limit`. */
  readonly truncated?: number;
}

const NAMES = ['Info', 'Warning', 'Violation'] as const;

/** The report over `results` (any order). */
export function shaclReport(results: readonly ShaclResult[], limit: number): ShaclReport {
  const sorted = sortResults(results);
  const counts: [number, number, number] = [0, 0, 0];
  for (const r of sorted) counts[severityRank(r.severity)]++;
  const worst = counts[2] > 0 ? NAMES[2] : counts[1] > 0 ? NAMES[1] : counts[0] > 0 ? NAMES[0] : null;
  const shown = sorted.slice(0, limit);
  return {
    conforms: sorted.length === 0,
    total_results: sorted.length,
    violations: counts[2],
    warnings: counts[1],
    infos: counts[0],
    worst_severity: worst,
    identity_digest: sha256Digest(JSON.stringify(sorted)),
    results: shown,
    ...(shown.length < sorted.length ? { truncated: sorted.length - shown.length } : {}),
  };
}
