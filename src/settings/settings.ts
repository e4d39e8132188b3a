// Server settings (INTERFACE.md 1.1, TOOLS.md 1.2): defaults, overridden by `<home>/settings.json`, then by
// `ATHENE_<KEY>` environment variables, then by command-line flags. The private directory is 0700.
//
// SETTINGS below is the single source: each row names its settings.json key, environment variable, flag
// (plus older flag spellings still accepted), default, value type and one-line help. The file schema, the
// environment and flag parsing, `athene serve --help` and the README's settings list are derived from it.

import { mkdir, readFile, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';

/** How a bare name becomes the local part of a minted IRI (TOOLS.md 1.7). */
export type NewEntityIds = 'name' | 'generated';

/** Which tools `tools/list` offers: all, about 30 to explore and edit, curation's, or the read-only ones. */
export const TOOL_PROFILES = ['full', 'core', 'curation', 'review'] as const;
export type ToolProfile = (typeof TOOL_PROFILES)[number];

/** Scheme, then no character RFC 3987 forbids, ending in '#' or '/'. */
const NAMESPACE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|^`\\]*[#/]$/;
const NAMESPACE_EXPECTED = "an absolute IRI ending in '#' or '/'";

export function isNamespaceIri(text: string): boolean {
  return NAMESPACE_IRI.test(text);
}

/** A value type: its file schema, how text (environment, flag) becomes a candidate value, and its help placeholder. */
interface Kind<T> {
  readonly schema: v.GenericSchema<unknown, T>;
  readonly fromText: (text: string) => unknown;
  /** Shown after the flag in help; null for a boolean switch. */
  readonly placeholder: string | null;
}

const BOOL_TEXT: Record<string, boolean> = { 1: true, true: true, yes: true, on: true, 0: false, false: false, no: false, off: false };

const boolean: Kind<boolean> = {
  schema: v.boolean('expected a boolean'),
  fromText: (t) => BOOL_TEXT[t.trim().toLowerCase()] ?? t,
  placeholder: null,
};

function integer(min: number, max: number, placeholder = 'N'): Kind<number> {
  const expected = `expected an integer in ${min}..${max}`;
  return {
    schema: v.pipe(v.number(expected), v.integer(expected), v.minValue(min, expected), v.maxValue(max, expected)),
    fromText: (t) => (t.trim() === '' ? t : Number(t)),
    placeholder,
  };
}

function text(placeholder: string): Kind<string> {
  return { schema: v.pipe(v.string('expected a string'), v.nonEmpty('expected a non-empty string')), fromText: (t) => t, placeholder };
}

function choice<const C extends string>(choices: readonly C[]): Kind<C> {
  const expected = `expected ${choices.map((c) => `'${c}'`).join(' or ')}`;
  return { schema: v.picklist(choices, expected), fromText: (t) => t, placeholder: choices.join('|') };
}

/** A comma-separated list in the environment and on the command line, an array in settings.json. */
function list(placeholder: string): Kind<string[]> {
  return {
    schema: v.array(v.pipe(v.string(), v.nonEmpty()), 'expected a list of names'),
    fromText: (t) =>
      t
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    placeholder,
  };
}

const namespace: Kind<string | null> = {
  schema: v.nullable(v.pipe(v.string(`expected ${NAMESPACE_EXPECTED}`), v.check(isNamespaceIri, `expected ${NAMESPACE_EXPECTED}`))),
  fromText: (t) => t,
  placeholder: 'IRI',
};

const executable: Kind<string | null> = {
  schema: v.nullable(v.pipe(v.string('expected a path'), v.nonEmpty('expected a path'))),
  fromText: (t) => t,
  placeholder: 'PATH',
};

export interface SettingRow<K extends string = string, T = unknown> {
  readonly key: K;
  readonly kind: Kind<T>;
  readonly default: T;
  /** The flag, `--` + the key with hyphens; a boolean also takes `--no-…`. */
  readonly flag: string;
  /** Older spellings still accepted; a boolean alias starting `--no-` sets false. */
  readonly aliases: readonly string[];
  readonly env: string;
  readonly help: string;
}

function row<const K extends string, T>(key: K, kind: Kind<T>, def: T, help: string, aliases: readonly string[] = []): SettingRow<K, T> {
  return { key, kind, default: def, flag: '--' + key.replaceAll('_', '-'), aliases, env: 'ATHENE_' + key.toUpperCase(), help };
}

export const SETTINGS = [
  row('port', integer(0, 65535), 8123, 'TCP port of the MCP endpoint (0: an ephemeral port)'),
  row('bind_address', text('ADDR'), '127.0.0.1', 'address the endpoint binds', ['--bind']),
  row(
    'allowed_hosts',
    list('NAME,…'),
    [],
    "further Host names this server answers to (loopback names, the bind address and this machine's names always are)",
  ),
  row('allowed_origins', list('ORIGIN,…'), [], "further browser origins allowed to call (this server's own origins always are)"),
  row('read_only', boolean, false, 'refuse every mutating tool'),
  row('confirm_each_write', boolean, false, 'hold each write until the owner approves it (athene pending, or the owner session)', [
    '--confirm-writes',
  ]),
  row('approval_timeout_s', integer(0, 86400, 'S'), 300, 'seconds a held write waits for a decision before it is declined'),
  row('label_language', text('LANG'), 'en', 'language tag of labels written for new entities'),
  row(
    'check_output_shapes',
    boolean,
    false,
    "check each successful tool result against the tool's declared result shape; one that does not fit fails as internal_error (for tests)",
  ),
  row('max_body_bytes', integer(1, 2 ** 31 - 1, 'BYTES'), 4 * 1024 * 1024, 'largest accepted request body'),
  row('max_json_depth', integer(1, 10_000, 'N'), 64, 'deepest nesting of objects and arrays a request body may have'),
  row('max_document_bytes', integer(1, 2 ** 53 - 1, 'BYTES'), 1024 ** 3, 'largest ontology document a tool reads'),
  row('max_policy_bytes', integer(1, 2 ** 31 - 1, 'BYTES'), 1024 * 1024, 'largest project policy a tool reads'),
  row('max_catalog_bytes', integer(1, 2 ** 31 - 1, 'BYTES'), 16 * 1024 * 1024, 'largest XML catalog a tool reads'),
  row('max_shapes_bytes', integer(1, 2 ** 53 - 1, 'BYTES'), 256 * 1024 * 1024, 'largest SHACL shapes file a tool reads'),
  row(
    'max_query_bytes',
    integer(1, 2 ** 31 - 1, 'BYTES'),
    1024 * 1024,
    'largest SPARQL query, competency-question or invariant file a tool reads',
  ),
  row('share_endpoint', boolean, true, "share the port through a broker so one URL serves every process's windows", ['--no-share']),
  row('broker_idle_linger_s', integer(0, 3600, 'S'), 15, 'seconds a stopping broker outlives the last registered process', ['--linger']),
  row('new_entity_namespace', namespace, null, 'namespace of entities minted from bare names (default: the active ontology IRI + #)'),
  row(
    'new_entity_ids',
    choice(['name', 'generated'] as const),
    'name',
    'local part of a minted IRI: the name, or a generated id with the name as label',
  ),
  row(
    'http_server',
    choice(['auto', 'uws', 'node'] as const),
    'auto',
    'HTTP transport: uWebSockets.js where its binary loads (auto), or node:http',
  ),
  row(
    'session_idle_timeout_s',
    integer(1, 7 * 86400, 'S'),
    1800,
    'an MCP session unused this long (and with no open event stream) ends; its next request gets 404',
  ),
  row(
    'max_sessions_per_principal',
    integer(1, 1_000_000),
    512,
    'open MCP sessions one principal (the static token, or one OAuth grant) may hold; more get 429',
  ),
  row('max_sessions', integer(1, 1_000_000), 2048, 'open MCP sessions in all; more get 503'),
  row(
    'oauth_registrations_per_minute',
    integer(1, 100_000),
    10,
    'OAuth client registrations (RFC 7591) one source address may make per minute; more get 429',
  ),
  row(
    'oauth_max_unfinished_clients',
    integer(1, 100_000),
    100,
    'OAuth clients registered but not yet authorized (each expires an hour after registering); more registrations get 429',
  ),
  row(
    'shutdown_grace_s',
    integer(0, 3600, 'S'),
    10,
    'on SIGTERM or Ctrl-C, seconds in-flight calls may finish before they are answered with an error',
  ),
  row('log_format', choice(['pretty', 'json'] as const), 'pretty', 'log lines on stderr: pretty text or one JSON object per event'),
  row('log_level', choice(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const), 'info', 'lowest level logged'),
  row('allow_unrestricted_paths_without_policy', boolean, true, 'without a project policy, allow caller-selected paths and URLs', [
    '--no-unrestricted-paths',
  ]),
  row(
    'tool_profile',
    choice(TOOL_PROFILES),
    'full',
    'tools sessions are offered: full, core (about 30 to explore and edit), curation, review (read-only)',
  ),
  row(
    'journal_enabled',
    boolean,
    true,
    'journal every committed change (fsynced before the call is answered) and replay unsaved ones at start',
    ['--no-journal'],
  ),
  row('journal_retention_days', integer(1, 36500, 'DAYS'), 90, 'days the change history keeps applied entries'),
  row(
    'journal_retention_mib',
    integer(1, 1 << 20, 'MIB'),
    256,
    'largest change history per document, in MiB (the oldest entries go first)',
  ),
  row('konclude_path', executable, null, 'Konclude executable for complete OWL 2 DL reasoning (default: Konclude on the PATH)'),
  row('konclude_memory_mb', integer(64, 1 << 20, 'MIB'), 4096, 'address-space bound of one Konclude process, in MiB'),
  row(
    'konclude_timeout_s',
    integer(1, 86400, 'S'),
    600,
    "upper bound on one Konclude run, in seconds (a tool's own timeout may be shorter)",
  ),
] as const;

type Row = (typeof SETTINGS)[number];
export type Settings = {
  -readonly [R in Row as R['key']]: R['default'] extends null ? string | null : R extends SettingRow<string, infer T> ? T : never;
};

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze(Object.fromEntries(SETTINGS.map((r) => [r.key, r.default])) as Settings);

const SettingsFileSchema = v.partial(
  v.strictObject(Object.fromEntries(SETTINGS.map((r) => [r.key, r.kind.schema])) as Record<keyof Settings, v.GenericSchema>),
);

export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** `$ATHENE_HOME`, else `~/.athene`. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.ATHENE_HOME !== undefined && env.ATHENE_HOME !== '' ? path.resolve(env.ATHENE_HOME) : path.join(os.homedir(), '.athene');
}

/** Creates the private directory (0700), tightening the mode of an existing one. */
export async function ensureHome(home: string): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  await chmod(home, 0o700);
}

async function readSettingsFile(home: string): Promise<Partial<Settings>> {
  const file = path.join(home, 'settings.json');
  let body: string;
  try {
    body = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    throw new SettingsError(`${file}: ${(err as Error).message}`);
  }
  const parsed = v.safeParse(SettingsFileSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new SettingsError(`${file}: ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  }
  return parsed.output as Partial<Settings>;
}

