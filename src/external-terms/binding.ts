// The owner's binding of provider origins and credentials (TOOLS.md 3.12): `<home>/providers/config.json`,
// owner-only. A project policy names providers by origin alias and credential id only; the endpoint and the
// secret come from here, so neither a policy nor a caller can point the server at another host or make it
// send a secret elsewhere. Nothing read here is ever logged or returned.

import { lstat } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { sha256Digest } from '../util/digest.js';
import { readServerPrivateFile } from '../util/file-read.js';

const MAX_CONFIG_BYTES = 64 * 1024;
const MAX_SECRET_BYTES = 8 * 1024;

const alias = v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'an alias'));

/** An exact HTTPS base: scheme and host (and port, path) only, no trailing slash, query, fragment or userinfo. */
const httpsBase = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.check((s) => {
    try {
      const u = new URL(s);
      return (
        u.protocol === 'https:' &&
        u.username === '' &&
        u.password === '' &&
        u.search === '' &&
        u.hash === '' &&
        !s.endsWith('/') &&
        u.href.replace(/\/$/, '') === s
      );
    } catch {
      return false;
    }
  }, 'an exact https base URL without a trailing slash'),
);

const ConfigSchema = v.strictObject({
  version: v.literal(1),
  origins: v.optional(
    v.array(
      v.strictObject({
        alias,
        profile: v.literal('ols4'),
        origin: httpsBase,
        /** A private CA (PEM file) the origin's certificate chains to: a design addition for private mirrors. */
        ca_file: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(4096))),
      }),
    ),
    [],
  ),
  credentials: v.optional(
    v.array(
      v.strictObject({
        id: alias,
        /** The request header carrying the secret, e.g. `authorization` or `x-api-key`. */
        header: v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9-]{0,63}$/, 'a header name')),
        /** An owner-only file holding the secret (for `authorization`, the whole header value). */
        secret_file: v.pipe(v.string(), v.minLength(1), v.maxLength(4096)),
      }),
    ),
    [],
  ),
});

export interface BoundOrigin {
  readonly alias: string;
  readonly origin: string;
  /** PEM of the private CA, when configured. */
  readonly ca: string | null;
}

export interface BoundCredential {
  readonly id: string;
  readonly header: string;
  /** Null when the secret file is missing, unreadable, empty or not owner-only. */
  readonly secret: string | null;
}

export interface ProviderBinding {
  readonly origins: ReadonlyMap<string, BoundOrigin>;
  readonly credentials: ReadonlyMap<string, BoundCredential>;
  /** Digest of everything bound (config bytes, CA and secret digests): a change means new authority. */
  readonly generation: string;
}

/** Why the binding cannot be used; the message never quotes the file's content. */
export class BindingError extends Error {}

/** The binding file under the private directory. */
export function bindingFile(home: string): string {
  return path.join(home, 'providers', 'config.json');
}

/** Reads an owner-only regular file (0600 or stricter, not a symlink); null when absent. */
async function readOwnerOnly(file: string, max: number, what: string): Promise<Buffer | null> {
  let st;
  try {
    st = await lstat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new BindingError(`${what} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!st.isFile()) throw new BindingError(`${what} is not a regular file`);
  if ((st.mode & 0o077) !== 0)
    throw new BindingError(`${what} is readable by others than its owner (mode ${(st.mode & 0o777).toString(8)}); it must be 0600`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw new BindingError(`${what} is not owned by the server's user`);
  if (st.size > max) throw new BindingError(`${what} exceeds ${max} bytes`);
  return readServerPrivateFile(file, max);
}

async function ownerOnlyDirectory(dir: string): Promise<boolean> {
  try {
    const st = await lstat(dir);
    if (!st.isDirectory()) throw new BindingError(`${dir} is not a directory`);
    if ((st.mode & 0o077) !== 0)
      throw new BindingError(
        `the provider binding directory is accessible to others than its owner (mode ${(st.mode & 0o777).toString(8)}); it must be 0700`,
      );
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/**
 * The owner's binding, or null when there is none (no private directory, or no config file). A file that
 * exists but is not owner-only or not valid is a BindingError: the server refuses rather than guesses.
 */
export async function readBinding(home: string | undefined): Promise<ProviderBinding | null> {
  if (home === undefined) return null;
  const file = bindingFile(home);
  if (!(await ownerOnlyDirectory(path.dirname(file)))) return null;
  const bytes = await readOwnerOnly(file, MAX_CONFIG_BYTES, 'the provider binding file');
  if (bytes === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BindingError('the provider binding file is not valid JSON');
  }
  const parsed = v.safeParse(ConfigSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = (issue.path ?? []).map((p) => String((p as { key?: unknown }).key)).join('.');
    throw new BindingError(
      `the provider binding file is invalid at ${where || '(root)'}: ${issue.expected === null ? issue.message : 'expected ' + issue.expected}`,
    );
  }
  const parts = [sha256Digest(bytes)];
  const origins = new Map<string, BoundOrigin>();
  for (const o of parsed.output.origins) {
    if (origins.has(o.alias)) throw new BindingError(`the provider binding file binds origin alias '${o.alias}' twice`);
    let ca: string | null = null;
    if (o.ca_file !== undefined) {
      const pem = await readOwnerOnly(path.resolve(path.dirname(file), o.ca_file), MAX_CONFIG_BYTES, `the CA file of origin '${o.alias}'`);
      if (pem === null) throw new BindingError(`the CA file of origin '${o.alias}' does not exist`);
      ca = pem.toString('utf8');
      parts.push(sha256Digest(pem));
    }
    origins.set(o.alias, { alias: o.alias, origin: o.origin, ca });
  }
  const credentials = new Map<string, BoundCredential>();
  for (const c of parsed.output.credentials) {
    if (credentials.has(c.id)) throw new BindingError(`the provider binding file binds credential '${c.id}' twice`);
    let secret: string | null = null;
    try {
      const bytes = await readOwnerOnly(
        path.resolve(path.dirname(file), c.secret_file),
        MAX_SECRET_BYTES,
        `the secret file of credential '${c.id}'`,
      );
      const text = bytes?.toString('utf8').trim() ?? '';
      secret = text === '' || /[\r\n]/.test(text) ? null : text;
    } catch (err) {
      if (!(err instanceof BindingError)) throw err;
    }
    parts.push(secret === null ? 'missing' : sha256Digest(secret));
    credentials.set(c.id, { id: c.id, header: c.header.toLowerCase(), secret });
  }
  return { origins, credentials, generation: sha256Digest(parts.join('\n')) };
}
