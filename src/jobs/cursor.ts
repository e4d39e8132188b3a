// Opaque list cursors (TOOLS.md 1.6): an offset bound to one owner and to the revision of that owner's job
// list, sealed with a per-store key so a cursor cannot be forged, moved to another owner, or replayed after
// the list changed (a job added or removed).

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { JobStoreError } from './job.js';

interface CursorBody {
  readonly o: string;
  readonly r: number;
  readonly n: number;
}

export class CursorSeal {
  private readonly key = randomBytes(32);

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }

  seal(owner: string, revision: number, offset: number): string {
    const payload = Buffer.from(JSON.stringify({ o: owner, r: revision, n: offset } satisfies CursorBody)).toString('base64url');
    return payload + '.' + this.mac(payload).toString('base64url');
  }

  /** The offset a cursor carries; `cursor_invalid` unless it was sealed here for this owner at this revision. */
  open(cursor: string, owner: string, revision: number): number {
    const [payload, tag, extra] = cursor.split('.');
    const given = Buffer.from(tag ?? '', 'base64url');
    const expected = this.mac(payload ?? '');
    if (extra !== undefined || payload === undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalid('the cursor was not issued by this job store');
    }
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorBody;
    if (body.o !== owner) throw invalid('the cursor belongs to another owner');
    if (body.r !== revision) throw invalid('the job list changed since the cursor was issued; list again from the start');
    return body.n;
  }
}

function invalid(why: string): JobStoreError {
  return new JobStoreError(`Invalid cursor: ${why}`, 'cursor_invalid');
}
