// Persistence of the OAuth state behind a small interface, so the embedded default (lowdb over
// `<home>/clients.json`) and a shared store (ARCHITECTURE.md §6) are interchangeable. lowdb's own JSONFile
// adapter renames a temporary file without fsync; this one writes through writeFileAtomic (temp, fsync,
// rename, fsync dir) with mode 0600, so a crash leaves the old or the new registry, never a torn one.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Low, type Adapter } from 'lowdb';
import * as v from 'valibot';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { stateOf, type OAuthState } from './state.js';

export const CLIENTS_FILE = 'clients.json';
const FORMAT_VERSION = 1;

export interface OAuthStore {
  /** The stored state; empty when nothing was stored yet. Throws on a damaged store. */
  load(): Promise<OAuthState>;
  /** Replaces the stored state durably; resolves once it is. */
  save(state: OAuthState): Promise<void>;
}

/** Fault injection for tests: read at each save. */
export interface StoreFaults {
  failSave?: boolean;
}

const strings = v.array(v.string());

const ClientSchema = v.object({
  client_id: v.string(),
  client_id_issued_at: v.number(),
  client_name: v.string(),
  redirect_uris: strings,
  grant_types: strings,
  response_types: strings,
  token_endpoint_auth_method: v.literal('none'),
  // A stored file never holds an explicit undefined, so the key is either absent or a string.
  scope: v.exactOptional(v.string()),
  registered_at: v.number(),
  authorized_at: v.nullable(v.number()),
  last_seen: v.nullable(v.number()),
});

const GrantSchema = v.object({
  grant_id: v.string(),
  client_id: v.string(),
  scope: v.string(),
  capabilities: strings,
  created_at: v.number(),
  access_hash: v.string(),
  access_expires_at: v.number(),
  refresh_hash: v.string(),
  rotated: strings,
});

const CodeSchema = v.object({
  code_hash: v.string(),
  client_id: v.string(),
  redirect_uri: v.string(),
  code_challenge: v.string(),
  scope: v.string(),
  capabilities: strings,
  issued_at: v.number(),
  expires_at: v.number(),
  grant_id: v.nullable(v.string()),
});

const FileSchema = v.object({
  version: v.literal(FORMAT_VERSION),
  clients: v.array(ClientSchema),
  grants: v.array(GrantSchema),
  codes: v.array(CodeSchema),
});

type ClientsFile = v.InferOutput<typeof FileSchema>;

export function clientsPath(home: string): string {
  return path.join(home, CLIENTS_FILE);
}

export function toFile(state: OAuthState): ClientsFile {
  return {
    version: FORMAT_VERSION,
    clients: [...state.clients.values()].map((c) => ({
      ...c,
      redirect_uris: [...c.redirect_uris],
      grant_types: [...c.grant_types],
      response_types: [...c.response_types],
    })),
    grants: [...state.grants.values()].map((g) => ({ ...g, capabilities: [...g.capabilities], rotated: [...g.rotated] })),
    codes: [...state.codes].map(([code_hash, c]) => ({ code_hash, ...c, capabilities: [...c.capabilities] })),
  };
}

export function fromFile(value: unknown, file = CLIENTS_FILE): OAuthState {
  const parsed = v.safeParse(FileSchema, value);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = v.getDotPath(issue) ?? '(root)';
    throw new Error(`${file}: not an Athene client registry (at ${where}: ${issue.message})`);
  }
  const data = parsed.output;
  return stateOf(
    data.clients,
    data.grants,
    data.codes.map(({ code_hash, ...code }) => [code_hash, code]),
  );
}

/** lowdb adapter: JSON text written atomically and durably, 0600. */
class DurableJsonFile<T> implements Adapter<T> {
  constructor(
    private readonly file: string,
    private readonly faults: StoreFaults,
  ) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new Error(`${this.file}: not valid JSON (${(err as Error).message})`);
    }
  }

  async write(data: T): Promise<void> {
    if (this.faults.failSave === true) throw new Error(`Injected failure writing ${this.file}`);
    await writeFileAtomic(this.file, JSON.stringify(data) + '\n', { mode: 0o600 });
  }
}

/** The embedded default: lowdb over `<home>/clients.json`. */
export class LowdbOAuthStore implements OAuthStore {
  private readonly db: Low<unknown>;

  constructor(
    readonly file: string,
    faults: StoreFaults = {},
  ) {
    this.db = new Low<unknown>(new DurableJsonFile<unknown>(file, faults), null);
  }

  async load(): Promise<OAuthState> {
    await this.db.read();
    return this.db.data === null ? stateOf([], [], []) : fromFile(this.db.data, this.file);
  }

  async save(state: OAuthState): Promise<void> {
    this.db.data = toFile(state);
    await this.db.write();
  }
}
