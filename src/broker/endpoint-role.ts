// Who serves this process's windows (INTERFACE.md 1.2, 1.3). With sharing on and a fixed port: the first
// process to bind the port is the broker; a later one whose bind fails registers its windows with the live
// broker recorded in `<home>/broker.json` and serves them from a loopback backend. Sharing off, port 0 (no
// fixed rendezvous), no live broker, or a broker that refuses us: standalone, on an ephemeral port when
// the configured one is taken.

import type { Settings } from '../settings/settings.js';
import type { WindowRegistry } from '../actors/registry.js';
import { ensureDirectorySecret, type DirectorySecret } from '../auth/directory-secret.js';
import type { FrontDoor, ListenResult } from '../http/front-door.js';
import { Backend } from './backend.js';
import { BrokerHost } from './broker-host.js';
import { BrokerLink, findBroker } from './broker-link.js';
import type { RegistryLimits } from './broker-registry.js';

export type EndpointRole =
  | { readonly kind: 'broker'; readonly listening: ListenResult; readonly host: BrokerHost }
  | { readonly kind: 'registered'; readonly listening: ListenResult; readonly backend: Backend; readonly link: BrokerLink }
  /** `reason` says why the endpoint is not shared (null when sharing is off). */
  | { readonly kind: 'standalone'; readonly listening: ListenResult; readonly reason: string | null };

export interface RoleOptions {
  readonly home: string;
  readonly settings: Settings;
  readonly door: FrontDoor;
  readonly windows: WindowRegistry;
  readonly secret: DirectorySecret;
  /** Registration limits of a broker this process becomes (tests lower them). */
  readonly limits?: RegistryLimits;
}

export async function takeEndpointRole(o: RoleOptions): Promise<EndpointRole> {
  if (!o.settings.share_endpoint) return { kind: 'standalone', listening: await o.door.listen(), reason: null };
  if (o.settings.port === 0) return { kind: 'standalone', listening: await o.door.listen(), reason: 'port 0 has no fixed address to share' };
  const owned = await o.door.listen(false).catch(() => null);
  if (owned !== null) {
    const host = new BrokerHost({ home: o.home, port: owned.port, windows: o.windows, secret: o.secret, limits: o.limits });
    await host.start();
    o.door.serveBroker(host);
    return { kind: 'broker', listening: owned, host };
  }
  const record = await findBroker(o.home, o.settings.bind_address, await ensureDirectorySecret(o.home));
  if (record === null) return standalone(o, `port ${o.settings.port} is taken and no live broker is recorded in ${o.home}`);
  const backend = new Backend(o.settings, o.windows);
  await backend.listen();
  for (const w of o.windows.local) backend.add(w);
  const link = new BrokerLink(record, o.settings.bind_address, await ensureDirectorySecret(o.home), backend);
  try {
    await link.register();
  } catch (err) {
    await backend.close(0);
    return standalone(o, (err as Error).message);
  }
  const url = link.url;
  return { kind: 'registered', listening: { port: record.port, url, fellBack: false }, backend, link };
}

async function standalone(o: RoleOptions, reason: string): Promise<EndpointRole> {
  return { kind: 'standalone', listening: await o.door.listen(), reason };
}
