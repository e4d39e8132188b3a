// The audit event envelope (TOOLS.md export_audit_log): who called which tool on what, with which
// capabilities, and how the gate decided. It never holds tokens, credentials, prompts, request bodies or
// ontology content: arguments are kept as names and JSON sizes only.

export interface AuditClient {
  readonly type: string;
  readonly client_id: string;
  readonly display_name: string;
  readonly grant_id: string | null;
}

/** An argument as audited: its name and the byte length of its JSON value, never the value. */
export interface AuditArgument {
  readonly name: string;
  readonly bytes: number;
}

export interface AuditEvent {
  readonly event_id: string;
  readonly timestamp: string;
  readonly workspace_id: string;
  readonly sequence: number;
  readonly client: AuditClient;
  readonly provider?: string;
  readonly capabilities: readonly string[];
  readonly operation: string;
  readonly target: { readonly window_id: string; readonly ontology_iri: string | null };
  /** `denied`: the gate refused before the handler ran; `allowed` with an error code: the handler failed. */
  readonly outcome: { readonly status: 'allowed' | 'denied'; readonly error_code?: string };
  readonly gate: { readonly mutating: boolean; readonly confirmation: 'not_required' | 'approved' | 'declined' };
  readonly change: { readonly arguments: readonly AuditArgument[] };
  readonly change_set_id?: string;
  readonly policy_digest?: string;
}

/** The name an argument the tool does not declare is audited under: a caller-chosen key may itself be content. */
export const UNDECLARED_ARGUMENT = '(undeclared)';

/**
 * Argument names and sizes, sorted by name; anything but a JSON object audits as no arguments. Only names
 * the tool declares are kept verbatim.
 */
export function redactArguments(raw: unknown, declared: ReadonlySet<string>): AuditArgument[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [];
  return Object.keys(raw)
    .map((key) => ({
      name: declared.has(key) ? key : UNDECLARED_ARGUMENT,
      bytes: jsonBytes((raw as Record<string, unknown>)[key]),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.bytes - b.bytes));
}

/** The bytes of a scalar's JSON text; null for what JSON drops (undefined, functions, symbols). */
function scalarBytes(value: unknown): number | null {
  if (value === null) return 4;
  switch (typeof value) {
    case 'string':
      return Buffer.byteLength(JSON.stringify(value), 'utf8');
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'bigint':
      return String(value).length;
    default:
      return null;
  }
}

/**
 * The UTF-8 length of `JSON.stringify(value)` ('null' when it has none), computed with an explicit stack: an
 * argument nested 100,000 deep is measured, never a stack overflow that would lose the audit event.
 */
export function jsonBytes(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) {
      total += scalarBytes(v) ?? 4;
      continue;
    }
    if (seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      total += 2 + Math.max(0, v.length - 1);
      for (const item of v) {
        if (typeof item === 'object' && item !== null) stack.push(item);
        else total += scalarBytes(item) ?? 4;
      }
      continue;
    }
    const entries = Object.entries(v).filter(([, x]) => (typeof x === 'object' && x !== null) || scalarBytes(x) !== null);
    total += 2 + Math.max(0, entries.length - 1);
    for (const [k, x] of entries) {
      total += Buffer.byteLength(JSON.stringify(k), 'utf8') + 1;
      if (typeof x === 'object' && x !== null) stack.push(x);
      else total += scalarBytes(x)!;
    }
  }
  return total;
}

const ENVELOPE_KEYS: ReadonlySet<string> = new Set([
  'event_id',
  'timestamp',
  'workspace_id',
  'sequence',
  'client',
  'provider',
  'capabilities',
  'operation',
  'target',
  'outcome',
  'gate',
  'change',
  'change_set_id',
  'policy_digest',
]);
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const CONFIRMATIONS: ReadonlySet<string> = new Set(['not_required', 'approved', 'declined']);

type Rec = Record<string, unknown>;
const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStr = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length <= 2048;
const optStr = (x: unknown): boolean => x === undefined || isStr(x);

