// The reasoner a reasoning job uses: the window's selection, else the one a valid policy names. Only a
// reasoner whose bounded cancellation was reviewed for its exact version may run as a job, since a job
// must stop within the cancellation grace (`job_reasoner_not_cancellable` otherwise).

import { reasoningSession } from '../../reasoner/pool.js';
import { resolveReasoner, sortedReasoners, type ReasonerInfo } from '../../reasoner/registry.js';
import type { PolicyResolution } from '../../policy/resolution.js';
import { ToolFailure, type ToolContext } from '../../tools/tool.js';

/**
 * Reviewed reasoners by id and exact version: the EL saturation (also under the structural reasoner) polls
 * a shared cancellation flag, and both the reasoner pool and the materialization worker terminate a thread
 * that has not stopped within their grace.
 */
const CANCELLATION_REVIEWED: Readonly<Record<string, string>> = { el: '0.1.0', structural: '0.1.0' };

const installed = (): string => sortedReasoners().map((r) => `${r.name} [${r.id}]`).join(', ');

function chosen(ctx: ToolContext, res: PolicyResolution): ReasonerInfo {
  const selected = reasoningSession(ctx.workspace).selected;
  if (selected !== null) return selected;
  const reference = res.policy?.reasoning.reasoner;
  if (reference !== undefined) {
    const found = resolveReasoner(reference);
    if (found.kind === 'match') return found.reasoner;
    throw new ToolFailure(`The policy's reasoning.reasoner "${reference}" does not name exactly one installed reasoner (installed: ${installed()})`, 'unknown_reasoner');
  }
  throw new ToolFailure(`No reasoner is selected and the project policy names none: call set_reasoner first (installed: ${installed()}).`, 'no_reasoner_selected');
}

export function jobReasoner(ctx: ToolContext, res: PolicyResolution): ReasonerInfo {
  const r = chosen(ctx, res);
  if (CANCELLATION_REVIEWED[r.id] === r.version) return r;
  throw new ToolFailure(`${r.name} has no reviewed bounded-cancellation profile, so it cannot run as a job; run it interactively instead`,
    'job_reasoner_not_cancellable', { reasoner: { id: r.id, name: r.name } });
}
