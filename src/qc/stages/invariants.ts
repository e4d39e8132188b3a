// The `invariants` QC stage (TOOLS.md run_qc_suite, run_project_qc): SPARQL invariants evaluated as
// verify_ontology evaluates them (src/sparql/invariants.ts), over the gate's private snapshot. Invariants
// come from run_qc_suite's `invariants` argument and from a policy's `invariants.paths` assets: `.rq`/`.sparql`
// files (`# id:`, `# message:`, `# severity:`, `# include_inferred:` header lines; the id defaults to the
// file name), directories of them, or `.json` lists in the verify_ontology `queries` shape. Every violating
// row is a finding (rule `invariant:<id>`, focus = the row's first IRI), so a waiver can name one focus. An
// invariant that cannot run, or an asset that is missing or malformed, makes the stage `error`.

import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  checkInvariant,
  duplicateId,
  invariantSpec,
  type InvariantResult,
  type InvariantSeverity,
  type InvariantSpec,
} from '../../sparql/invariants.js';
import type { ResultTerm } from '../../sparql/engine-protocol.js';
import { CqFormatError } from '../../cq/question.js';
import { idFromFileName, parseBoolean, parseRq } from '../../cq/rq-file.js';
import { MAX_STORE_FILE_BYTES } from '../../cq/file-stores.js';
import type { Finding, QcSnapshot, Severity, StageOutcome, Verdict } from '../finding.js';
import { findingId } from '../identity.js';
import { resolveAsset, type PolicyAssets } from './policy-assets.js';
import { qcQueryTarget, remainingMs, type SnapshotQueryContext } from './sparql-snapshot.js';
import { readRegularFile } from '../../util/file-read.js';

/** Violating rows kept per invariant (each a finding); the count is always exact. */
export const ROWS_PER_INVARIANT = 10_000;

export interface InvariantsStageContext extends SnapshotQueryContext {
  /** run_qc_suite's inline invariants. */
  readonly inline?: readonly InvariantSpec[] | undefined;
  readonly assets?: PolicyAssets | undefined;
}

/** An invariant and the asset file it came from (null: inline). */
interface SourcedSpec {
  readonly spec: InvariantSpec;
  readonly source: string | null;
}

interface AssetLoad {
  readonly specs: SourcedSpec[];
  readonly problems: string[];
}

const SEVERITIES: readonly InvariantSeverity[] = ['error', 'warn', 'info'];

function severityOf(value: string | undefined, where: string): InvariantSeverity {
  if (value === undefined) return 'error';
  if (!(SEVERITIES as readonly string[]).includes(value))
    throw new CqFormatError(`${where}: severity must be error, warn or info, not '${value}'`);
  return value as InvariantSeverity;
}

/** One `.rq` invariant file. */
export function invariantFromRq(text: string, file: string): InvariantSpec {
  const { fields, query } = parseRq(text);
  if (query === '') throw new CqFormatError('no query after the header lines');
  const inferred = fields.get('include_inferred');
  return invariantSpec(
    {
      sparql: query,
      id: fields.get('id') || idFromFileName(file),
      ...(fields.get('message') ? { message: fields.get('message') } : {}),
      severity: severityOf(fields.get('severity') || undefined, '# severity'),
      include_inferred: inferred === undefined || inferred === '' ? false : parseBoolean(inferred, 'include_inferred'),
    },
    0,
  );
}

/** A `.json` asset: an array of verify_ontology query objects, or `{"queries": [...]}`. */
export function invariantsFromJson(text: string, file: string): InvariantSpec[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new CqFormatError(`not JSON: ${(e as Error).message}`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { queries?: unknown } | null)?.queries;
  if (!Array.isArray(list))
    throw new CqFormatError('an invariant list is an array of {sparql, id?, message?, severity?, include_inferred?} or {"queries": [...]}');
  const base = idFromFileName(file).replace(/\.json$/i, '');
  return list.map((item, i) => {
    const o = item as Record<string, unknown> | null;
    const where = `entry ${i}`;
    if (typeof o !== 'object' || o === null || typeof o.sparql !== 'string' || o.sparql.trim() === '')
      throw new CqFormatError(`${where}: sparql must be a non-empty string`);
    const extra = Object.keys(o).filter((k) => !['sparql', 'id', 'message', 'severity', 'include_inferred'].includes(k));
    if (extra.length > 0) throw new CqFormatError(`${where}: unknown field ${extra.join(', ')}`);
    if (o.id !== undefined && (typeof o.id !== 'string' || o.id === '')) throw new CqFormatError(`${where}: id must be a non-empty string`);
    if (o.message !== undefined && typeof o.message !== 'string') throw new CqFormatError(`${where}: message must be a string`);
    if (o.include_inferred !== undefined && typeof o.include_inferred !== 'boolean')
      throw new CqFormatError(`${where}: include_inferred must be a boolean`);
    const severity = severityOf(o.severity === undefined ? undefined : String(o.severity), where);
    const spec = invariantSpec(
      {
        sparql: o.sparql,
        id: o.id as string | undefined,
        message: o.message as string | undefined,
        severity,
        include_inferred: o.include_inferred as boolean | undefined,
      },
      i,
    );
    // Unnamed entries of different files must not collide: their default id carries the file name.
    return o.id === undefined
      ? { ...spec, id: `${base}-${i + 1}`, message: o.message === undefined ? `Invariant '${base}-${i + 1}' violated.` : spec.message }
      : spec;
  });
}