/** Settings given as strings (environment variables, flags), keyed like Settings; a switch flag gives a boolean. */
export type RawSettings = Partial<Record<keyof Settings, string | boolean>>;

const ROWS = new Map<string, Row>(SETTINGS.map((r) => [r.key, r]));

/** One setting from text (or a switch's boolean); `name` is how the user spelled it, for the error. */
function parseRaw(r: Row, name: string, value: string | boolean): unknown {
  const candidate = typeof value === 'boolean' ? value : r.kind.fromText(value);
  const parsed = v.safeParse(r.kind.schema as v.GenericSchema, candidate);
  if (!parsed.success) throw new SettingsError(`${name}: ${parsed.issues[0].message}, got '${String(value)}'`);
  return parsed.output;
}

function applyRaw(into: Settings, raw: RawSettings, origin: (r: Row) => string): void {
  for (const [key, value] of Object.entries(raw)) {
    const r = ROWS.get(key);
    if (r === undefined) throw new SettingsError(`unknown setting '${key}'`);
    if (value === undefined) continue;
    (into as Record<string, unknown>)[key] = parseRaw(r, origin(r), value);
  }
}

function envSettings(env: NodeJS.ProcessEnv): RawSettings {
  const raw: RawSettings = {};
  for (const r of SETTINGS) {
    const value = env[r.env];
    if (value !== undefined && value !== '') raw[r.key] = value;
  }
  return raw;
}

