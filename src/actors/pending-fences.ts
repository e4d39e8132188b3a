// Fences some window has not confirmed yet, persisted in `<home>/fences.json` (0600, atomic writes) so a
// restart keeps retrying them. An entry leaves the file once every window it names has confirmed it.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../util/atomic-file.js';
import type { Fence } from './fences.js';

export const FENCES_FILE = 'fences.json';
/** At most this many pending fences are kept; past it the oldest is dropped (and said so on stderr). */
export const MAX_PENDING_FENCES = 1_024;

export interface PendingFence {
  readonly fence: Fence;
  /** Ids of the windows that have not confirmed it. */
  readonly windows: Set<string>;
}

const ID = v.pipe(v.string(), v.minLength(1), v.maxLength(200));

const FileSchema = v.strictObject({
  version: v.literal(1),
  pending: v.pipe(
    v.array(
      v.strictObject({
        fence: v.strictObject({
          fence_id: ID,
          client_id: v.nullable(ID),
          grant_ids: v.pipe(v.array(ID), v.maxLength(100_000)),
          issued_at: v.pipe(v.string(), v.isoTimestamp()),
        }),
        windows: v.pipe(v.array(ID), v.minLength(1)),
      }),
    ),
    v.maxLength(MAX_PENDING_FENCES),
  ),
});

export function fencesPath(home: string): string {
  return path.join(home, FENCES_FILE);
}

/** The pending fences in `home`; none when the file is missing. A malformed file is an error, not ignored. */
export async function loadPendingFences(home: string): Promise<PendingFence[]> {
  const file = fencesPath(home);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(
      `${file} is not valid JSON (${(err as Error).message}); it lists commit fences not yet confirmed, so it is kept: repair or remove it`,
    );
  }
  const parsed = v.safeParse(FileSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new Error(`${file} is malformed at ${v.getDotPath(issue) ?? 'the top level'}: ${issue.message}`);
  }
  return parsed.output.pending.map((p) => ({ fence: p.fence, windows: new Set(p.windows) }));
}

/** Replaces the file with `pending` (the empty list included, so a confirmed fence leaves it). */
export async function savePendingFences(home: string, pending: Iterable<PendingFence>): Promise<void> {
  const entries = [...pending].map((p) => ({ fence: p.fence, windows: [...p.windows] }));
  await writeFileAtomic(fencesPath(home), JSON.stringify({ version: 1, pending: entries }, null, 1) + '\n', { mode: 0o600 });
}
