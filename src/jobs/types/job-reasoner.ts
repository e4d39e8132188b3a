// The reasoner a reasoning job uses: the window's selection (there always is one). Only a reasoner whose
// bounded cancellation was reviewed for its exact version may run as a job, since a job must stop within
// the cancellation grace (`job_reasoner_not_cancellable` otherwise).

import type { ReasonerInfo } from '../../reasoner/registry.js';
import { DomainError } from '../../util/errors.js';
import type { CallContext } from '../../window/call-context.js';

/**
 * Reviewed reasoners by id and exact version: the EL saturation (also under the structural reasoner) polls
 * a shared cancellation flag, and both the reasoner pool and the materialization worker terminate a thread
 * that has not stopped within their grace. Konclude (alone or chosen by `auto`) runs as a child process
 * the same flag kills, its files removed (the Debian build 0.7.0-1138 was checked).
 */
const CANCELLATION_REVIEWED: Readonly<Record<string, string>> = { el: '0.1.0', structural: '0.1.0', auto: '0.1.0', konclude: '0.7.0-1138' };

export function jobReasoner(ctx: CallContext): ReasonerInfo {
  const r = ctx.window.reasoning.selected;
  if (CANCELLATION_REVIEWED[r.id] === r.version) return r;
  throw new DomainError(
    `${r.name} has no reviewed bounded-cancellation profile, so it cannot run as a job; run it interactively instead`,
    'job_reasoner_not_cancellable',
    { reasoner: { id: r.id, name: r.name } },
  );
}
