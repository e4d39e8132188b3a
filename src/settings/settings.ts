// Server settings (INTERFACE.md 1.1, TOOLS.md 1.2): defaults, overridden by `<home>/settings.json`, then by
// `ATHENE_<KEY>` environment variables, then by command-line flags. The private directory is 0700.

import { mkdir, readFile, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';

/** How a bare name becomes the local part of a minted IRI (TOOLS.md 1.7). */
export type NewEntityIds = 'name' | 'generated';

// Security limits (one block: the size limits of files tools read, and the caps of dynamic client registration).
export interface SecurityLimits {
  /** Largest ontology document a tool reads. */
  max_document_bytes: number;
  max_policy_bytes: number;
  max_catalog_bytes: number;
  max_shapes_bytes: number;
  /** Largest SPARQL query / competency-question / invariant file. */
  max_query_bytes: number;
  /** Dynamic client registrations accepted per minute. */
  registration_rate_per_minute: number;
  /** Registered OAuth clients kept at most (older unfinished ones are dropped first). */
  max_registered_clients: number;
  /** Seconds a registered client that never obtained a token is kept. */
  unfinished_registration_ttl_s: number;
}

const SECURITY_RANGES: Readonly<Record<keyof SecurityLimits, readonly [number, number, number]>> = {
  max_document_bytes: [1024 ** 3, 1, 2 ** 53 - 1],
  max_policy_bytes: [1024 * 1024, 1, 2 ** 31 - 1],
  max_catalog_bytes: [16 * 1024 * 1024, 1, 2 ** 31 - 1],
  max_shapes_bytes: [256 * 1024 * 1024, 1, 2 ** 53 - 1],
  max_query_bytes: [1024 * 1024, 1, 2 ** 31 - 1],
  registration_rate_per_minute: [20, 1, 100000],
  max_registered_clients: [200, 1, 1000000],
  unfinished_registration_ttl_s: [3600, 1, 31 * 86400],
};

const SECURITY_KEYS = Object.keys(SECURITY_RANGES) as (keyof SecurityLimits)[];
const SECURITY_DEFAULTS = Object.fromEntries(SECURITY_KEYS.map((k) => [k, SECURITY_RANGES[k][0]])) as unknown as SecurityLimits;
const SECURITY_SCHEMA = Object.fromEntries(SECURITY_KEYS.map((k) => [k, v.pipe(v.number(), v.integer(), v.minValue(SECURITY_RANGES[k][1]), v.maxValue(SECURITY_RANGES[k][2]))]));
const isSecurityKey = (key: string): key is keyof SecurityLimits => Object.hasOwn(SECURITY_RANGES, key);

function applySecurityRaw(into: Settings, key: keyof SecurityLimits, name: string, text: string): void {
  into[key] = parseInteger(name, text, SECURITY_RANGES[key][1], SECURITY_RANGES[key][2]);
}

export interface Settings extends SecurityLimits {
  port: number;
  bind_address: string;
  read_only: boolean;
  confirm_each_write: boolean;
  /** Seconds a held write waits for a decision before it is declined. */
  approval_timeout_s: number;
  label_language: string;
  /** Largest accepted request body. */
  max_body_bytes: number;
  /** Keep the configured port on a shared broker so one URL serves every process's windows (INTERFACE.md 1.2). */
  share_endpoint: boolean;
  /** Seconds the broker outlives the last registered process once its own process was asked to stop. */
  broker_idle_linger_s: number;
  /** Namespace of entities minted from bare names; null: the active ontology IRI + '#'. */
  new_entity_namespace: string | null;
  /** `generated`: a minted entity's local part is a generated id, and the name becomes its rdfs:label. */
  new_entity_ids: NewEntityIds;
  /** Without a project policy, caller-selected paths and URLs are allowed (legacy local-admin mode); false: refused. */
  allow_unrestricted_paths_without_policy: boolean;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  port: 8123,
  bind_address: '127.0.0.1',
  read_only: false,
  confirm_each_write: false,
  approval_timeout_s: 300,
  label_language: 'en',
  max_body_bytes: 4 * 1024 * 1024,
  share_endpoint: true,
  broker_idle_linger_s: 15,
  new_entity_namespace: null,
  new_entity_ids: 'name',
  allow_unrestricted_paths_without_policy: true,
  ...SECURITY_DEFAULTS,
});

