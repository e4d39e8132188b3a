// Who serves this process's windows (INTERFACE.md 1.2, 1.3). With sharing on and a fixed port: the first
// process to bind the port is the broker; a later one whose bind fails registers its windows with the live
// broker recorded in `<home>/broker.json` and serves them from a loopback backend, unless that broker runs
// an older release: then it first asks it to hand the port over (version takeover) and, when it agrees,
// waits for it to exit and becomes the broker. Sharing off, port 0 (no fixed rendezvous), no live broker,
// or a broker that refuses us: standalone, on an ephemeral port when the configured one is taken.

import type { Settings } from '../settings/settings.js';
import type { WindowRegistry } from '../actors/registry.js';
import { ensureDirectorySecret } from '../auth/directory-secret.js';
import type { FrontDoor, ListenResult } from '../http/front-door.js';
import { Backend } from './backend.js';
import { BrokerHost } from './broker-host.js';
import { BrokerLink, findBroker, requestTakeover } from './broker-link.js';
import type { BrokerRecord } from './broker-file.js';
import type { RegistryLimits } from './broker-registry.js';
import type { RemoteWindow } from './remote-window.js';
import { compareReleases, describeRelease, type Release } from './version.js';
import { pidAlive } from '../util/pid-alive.js';
import { log } from '../util/log.js';

/** How long a granted takeover waits for the old broker's process to exit before binding regardless. */
const TAKEOVER_EXIT_WAIT_MS = 15_000;

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
  /** This process's release: compared with a live broker's to decide on a takeover. */
  readonly release: Release;
  /** Sends this process's fences to another process's window as it registers (see BrokerHost). */
  readonly admit: (window: RemoteWindow) => Promise<boolean>;
  /** Registration limits of a broker this process becomes (tests lower them). */
  readonly limits?: RegistryLimits | undefined;
}

export async function takeEndpointRole(o: RoleOptions): Promise<EndpointRole> {
  if (!o.settings.share_endpoint) return { kind: 'standalone', listening: await o.door.listen(), reason: null };
  if (o.settings.port === 0)
    return { kind: 'standalone', listening: await o.door.listen(), reason: 'port 0 has no fixed address to share' };
  const owned = await o.door.listen(false).catch(() => null);
  if (owned !== null) return becomeBroker(o, owned);
  const directorySecret = await ensureDirectorySecret(o.home);
  let record = await findBroker(o.home, o.settings.bind_address, directorySecret);
  if (record !== null && compareReleases(o.release, releaseOf(record)) > 0) {
    const took = await takeOver(o, record, directorySecret);
    if (took !== null) return took;
    record = await findBroker(o.home, o.settings.bind_address, directorySecret);
  }
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

async function becomeBroker(o: RoleOptions, listening: ListenResult): Promise<EndpointRole> {
  const host = new BrokerHost({
    home: o.home,
    port: listening.port,
    windows: o.windows,
    release: o.release,
    admit: o.admit,
    limits: o.limits,
  });
  await host.start();
  o.door.serveBroker(host);
  return { kind: 'broker', listening, host };
}

/** The release a broker record names; a record without a package version is from before versions were recorded. */
function releaseOf(record: BrokerRecord): Release {
  return { protocol: record.protocol, version: record.version ?? '0.0.0' };
}

/**
 * Asks the older broker `record` for the port. Granted: waits for its process to exit (its port and the
 * home's OAuth registry are then free) and binds the port. Null when refused or when another process bound
 * the port first; the caller then registers with whichever broker is live, and stderr says why.
 */
async function takeOver(o: RoleOptions, record: BrokerRecord, directorySecret: string): Promise<EndpointRole | null> {
  const theirs = `pid ${record.pid}, ${describeRelease(releaseOf(record))}`;
  const answer = await requestTakeover(record, o.settings.bind_address, directorySecret, o.release);
  if (!answer.granted) {
    log.warn(
      `the broker (${theirs}) runs an older release than this one (${describeRelease(o.release)}) ` +
        `but refused to hand over the port: ${answer.reason}. Registering with it instead.`,
    );
    return null;
  }
  const deadline = Date.now() + TAKEOVER_EXIT_WAIT_MS;
  while (pidAlive(record.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const owned = await o.door.listen(false).catch(() => null);
  if (owned === null) {
    log.warn(`the older broker (${theirs}) handed over the port, but another process bound it first`);
    return null;
  }
  log.warn(`took the shared endpoint over from the older broker (${theirs})`);
  return becomeBroker(o, owned);
}

async function standalone(o: RoleOptions, reason: string): Promise<EndpointRole> {
  return { kind: 'standalone', listening: await o.door.listen(), reason };
}
