// Each window actor's job store, keyed by its workspace (one per actor, made on first use), and the hook
// the actor calls when it closes.

import type { Workspace } from '../model/workspace.js';
import type { CallContext } from '../window/call-context.js';
import { artifactsParent } from './artifacts.js';
import { JobManager } from './manager.js';
import { jobOwner } from './owner.js';

const managers = new WeakMap<Workspace, JobManager>();

/** The actor's job store; artifacts go under the private directory (`audit_home` is `$ATHENE_HOME`). */
export function jobManager(ctx: Pick<CallContext, 'workspace' | 'settings'>): JobManager {
  let m = managers.get(ctx.workspace);
  if (m === undefined) managers.set(ctx.workspace, (m = new JobManager({ artifactsParent: artifactsParent(ctx.settings.audit_home ?? null) })));
  return m;
}

/** The actor is closing: cancel its jobs, forget their ids, delete their artifacts. */
export async function closeJobs(ws: Workspace): Promise<void> {
  const m = managers.get(ws);
  managers.delete(ws);
  await m?.close();
}

/** Grants were revoked: their unfinished jobs in this actor are cancelled. */
export function cancelRevokedJobs(ws: Workspace, grantIds: ReadonlySet<string>): void {
  managers.get(ws)?.cancelGrants(grantIds);
}

/** The caller's principal's jobs waiting and running in this actor (get_session_info `jobs`). */
export function jobCounts(ctx: Pick<CallContext, 'workspace' | 'settings' | 'principal'>): { queued: number; running: number } {
  return jobManager(ctx).counts(jobOwner(ctx.workspace.id, ctx.principal).principalFingerprint);
}