/** Effective settings: defaults < settings.json < environment < flags. */
export async function loadSettings(home: string, flags: RawSettings = {}, env: NodeJS.ProcessEnv = process.env): Promise<Settings> {
  const settings: Settings = { ...DEFAULT_SETTINGS, ...(await readSettingsFile(home)) };
  applyRaw(settings, envSettings(env), (r) => r.env);
  applyRaw(settings, flags, (r) => r.flag);
  return settings;
}

/** A parseArgs option per flag spelling, and what each spelling sets. */
export function settingFlags(): {
  options: Record<string, { type: 'string' | 'boolean' }>;
  meaning: Map<string, { key: keyof Settings; value: boolean | null }>;
} {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  const meaning = new Map<string, { key: keyof Settings; value: boolean | null }>();
  for (const r of SETTINGS) {
    const isSwitch = r.kind.placeholder === null;
    const spellings = isSwitch ? [r.flag, '--no-' + r.flag.slice(2), ...r.aliases] : [r.flag, ...r.aliases];
    for (const spelling of spellings) {
      const name = spelling.slice(2);
      options[name] = { type: isSwitch ? 'boolean' : 'string' };
      meaning.set(name, { key: r.key, value: isSwitch ? !name.startsWith('no-') : null });
    }
  }
  return { options, meaning };
}

