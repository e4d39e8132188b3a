// What the SSSOM reader and validator report (TOOLS.md 3.11): `{severity, code, mapping_id?, column?,
// message}` in one total order, so an unchanged store yields byte-identical findings.

export type MappingSeverity = 'error' | 'warn' | 'info';

export interface MappingFinding {
  readonly severity: MappingSeverity;
  readonly code: string;
  readonly mapping_id?: string;
  readonly column?: string;
  readonly message: string;
}

const RANK: Readonly<Record<MappingSeverity, number>> = { error: 0, warn: 1, info: 2 };

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Errors first, then warnings, then by code, mapping id, column and message. */
export function compareFindings(a: MappingFinding, b: MappingFinding): number {
  return (
    RANK[a.severity] - RANK[b.severity] ||
    cmp(a.code, b.code) ||
    cmp(a.mapping_id ?? '', b.mapping_id ?? '') ||
    cmp(a.column ?? '', b.column ?? '') ||
    cmp(a.message, b.message)
  );
}

export function finding(
  severity: MappingSeverity,
  code: string,
  message: string,
  where: { mapping_id?: string; column?: string } = {},
): MappingFinding {
  return {
    severity,
    code,
    ...(where.mapping_id === undefined ? {} : { mapping_id: where.mapping_id }),
    ...(where.column === undefined ? {} : { column: where.column }),
    message,
  };
}

/** At most this many findings are kept (sorted); the counts cover every one. */
export const MAX_FINDINGS = 10_000;

export interface FindingReport {
  readonly findings: readonly MappingFinding[];
  readonly error_count: number;
  readonly warning_count: number;
  readonly findings_truncated: boolean;
  readonly valid: boolean;
}

/** Sorts, counts and caps a set of findings. */
export function report(all: readonly MappingFinding[]): FindingReport {
  const sorted = [...all].sort(compareFindings);
  const errors = sorted.filter((f) => f.severity === 'error').length;
  return {
    findings: sorted.slice(0, MAX_FINDINGS),
    error_count: errors,
    warning_count: sorted.filter((f) => f.severity === 'warn').length,
    findings_truncated: sorted.length > MAX_FINDINGS,
    valid: errors === 0,
  };
}
