// `reports/qc.xml`: the release gate as a JUnit XML report (the Ant/Jenkins schema CI systems read): one
// <testsuite> per stage, a testcase for the stage itself (skipped, errored or failed by its verdict) and one
// per sampled finding (an unwaived error finding fails; a waived one is skipped; warn/info pass with the
// message as output). Deterministic except the `created_at` property.

import type { ReportFinding, ReportStage } from '../finding.js';
import type { ReleaseGateResult } from '../result.js';
import { unreachable } from '../../util/unreachable.js';

/** Characters XML 1.0 cannot carry at all (C0 controls but tab/newline/CR, lone surrogates, U+FFFE/U+FFFF). */
const NOT_XML = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text safe in XML content and in double- or single-quoted attributes. */
export function xmlEscape(s: string): string {
  return s
    .replace(NOT_XML, '\uFFFD')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

const attrs = (pairs: Record<string, string | number>) =>
  Object.entries(pairs)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');

interface Case {
  readonly name: string;
  readonly outcome: 'pass' | 'failure' | 'error' | 'skipped';
  readonly message: string;
  readonly type: string;
  readonly output?: string;
}

function stageCase(s: ReportStage): Case {
  const name = `${s.stage} stage`;
  if (s.status === 'skipped') return { name, outcome: 'skipped', message: s.reason ?? 'skipped', type: 'skipped' };
  if (s.status === 'error') return { name, outcome: 'error', message: s.reason ?? 'the stage failed to run', type: 'stage_error' };
  if (s.verdict === 'fail')
    return { name, outcome: 'failure', message: `verdict fail: ${s.findings_summary.error} error finding(s)`, type: 'verdict' };
  return { name, outcome: 'pass', message: '', type: '' };
}

function findingCase(f: ReportFinding): Case {
  const name = `${f.rule_id}${f.focus_iri === null ? '' : ' ' + f.focus_iri} [${f.id.slice(7, 19)}]`;
  if (f.waiver !== null) return { name, outcome: 'skipped', message: `waived: ${f.waiver.reason}`, type: 'waived' };
  if (f.severity === 'error') return { name, outcome: 'failure', message: f.message, type: f.rule_id };
  return { name, outcome: 'pass', message: '', type: '', output: `${f.severity}: ${f.message}` };
}

function caseXml(stage: string, c: Case): string {
  const open = `    <testcase${attrs({ classname: `athene.release_gate.${stage}`, name: c.name })}`;
  switch (c.outcome) {
    case 'pass':
      return c.output === undefined ? `${open}/>` : `${open}>\n      <system-out>${xmlEscape(c.output)}</system-out>\n    </testcase>`;
    case 'skipped':
      return `${open}>\n      <skipped${attrs({ message: c.message })}/>\n    </testcase>`;
    case 'error':
    case 'failure':
      return `${open}>\n      <${c.outcome}${attrs({ message: c.message, type: c.type })}>${xmlEscape(c.message)}</${c.outcome}>\n    </testcase>`;
    default:
      return unreachable(c.outcome);
  }
}

const count = (cases: readonly Case[], outcome: Case['outcome']) => cases.filter((c) => c.outcome === outcome).length;

const totals = (cases: readonly Case[]) => ({
  tests: cases.length,
  failures: count(cases, 'failure'),
  errors: count(cases, 'error'),
  skipped: count(cases, 'skipped'),
});

export function qcJunit(g: ReleaseGateResult, createdAt: string): string {
  const suites = g.stages.map((s) => ({
    stage: s,
    cases: [stageCase(s), ...g.findings.filter((f) => f.source === s.stage).map(findingCase)],
  }));
  const all = suites.flatMap((s) => s.cases);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: `athene release gate ${g.project_id ?? ''}`.trim(), ...totals(all) })}>`,
  ];
  for (const { stage, cases } of suites) {
    lines.push(`  <testsuite${attrs({ name: stage.stage, ...totals(cases) })}>`);
    lines.push('    <properties>');
    for (const [name, value] of [
      ['gate', g.gate],
      ['created_at', createdAt],
      ['required', String(stage.required)],
      ['identity_digest', stage.identity_digest],
    ] as const) {
      lines.push(`      <property${attrs({ name, value })}/>`);
    }
    lines.push('    </properties>');
    for (const c of cases) lines.push(caseXml(stage.stage, c));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
