// What a window actor cannot see from its own thread but `get_session_info` reports (TOOLS.md §3.14): how
// the endpoint is served, its base URL, the window's id at the endpoint, and the windows the endpoint
// routes to. The main thread answers a window's request for it; no identity or secret is in it.

import type { WindowRegistry } from '../actors/registry.js';
import type { EndpointRole } from './endpoint-role.js';
import { describeInstances, type InstanceEntry } from './instances.js';

export interface InstanceSummary {
  /** Usable in `/instances/{id}/mcp`. */
  readonly instance_id: string;
  readonly label: string;
  readonly active_ontology: string;
  readonly sessions: number;
  readonly last_connected_at: string;
  /** The window new sessions on `/mcp` go to. */
  readonly most_recent: boolean;
}

export interface ServerView {
  readonly mode: 'broker' | 'standalone';
  /** Origin of the endpoint clients use; `/mcp` and `/instances/{id}/mcp` are under it. */
  readonly base_url: string;
  /** The asking window's id at the endpoint (a broker gives other processes' windows ids of its own). */
  readonly instance_id: string;
  /** Ordered by instance id. */
  readonly instances: readonly InstanceSummary[];
}

function summary(e: InstanceEntry): InstanceSummary {
  return {
    instance_id: e.id,
    label: e.label,
    active_ontology: e.active_ontology,
    sessions: e.sessions,
    last_connected_at: e.connected_at,
    most_recent: e.newest,
  };
}

/**
 * The view for window `windowId` of this process. A process registered with another's broker is reached
 * through that broker: it reports mode `broker`, the broker's URL, the id the broker gave the window, and
 * the broker's listing (its own windows alone, under their broker ids and none marked most recent, when the
 * broker does not answer).
 */
export async function describeServer(role: EndpointRole, windows: WindowRegistry, windowId: string): Promise<ServerView> {
  const base_url = new URL(role.listening.url).origin;
  let entries: readonly InstanceEntry[];
  let instance_id = windowId;
  if (role.kind === 'registered') {
    const ids = role.link.instances;
    instance_id = ids[windowId] ?? windowId;
    entries =
      (await role.link.listInstances()) ?? describeInstances(windows, null).map((e) => ({ ...e, id: ids[e.id] ?? e.id, newest: false }));
  } else {
    entries = describeInstances(windows, role.kind === 'broker' ? role.host.registry : null);
  }
  return {
    mode: role.kind === 'standalone' ? 'standalone' : 'broker',
    base_url,
    instance_id,
    instances: entries.map(summary).sort((a, b) => (a.instance_id < b.instance_id ? -1 : a.instance_id > b.instance_id ? 1 : 0)),
  };
}
