// `reports/qc.md`: the release gate result for people, bounded (at most MAX_FINDING_ROWS findings, each cell
// at most MAX_CELL characters, the whole document at most MAX_MARKDOWN_CHARS) and with every value escaped
// so ontology text cannot inject markup. Deterministic except `created_at`.

import type { ReportFinding } from '../finding.js';
import type { ReleaseGateResult } from '../result.js';

export const MAX_FINDING_ROWS = 100;
export const MAX_CELL = 300;
export const MAX_MARKDOWN_CHARS = 64 * 1024;

/** One table cell: whitespace collapsed, Markdown and HTML metacharacters escaped, length bounded. */
export function cell(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const flat = value.replace(/\s+/g, ' ').trim();
  const short = flat.length > MAX_CELL ? flat.slice(0, MAX_CELL - 1) + '…' : flat;
  return short.replace(/[\\`*_{}[\]()<>#+!|~&]/g, (c) => '\\' + c);
}

const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;

function findingRows(findings: readonly ReportFinding[]): string[] {
  const shown = findings.slice(0, MAX_FINDING_ROWS);
  const lines = [row(['Stage', 'Severity', 'Rule', 'Focus', 'Message']), row(['---', '---', '---', '---', '---'])];
  for (const f of shown)
    lines.push(
      row([cell(f.source), cell(f.severity + (f.waiver === null ? '' : ' (waived)')), cell(f.rule_id), cell(f.focus_iri), cell(f.message)]),
    );
  if (findings.length > shown.length) lines.push('', `${findings.length - shown.length} more finding(s) are in qc.json.`);
  return lines;
}

export function qcMarkdown(g: ReleaseGateResult, createdAt: string): string {
  const lines = [
    `# Release gate: ${cell(g.project_id)}`,
    '',
    `- Gate: **${g.gate}**`,
    `- Ontology: ${cell(g.ontology.iri)}`,
    `- Version IRI: ${cell(g.ontology.version_iri)}`,
    `- Created: ${cell(createdAt)}`,
    `- Policy digest: ${cell(g.policy_digest)}`,
    `- Semantic fingerprint: ${cell(g.fingerprints.semantic)}`,
    `- RDF dataset fingerprint: ${cell(g.fingerprints.rdf_dataset)}`,
    `- Network: ${g.network}; lock mode: ${g.lock_mode}`,
    `- Round trip: ${g.round_trip === null ? '—' : `${cell(g.round_trip.format)} ${g.round_trip.skipped === true ? 'not checked' : g.round_trip.clean ? 'clean' : 'not clean'}`}`,
    `- Baseline: ${g.baseline.status === 'compared' ? `${cell(g.baseline.manifest)} (+${g.baseline.axioms_added} / −${g.baseline.axioms_removed} axioms)` : g.baseline.status}`,
    ...(g.manifest_blocker === null ? [] : [`- Manifest unavailable: ${cell(g.manifest_blocker)}`]),
    '',
    '## Stages',
    '',
    row(['Stage', 'Required', 'Status', 'Verdict', 'Errors', 'Warnings', 'Info']),
    row(['---', '---', '---', '---', '---:', '---:', '---:']),
    ...g.stages.map((s) =>
      row([
        cell(s.stage),
        s.required ? 'yes' : 'no',
        cell(s.status + (s.reason === undefined ? '' : `: ${s.reason}`)),
        cell(s.verdict),
        String(s.findings_summary.error),
        String(s.findings_summary.warn),
        String(s.findings_summary.info),
      ]),
    ),
    '',
    `## Findings (${g.finding_count})`,
    '',
    ...(g.findings.length === 0 ? ['None.'] : findingRows(g.findings)),
    '',
  ];
  const text = lines.join('\n');
  if (text.length <= MAX_MARKDOWN_CHARS) return text;
  const note = '\n\n(The report was cut at its size bound; qc.json has everything.)\n';
  // cut at a line end, so no table row, escape or surrogate pair is split
  return text.slice(0, text.lastIndexOf('\n', MAX_MARKDOWN_CHARS - note.length)) + note;
}
