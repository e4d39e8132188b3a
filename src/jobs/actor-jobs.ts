// What get_session_info reads of the window's job store (the store itself is a part of the window state).

import type { CallContext } from '../window/call-context.js';
import { jobOwner } from './owner.js';

/** The caller's principal's jobs waiting and running in this actor (get_session_info `jobs`). */
export function jobCounts(ctx: Pick<CallContext, 'window' | 'principal'>): { queued: number; running: number } {
  return ctx.window.jobs.counts(jobOwner(ctx.window.workspace.id, ctx.principal).principalFingerprint);
}