/** Why `value` is not an audit event envelope, or null when it is one. */
export function envelopeProblem(value: unknown): string | null {
  if (!isRec(value)) return 'not a JSON object';
  const unknown = Object.keys(value).find((k) => !ENVELOPE_KEYS.has(k));
  if (unknown !== undefined) return `unknown field ${JSON.stringify(unknown)}`;
  const e = value;
  if (!isStr(e.event_id)) return 'event_id missing';
  if (typeof e.timestamp !== 'string' || !ISO_UTC.test(e.timestamp) || Number.isNaN(Date.parse(e.timestamp)))
    return 'timestamp is not an ISO-8601 UTC instant';
  if (!isStr(e.workspace_id)) return 'workspace_id missing';
  if (!Number.isSafeInteger(e.sequence) || (e.sequence as number) < 1) return 'sequence is not a positive integer';
  const c = e.client;
  if (
    !isRec(c) ||
    !isStr(c.type) ||
    !isStr(c.client_id) ||
    typeof c.display_name !== 'string' ||
    !(c.grant_id === null || isStr(c.grant_id))
  )
    return 'client malformed';
  if (!optStr(e.provider)) return 'provider malformed';
  if (!Array.isArray(e.capabilities) || !e.capabilities.every(isStr)) return 'capabilities malformed';
  if (!isStr(e.operation)) return 'operation missing';
  const t = e.target;
  if (!isRec(t) || !isStr(t.window_id) || !(t.ontology_iri === null || isStr(t.ontology_iri))) return 'target malformed';
  const o = e.outcome;
  if (!isRec(o) || (o.status !== 'allowed' && o.status !== 'denied') || !optStr(o.error_code)) return 'outcome malformed';
  const g = e.gate;
  if (!isRec(g) || typeof g.mutating !== 'boolean' || typeof g.confirmation !== 'string' || !CONFIRMATIONS.has(g.confirmation))
    return 'gate malformed';
  const ch = e.change;
  if (!isRec(ch) || !Array.isArray(ch.arguments)) return 'change malformed';
  if (!ch.arguments.every((a) => isRec(a) && isStr(a.name) && Number.isSafeInteger(a.bytes) && (a.bytes as number) >= 0))
    return 'change.arguments malformed';
  if (!optStr(e.change_set_id)) return 'change_set_id malformed';
  if (e.policy_digest !== undefined && (typeof e.policy_digest !== 'string' || !DIGEST.test(e.policy_digest)))
    return 'policy_digest malformed';
  return null;
}

/**
 * Rebuilds a validated envelope from its allowed parts only (re-redaction on export): nested objects keep
 * exactly their documented fields, so nothing a source smuggled into them travels on.
 */
export function redactEvent(e: AuditEvent): AuditEvent {
  return {
    event_id: e.event_id,
    timestamp: e.timestamp,
    workspace_id: e.workspace_id,
    sequence: e.sequence,
    client: { type: e.client.type, client_id: e.client.client_id, display_name: e.client.display_name, grant_id: e.client.grant_id },
    ...(e.provider === undefined ? {} : { provider: e.provider }),
    capabilities: [...e.capabilities],
    operation: e.operation,
    target: { window_id: e.target.window_id, ontology_iri: e.target.ontology_iri },
    outcome: { status: e.outcome.status, ...(e.outcome.error_code === undefined ? {} : { error_code: e.outcome.error_code }) },
    gate: { mutating: e.gate.mutating, confirmation: e.gate.confirmation },
    change: { arguments: e.change.arguments.map((a) => ({ name: a.name, bytes: a.bytes })) },
    ...(e.change_set_id === undefined ? {} : { change_set_id: e.change_set_id }),
    ...(e.policy_digest === undefined ? {} : { policy_digest: e.policy_digest }),
  };
}

/** The export order: timestamp, workspace, sequence, event id. */
export function compareEvents(a: AuditEvent, b: AuditEvent): number {
  return cmp(a.timestamp, b.timestamp) || cmp(a.workspace_id, b.workspace_id) || a.sequence - b.sequence || cmp(a.event_id, b.event_id);
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
