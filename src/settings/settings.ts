// Server settings (INTERFACE.md 1.1, TOOLS.md 1.2): defaults, overridden by `<home>/settings.json`, then by
// `ATHENE_<KEY>` environment variables, then by command-line flags. The private directory is 0700.

import { mkdir, readFile, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as v from 'valibot';

export interface Settings {
  port: number;
  bind_address: string;
  read_only: boolean;
  confirm_each_write: boolean;
  /** Seconds a held write waits for a decision before it is declined. */
  approval_timeout_s: number;
  label_language: string;
  /** Largest accepted request body. */
  max_body_bytes: number;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  port: 8123,
  bind_address: '127.0.0.1',
  read_only: false,
  confirm_each_write: false,
  approval_timeout_s: 300,
  label_language: 'en',
  max_body_bytes: 4 * 1024 * 1024,
});

const SettingsFileSchema = v.partial(v.strictObject({
  port: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65535)),
  bind_address: v.pipe(v.string(), v.nonEmpty()),
  read_only: v.boolean(),
  confirm_each_write: v.boolean(),
  approval_timeout_s: v.pipe(v.number(), v.minValue(0)),
  label_language: v.string(),
  max_body_bytes: v.pipe(v.number(), v.integer(), v.minValue(1)),
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
