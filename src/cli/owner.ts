// The owner's commands: they read the private directory (which is what proves the owner) and talk to the
// running server through its same-user internal API, authenticated by the directory secret.
//   athene consent list|approve ID|deny ID     OAuth consent requests waiting for the owner
//   athene pending list|approve ID|deny ID     held writes (confirm each write)
//   athene clients list|revoke ID              registered OAuth clients
//   athene open [--print-url]                  a single-use owner login URL for the browser

import { spawn } from 'node:child_process';
import { readBrokerRecord } from '../broker/broker-file.js';
import { DIRECTORY_SECRET_HEADER, directorySecretPath } from '../auth/directory-secret.js';
import { readSecretFile } from '../auth/secret-file.js';
import { ownerKey, ownerLoginUrl } from '../auth/owner-session.js';
import { defaultHome, isLoopbackAddress, loadSettings } from '../settings/settings.js';
import { UsageError, optionalString } from './args.js';

type Values = Record<string, string | boolean | undefined>;

interface Server {
  readonly origin: string;
  readonly secret: string;
}

/** The running server of the private directory: `--url`, else the broker's port, else the configured one. */
async function serverOf(values: Values): Promise<Server> {
  const home = optionalString(values.home) ?? defaultHome();
  const secret = await readSecretFile(directorySecretPath(home));
  if (secret === null) throw new Error(`no directory secret in ${home}: no server has run with this private directory`);
  const url = optionalString(values.url);
  if (url !== undefined) return { origin: new URL(url).origin, secret };
  const broker = await readBrokerRecord(home);
  const settings = await loadSettings(home);
  const bind =
    isLoopbackAddress(settings.bind_address) || settings.bind_address === '0.0.0.0' || settings.bind_address === '::'
      ? '127.0.0.1'
      : settings.bind_address;
  const host = bind.includes(':') ? `[${bind}]` : bind;
  return { origin: `http://${host}:${broker?.port ?? settings.port}`, secret };
}

async function internal(server: Server, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(new URL(path, server.origin), {
      method,
      headers: { [DIRECTORY_SECRET_HEADER]: server.secret, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw new Error(`no server answers at ${server.origin} (${(err as Error).message}); pass --url`);
  }
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new Error(String(json.error_description ?? json.error ?? `HTTP ${res.status}`));
  return json;
}

function print(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

function action(positionals: string[], verbs: readonly string[], command: string): { verb: string; id: string | null } {
  const [verb, id, ...rest] = positionals;
  if (verb === undefined || !verbs.includes(verb) || rest.length > 0)
    throw new UsageError(`usage: athene ${command} ${verbs.map((v) => (v === 'list' ? v : `${v} ID`)).join('|')}`);
  if (verb !== 'list' && id === undefined) throw new UsageError(`athene ${command} ${verb} needs an ID`);
  if (verb === 'list' && id !== undefined) throw new UsageError(`athene ${command} list takes no ID`);
  return { verb, id: id ?? null };
}

export async function consentCommand(positionals: string[], values: Values): Promise<void> {
  const { verb, id } = action(positionals, ['list', 'approve', 'deny'], 'consent');
  const server = await serverOf(values);
  if (verb === 'list') return print((await internal(server, 'GET', '/internal/consents')).consents);
  print(await internal(server, 'POST', '/internal/consents/decide', { id, approve: verb === 'approve' }));
}

export async function pendingCommand(positionals: string[], values: Values): Promise<void> {
  const { verb, id } = action(positionals, ['list', 'approve', 'deny'], 'pending');
  const server = await serverOf(values);
  if (verb === 'list') return print((await internal(server, 'GET', '/internal/pending')).pending);
  print(await internal(server, 'POST', '/internal/pending/decide', { id, approve: verb === 'approve' }));
}

export async function clientsCommand(positionals: string[], values: Values): Promise<void> {
  const { verb, id } = action(positionals, ['list', 'revoke'], 'clients');
  const server = await serverOf(values);
  if (verb === 'list') return print((await internal(server, 'GET', '/internal/clients')).clients);
  print(await internal(server, 'POST', '/internal/revoke-client', { client_id: id }));
}

export async function openCommand(positionals: string[], values: Values): Promise<void> {
  if (positionals.length > 0) throw new UsageError('usage: athene open [--print-url] [--home DIR] [--url URL]');
  const server = await serverOf(values);
  const url = ownerLoginUrl(server.origin, ownerKey(server.secret));
  process.stdout.write(url + '\n');
  if (values['print-url'] === true) return;
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawn(opener, [url], { detached: true, stdio: 'ignore' })
    .on('error', () => undefined)
    .unref();
}