/** Command-line values (as parseArgs gives them) as raw settings; other options are ignored. */
export function flagSettings(values: Record<string, string | boolean | undefined>): RawSettings {
  const { meaning } = settingFlags();
  const raw: RawSettings = {};
  for (const [name, value] of Object.entries(values)) {
    const m = meaning.get(name);
    if (m === undefined || value === undefined) continue;
    raw[m.key] = m.value === null ? String(value) : m.value;
  }
  return raw;
}

function shownDefault(r: Row): string {
  const d: unknown = r.default;
  if (d === null) return '(none)';
  if (Array.isArray(d)) return d.length === 0 ? '(none)' : d.join(',');
  return String(d);
}

function flagSpellings(r: Row): string[] {
  return r.kind.placeholder === null ? [r.flag, `--no-${r.flag.slice(2)}`] : [`${r.flag} ${r.kind.placeholder}`];
}

/** The settings part of `athene serve --help`: every flag, its environment variable, settings.json key and default. */
export function settingsHelp(): string {
  return SETTINGS.map((r) => {
    const also = r.aliases.length > 0 ? ` (also ${r.aliases.join(', ')})` : '';
    return `  ${flagSpellings(r).join(' / ')}${also}\n      ${r.help}\n      env ${r.env}, settings.json "${r.key}", default ${shownDefault(r)}`;
  }).join('\n');
}

/** The README's settings table (a test keeps the README equal to it). */
export function settingsMarkdown(): string {
  const lines = ['| settings.json | flag | environment | default | meaning |', '|---|---|---|---|---|'];
  for (const r of SETTINGS) {
    const flags = [...flagSpellings(r), ...r.aliases].map((f) => `\`${f}\``).join(', ');
    // a '|' inside a table cell must be escaped, even within code
    lines.push(`| \`${r.key}\` | ${flags.replaceAll('|', '\\|')} | \`${r.env}\` | \`${shownDefault(r)}\` | ${r.help} |`);
  }
  return lines.join('\n');
}

export function isLoopbackAddress(address: string): boolean {
  return address === '127.0.0.1' || address === '::1' || address === 'localhost' || address.startsWith('127.');
}