async function readAsset(file: string): Promise<string> {
  if ((await stat(file)).size > MAX_STORE_FILE_BYTES) throw new CqFormatError(`larger than ${MAX_STORE_FILE_BYTES} bytes`);
  return readRegularFile(file, 'query', 'utf8');
}

async function loadFile(file: string, label: string, out: AssetLoad): Promise<void> {
  try {
    const text = await readAsset(file);
    const specs = /\.json$/i.test(file) ? invariantsFromJson(text, file) : [invariantFromRq(text, file)];
    for (const spec of specs) out.specs.push({ spec, source: label });
  } catch (e) {
    const reason = e instanceof CqFormatError ? e.message : `cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    out.problems.push(`${label}: ${reason}`);
  }
}

/** Every invariant the policy's assets hold, and what is wrong with the ones that could not be read. */
export async function loadInvariantAssets(assets: PolicyAssets): Promise<AssetLoad> {
  const out: AssetLoad = { specs: [], problems: [] };
  for (const relative of assets.paths) {
    const asset = await resolveAsset(assets.root, relative);
    if (!asset.ok) {
      out.problems.push(`invariants asset ${asset.path}: ${asset.reason}`);
      continue;
    }
    if (!asset.directory) {
      await loadFile(asset.absolute, asset.path, out);
      continue;
    }
    const names = (await readdir(asset.absolute)).filter((n) => /\.(rq|sparql)$/i.test(n) && !n.startsWith('.')).sort();
    if (names.length === 0) out.problems.push(`invariants asset ${asset.path}: the directory holds no .rq or .sparql file`);
    for (const name of names) await loadFile(path.join(asset.absolute, name), path.join(asset.path, name), out);
  }
  return out;
}

/** The row's first IRI binding (in variable order): what the violation is about. */
function focusOf(row: Readonly<Record<string, ResultTerm>>): string | null {
  for (const term of Object.values(row)) if (term.type === 'uri') return term.value;
  return null;
}

const rowKey = (row: Readonly<Record<string, ResultTerm>>): string =>
  JSON.stringify(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

function findingsOf(result: InvariantResult, source: string | null): Finding[] {
  if (!result.violated) return [];
  const ruleId = `invariant:${result.id}`;
  const make = (focus: string | null, discriminator: string, details: Record<string, unknown>): Finding => ({
    id: findingId('invariants', ruleId, focus, null, discriminator),
    source: 'invariants',
    severity: result.severity as Severity,
    message: result.message,
    focus_iri: focus,
    axiom: null,
    path: source,
    rule_id: ruleId,
    waiver: null,
    details: { invariant: result.id, ...details },
  });
  if (result.violations === undefined) return [make(null, 'ask', {})];
  // A query without DISTINCT may repeat a row: one finding per distinct row.
  const byId = new Map<string, Finding>();
  for (const row of result.violations) {
    const f = make(focusOf(row), rowKey(row), { binding: row });
    if (!byId.has(f.id)) byId.set(f.id, f);
  }
  return [...byId.values()];
}

function verdictOf(findings: readonly Finding[]): Verdict {
  if (findings.some((f) => f.severity === 'error')) return 'fail';
  if (findings.some((f) => f.severity === 'warn')) return 'warn';
  return findings.length > 0 ? 'info' : 'pass';
}

function resultRow(r: InvariantResult, source: string | null): Record<string, unknown> {
  return {
    id: r.id,
    severity: r.severity,
    violated: r.violated,
    source: source ?? 'inline',
    ...(r.violation_count === undefined ? {} : { violation_count: r.violation_count }),
    ...(r.truncated === undefined ? {} : { truncated: r.truncated }),
    ...(r.error === undefined ? {} : { error: r.error }),
  };
}

export async function invariantsStage(s: QcSnapshot, ctx: InvariantsStageContext): Promise<StageOutcome> {
  const load: AssetLoad = ctx.assets === undefined ? { specs: [], problems: [] } : await loadInvariantAssets(ctx.assets);
  const sourced: SourcedSpec[] = [...(ctx.inline ?? []).map((spec) => ({ spec, source: null })), ...load.specs];
  if (sourced.length === 0 && load.problems.length === 0)
    return { stage: 'invariants', status: 'skipped', reason: 'no invariants given', findings: [] };
  const duplicate = duplicateId(sourced.map((x) => x.spec));
  if (duplicate !== undefined) load.problems.push(`two invariants share the id '${duplicate}'`);
  if (load.problems.length > 0) {
    return {
      stage: 'invariants',
      status: 'error',
      reason: `malformed invariants: ${load.problems.join('; ')}`,
      findings: [],
      details: { problems: load.problems },
    };
  }
  const target = qcQueryTarget(s, ctx);
  const checked: { result: InvariantResult; source: string | null }[] = [];
  for (const x of sourced)
    checked.push({ result: await checkInvariant(target, x.spec, ROWS_PER_INVARIANT, remainingMs(ctx.deadline)), source: x.source });
  const results = checked.map((c) => c.result);
  const findings = checked.flatMap((c) => findingsOf(c.result, c.source));
  const errored = results.filter((r) => r.error !== undefined);
  const details = {
    checked: results.length,
    violated: results.filter((r) => r.violated).length,
    errors: errored.length,
    invariants: checked.map((c) => resultRow(c.result, c.source)),
  };
  if (errored.length > 0) {
    const reason = `${errored.length} invariant(s) could not run: ${errored.map((r) => `${r.id} (${r.error})`).join('; ')}`;
    return { stage: 'invariants', status: 'error', reason, findings, details };
  }
  return { stage: 'invariants', status: 'completed', verdict: verdictOf(findings), findings, details };
}
