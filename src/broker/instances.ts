// The `/instances` listing: every window the front door routes to, this process's and other processes'
// (live and quarantined), with where it runs and how to reach it.

import { randomUUID } from 'node:crypto';
import type { RoutedWindow, WindowRegistry } from '../actors/registry.js';
import type { BrokerRegistry } from './broker-registry.js';
import { RemoteWindow } from './remote-window.js';

/** This process's id in listings (registered processes get theirs from the broker). */
export const LOCAL_PROCESS_ID = randomUUID();

export interface InstanceEntry {
  readonly id: string;
  readonly label: string;
  readonly process_id: string;
  readonly pid: number;
  readonly active_ontology: string;
  readonly active_document: string | null;
  readonly documents: readonly string[];
  readonly connected_at: string;
  /** Null for this process's own windows (they need none). */
  readonly last_heartbeat: string | null;
  readonly sessions: number;
  readonly state: 'live' | 'quarantined' | 'restarting' | 'failed';
  /** Why a window last crashed or failed to start (null when it never did, and for other processes' windows). */
  readonly reason: string | null;
  readonly restarts: number;
  /** Requests the window served without a forwarded principal, through a broker older than protocol 2. */
  readonly legacy_principal_requests: number;
  readonly behind_legacy_broker: boolean;
  readonly newest: boolean;
  readonly url: string;
}

/** An entry as a principal without `server:admin` sees it: no process id, documents by file name only. */
export function withoutHostDetails(entry: InstanceEntry): Omit<InstanceEntry, 'pid'> {
  const { pid: _pid, ...rest } = entry;
  const name = (p: string) => p.split(/[\\/]/).pop() ?? p;
  return {
    ...rest,
    active_document: entry.active_document === null ? null : name(entry.active_document),
    documents: entry.documents.map(name),
  };
}

function isoOfMonotonic(t: number): string {
  return new Date(performance.timeOrigin + t).toISOString();
}

export function describeInstances(windows: WindowRegistry, brokered: BrokerRegistry | null): InstanceEntry[] {
  const newest = windows.newest();
  return windows.all.map((w: RoutedWindow) => {
    const remote = w instanceof RemoteWindow ? w.endpoint : null;
    const owner = remote === null ? undefined : brokered?.process(remote.processId);
    const legacy = remote?.legacyRequests ?? 0;
    return {
      id: w.id,
      label: w.label,
      process_id: remote?.processId ?? LOCAL_PROCESS_ID,
      pid: remote?.pid ?? process.pid,
      active_ontology: w.label,
      active_document: w.documents[0] ?? null,
      documents: w.documents,
      connected_at: isoOfMonotonic(w.connectedAt),
      last_heartbeat: owner === undefined ? null : new Date(owner.lastHeartbeat).toISOString(),
      sessions: windows.sessionsOn(w),
      state: w.quarantined === true ? 'quarantined' : (w.health?.state ?? 'live'),
      reason: w.health?.reason ?? null,
      restarts: w.health?.restarts ?? 0,
      legacy_principal_requests: legacy,
      behind_legacy_broker: legacy > 0,
      newest: w === newest,
      url: `/instances/${encodeURIComponent(w.id)}/mcp`,
    };
  });
}
