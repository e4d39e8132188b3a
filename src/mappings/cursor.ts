// Opaque page cursors (TOOLS.md 1.6): the offset and what it is bound to (the listing, the store path, its
// revision and whatever else shapes the pages), authenticated with HMAC-SHA-256 under a key drawn at random
// when the window starts. A cursor from another listing, store or revision, an altered one, or one from
// another window (or before a restart) fails with `cursor_invalid`.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../util/errors.js';

const KEY = randomBytes(32);

export interface CursorBinding {
  /** Which listing (`list_mappings`, `validate_mappings`). */
  readonly kind: string;
  /** Everything the pages depend on: store path, revision, … */
  readonly scope: string;
}

const mac = (payload: string) => createHmac('sha256', KEY).update(payload).digest();

export function encodeCursor(binding: CursorBinding, offset: number): string {
  const payload = Buffer.from(JSON.stringify([binding.kind, binding.scope, offset])).toString('base64url');
  return `${payload}.${mac(payload).toString('base64url')}`;
}

function invalid(message: string): DomainError {
  return new DomainError(message, 'cursor_invalid', { argument: 'cursor' });
}

/** The offset a cursor carries, when it was issued for exactly this binding. */
export function decodeCursor(cursor: string, binding: CursorBinding): number {
  const [payload, tag, extra] = cursor.split('.');
  if (payload === undefined || tag === undefined || extra !== undefined) throw invalid('cursor is not a cursor this server issued');
  const expected = mac(payload);
  const given = Buffer.from(tag, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw invalid('cursor is not a cursor this window issued (altered, or from another window or an earlier run)');
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('cursor is malformed');
  }
  if (!Array.isArray(data) || data.length !== 3 || typeof data[2] !== 'number' || !Number.isSafeInteger(data[2]) || data[2] < 0)
    throw invalid('cursor is malformed');
  if (data[0] !== binding.kind) throw invalid(`cursor belongs to another listing (${String(data[0]).slice(0, 32)})`);
  if (data[1] !== binding.scope)
    throw invalid('the mapping store (or what the listing depends on) changed since this cursor was issued; start again without cursor');
  return data[2];
}