/** Scheme, then no character RFC 3987 forbids, ending in '#' or '/'. */
const NAMESPACE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|^`\\]*[#/]$/;
const NAMESPACE_EXPECTED = "an absolute IRI ending in '#' or '/'";

export function isNamespaceIri(text: string): boolean {
  return NAMESPACE_IRI.test(text);
}

const SettingsFileSchema = v.partial(v.strictObject({
  port: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535)),
  bind_address: v.pipe(v.string(), v.nonEmpty()),
  read_only: v.boolean(),
  confirm_each_write: v.boolean(),
  approval_timeout_s: v.pipe(v.number(), v.minValue(0)),
  label_language: v.string(),
  max_body_bytes: v.pipe(v.number(), v.integer(), v.minValue(1)),
  share_endpoint: v.boolean(),
  broker_idle_linger_s: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3600)),
  new_entity_namespace: v.nullable(v.pipe(v.string(), v.check(isNamespaceIri, `expected ${NAMESPACE_EXPECTED}`))),
  new_entity_ids: v.picklist(['name', 'generated'], "expected 'name' or 'generated'"),
  allow_unrestricted_paths_without_policy: v.boolean(),
  ...SECURITY_SCHEMA,
}));

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
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new SettingsError(`${file}: ${(err as Error).message}`);
  }
  const parsed = v.safeParse(SettingsFileSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new SettingsError(`${file}: ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  }
  return parsed.output;
}

function parseBool(name: string, text: string): boolean {
  const t = text.trim().toLowerCase();
  if (t === '1' || t === 'true' || t === 'yes' || t === 'on') return true;
  if (t === '0' || t === 'false' || t === 'no' || t === 'off') return false;
  throw new SettingsError(`${name}: expected a boolean, got '${text}'`);
}

function parseInteger(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new SettingsError(`${name}: expected an integer in ${min}..${max}, got '${text}'`);
  return n;
}

function parseNamespace(name: string, text: string): string {
  if (!isNamespaceIri(text)) throw new SettingsError(`${name}: expected ${NAMESPACE_EXPECTED}, got '${text}'`);
  return text;
}

function parseNewEntityIds(name: string, text: string): NewEntityIds {
  if (text !== 'name' && text !== 'generated') throw new SettingsError(`${name}: expected 'name' or 'generated', got '${text}'`);
  return text;
}

/** Settings given as strings (environment variables, flags), keyed like Settings. */
export type RawSettings = Partial<Record<keyof Settings, string | boolean>>;

function applyRaw(into: Settings, raw: RawSettings, origin: (key: string) => string): void {
  for (const [key, value] of Object.entries(raw) as [keyof Settings, string | boolean | undefined][]) {
    if (value === undefined) continue;
    const name = origin(key);
    const text = String(value);
    switch (key) {
      case 'port': into.port = parseInteger(name, text, 0, 65535); break;
      case 'bind_address': into.bind_address = text; break;
      case 'read_only': into.read_only = typeof value === 'boolean' ? value : parseBool(name, text); break;
      case 'confirm_each_write': into.confirm_each_write = typeof value === 'boolean' ? value : parseBool(name, text); break;
      case 'approval_timeout_s': into.approval_timeout_s = parseInteger(name, text, 0, 86400); break;
      case 'label_language': into.label_language = text; break;
      case 'max_body_bytes': into.max_body_bytes = parseInteger(name, text, 1, 2 ** 31 - 1); break;
      case 'share_endpoint': into.share_endpoint = typeof value === 'boolean' ? value : parseBool(name, text); break;
      case 'broker_idle_linger_s': into.broker_idle_linger_s = parseInteger(name, text, 0, 3600); break;
      case 'new_entity_namespace': into.new_entity_namespace = parseNamespace(name, text); break;
      case 'new_entity_ids': into.new_entity_ids = parseNewEntityIds(name, text); break;
      case 'allow_unrestricted_paths_without_policy': into.allow_unrestricted_paths_without_policy = typeof value === 'boolean' ? value : parseBool(name, text); break;
      default: if (isSecurityKey(key)) applySecurityRaw(into, key, name, text);
    }
  }
}

function envSettings(env: NodeJS.ProcessEnv): RawSettings {
  const raw: RawSettings = {};
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    const value = env['ATHENE_' + key.toUpperCase()];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  return raw;
}

/** Effective settings: defaults < settings.json < environment < flags. */
export async function loadSettings(home: string, flags: RawSettings = {}, env: NodeJS.ProcessEnv = process.env): Promise<Settings> {
  const settings: Settings = { ...DEFAULT_SETTINGS, ...(await readSettingsFile(home)) };
  applyRaw(settings, envSettings(env), (k) => 'ATHENE_' + k.toUpperCase());
  applyRaw(settings, flags, (k) => '--' + k);
  return settings;
}

export function isLoopbackAddress(address: string): boolean {
  return address === '127.0.0.1' || address === '::1' || address === 'localhost' || address.startsWith('127.');
}
