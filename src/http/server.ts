// Starting and stopping a whole server: private directory, settings, token, one window per document
// (or the bundled demo ontology), and the front door.

import path from 'node:path';
import { packageRoot, packageVersion } from '../util/package.js';
import { defaultHome, ensureHome, loadSettings, type RawSettings, type Settings } from '../settings/settings.js';
import { StaticTokenVerifier, tokenPath } from '../auth/static-token.js';
import { WindowRegistry } from '../actors/registry.js';
import { FrontDoor } from './front-door.js';
import { chooseTransport, type TransportChoice } from './transport.js';
import { startRevocationActor, type RevocationActor } from '../auth/revocation/actor.js';
import { WindowHandle } from '../actors/window.js';
import { RevocationFanout } from '../actors/revocation-fanout.js';
import type { FenceTarget } from '../actors/fences.js';
import { DirectorySecret } from '../auth/directory-secret.js';
import { InternalRoutes } from './internal-routes.js';
import { takeEndpointRole, type EndpointRole } from '../broker/endpoint-role.js';
import type { RegistryLimits } from '../broker/broker-registry.js';
import { ownRelease } from '../broker/version.js';
import { describeServer } from '../broker/server-view.js';
import { configureLog, log } from '../util/log.js';
import { documentsToReopen } from '../journal/file-store.js';
import { configureFileReads, readLimitsFrom } from '../util/file-read.js';
import { ConsentRequests } from '../auth/oauth/consent-requests.js';
import { ownerLoginUrl } from '../auth/owner-session.js';
import { removeStaleTemps } from '../util/atomic-file.js';

const QUARANTINE_POLL_MS = 500;

/**
 * The origin a login URL names: a wildcard bind is no host a browser may send (the Host check refuses it),
 * so the URL names loopback, as `athene open` does.
 */
function loginOrigin(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  else if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin;
}

export interface ServerOptions {
  /** Private directory; default `$ATHENE_HOME` or `~/.athene`. */
  home?: string | undefined;
  /** One window per document; none opens the demo ontology. */
  files?: readonly string[];
  /** Command-line settings (highest precedence). */
  flags?: RawSettings;
  env?: NodeJS.ProcessEnv;
  /** Registration limits should this process become the broker (default 32 processes, 128 windows each). */
  brokerLimits?: RegistryLimits | undefined;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly fellBack: boolean;
  readonly home: string;
  readonly tokenFile: string;
  readonly settings: Settings;
  /** The HTTP transport serving, and why node:http serves when uWS was preferred. */
  readonly transport: TransportChoice;
  readonly registry: WindowRegistry;
  /** What a revocation does to sessions, in-flight requests and windows; its pending fences. */
  readonly fanout: RevocationFanout;
  /** OAuth registrations, grants and tokens (the revocation actor's handle). */
  readonly authority: RevocationActor;
  /**
   * How the endpoint is served: `broker` (this process owns the shared port), `registered` (its windows are
   * served through another process's broker), or `standalone`.
   */
  readonly role: EndpointRole;
  /** Resolves once the server stopped, including on its own (a version takeover, the end of a linger). */
  readonly closed: Promise<void>;
  /** True when stopping now would linger: this process is the broker and other processes are registered. */
  willLinger(): boolean;
  /** True while this process's broker holds an endpoint in revocation-only quarantine: journal compaction must wait. */
  hasQuarantine(): boolean;
  /** A fresh single-use owner login URL for this endpoint (the startup line, tests). */
  ownerLoginUrl(): string;
  /** Opens another window; it becomes the target of new sessions. */
  openWindow(files: readonly string[]): Promise<void>;
  /** Stops accepting, drains in-flight calls (bounded), stops the windows. */
  close(graceMs?: number): Promise<void>;
}

export function demoOntologyPath(): string {
  return path.join(packageRoot(), 'examples', 'demo.ttl');
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const home = options.home ?? defaultHome(env);
  await ensureHome(home);
  const settings = await loadSettings(home, options.flags, env);
  configureLog(settings.log_format, settings.log_level);
  const transport = chooseTransport(settings.http_server);
  const release = ownRelease(await packageVersion(), env);
  const verifier = await StaticTokenVerifier.open(home);
  // The journal is replayed before anything is served: a revoked token never works after a restart.
  const authority = await startRevocationActor({ home });
  configureFileReads({ protected: [home], limits: readLimitsFrom(settings) });
  const registry = new WindowRegistry({ ...settings, audit_home: home, private_home: home });
  let fanout: RevocationFanout;
  let secret: DirectorySecret;
  try {
    // pending fences enter the ledger before any window starts, so every window holds them from the first request
    fanout = await RevocationFanout.open({
      home,
      ledger: registry.fences,
      targets: () => registry.fenceTargets(),
      cutInFlight: (revoked) => door.cutInFlight(revoked),
      dropSessions: (revoked) => registry.dropSessions(revoked),
    });
    secret = await DirectorySecret.open(home);
  } catch (err) {
    await authority.close();
    throw err;
  }
  // a restarted local window started with every fence; a window joining from another process is sent them
  // by the broker as it attaches (roleOptions.admit)
  registry.onWindowStarted = (w) => {
    if (w instanceof WindowHandle) void fanout.started(w);
  };
  registry.onWindowGone = (id) => void fanout.forget([id]);
  const files = options.files !== undefined && options.files.length > 0 ? options.files.map((f) => path.resolve(f)) : [demoOntologyPath()];
  // documents with unsaved journaled changes are reopened (each in its own window) so they are replayed
  const reopened = settings.journal_enabled ? await documentsToReopen(home, files) : [];
  // a save interrupted by a crash leaves its temporary file beside the document
  for (const file of files) await removeStaleTemps(file);
  try {
    for (const file of [...files, ...reopened]) await registry.open([file]);
  } catch (err) {
    await registry.stopAll();
    await fanout.close();
    await authority.close();
    throw err;
  }
  const consents = new ConsentRequests();
  const door = new FrontDoor(settings, registry, verifier, authority, home, transport.kind, {
    key: secret.ownerKey,
    consents,
    version: release.version,
  });
  door.serveInternal(new InternalRoutes({ secret, authority, registry, fanout, consents, held: door }));
  authority.onRevoked(fanout.listener);
  const roleOptions = {
    home,
    settings,
    door,
    windows: registry,
    release,
    admit: (w: FenceTarget) => fanout.admit(w),
    limits: options.brokerLimits,
  };
  let role: EndpointRole;
  try {
    role = await takeEndpointRole(roleOptions);
  } catch (err) {
    await registry.stopAll();
    await fanout.close();
    await authority.close();
    throw err;
  }
  verifier.watch();
  let stopping: Promise<void> | null = null;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const stop = (graceMs: number, linger: boolean): Promise<void> => {
    stopping ??= (async () => {
      if (role.kind === 'broker' && linger && !role.host.registry.empty) {
        // other processes' windows stay reachable through this endpoint until none has been registered for the linger
        await registry.closeLocal();
        await role.host.idleFor(settings.broker_idle_linger_s * 1000);
      }
      verifier.stop();
      clearInterval(quarantineWatch);
      if (role.kind === 'registered') {
        // the broker stops routing here first; calls already forwarded then drain
        await role.link.close();
        await role.backend.close(graceMs);
      }
      await door.close(graceMs);
      await registry.stopAll();
      if (role.kind === 'broker') await role.host.close();
      // this process's windows are gone: they owe no fence
      await fanout.forget(registry.local.map((w) => w.id));
      await fanout.close();
      await authority.close();
      markClosed();
    })();
    return stopping;
  };
  /**
   * The broker this process registered with is gone: take the endpoint again (bind the port and become the
   * broker, or register with whichever process did, or stand alone), after a short random delay so the
   * orphaned processes do not all race for the port at once.
   */
  const relocate = async (): Promise<void> => {
    if (role.kind !== 'registered' || stopping !== null) return;
    await role.backend.close(0);
    await new Promise((r) => setTimeout(r, Math.random() * 500));
    if (stopping !== null) return;
    const next = await takeEndpointRole(roleOptions);
    adopt(next);
    log.warn(
      `now ${next.kind === 'standalone' ? 'standalone' : next.kind === 'broker' ? 'the broker' : 'registered with a new broker'} at ${next.listening.url}`,
    );
  };
  const adopt = (next: EndpointRole): void => {
    role = next;
    // a process that serves the endpoint itself needs the OAuth registry; one behind a broker does not
    if (role.kind !== 'registered')
      void authority.promote().then((owned) => {
        if (!owned)
          log.warn(
            `${authority.standbyFor === process.pid ? 'another server in this process' : `process ${authority.standbyFor}`} owns the OAuth registry in ${home}; OAuth tokens are refused here, the static bearer token works`,
          );
      });
    if (role.kind === 'broker') role.host.onTakeover = () => void stop(1000, false);
    if (role.kind === 'registered') role.link.onLost = () => void relocate();
  };
  adopt(role);
  registry.describeServer = (windowId) => describeServer(role, registry, windowId);
  // revocations stay in the journal while a quarantined endpoint may still hold revoked work
  let compactionHeld = false;
  const quarantineWatch = setInterval(() => {
    const held = role.kind === 'broker' && role.host.hasQuarantine();
    if (held !== compactionHeld) {
      compactionHeld = held;
      void authority.holdCompaction(held).catch(() => undefined);
    }
  }, QUARANTINE_POLL_MS);
  quarantineWatch.unref();
  return {
    get url() {
      return role.listening.url;
    },
    get port() {
      return role.listening.port;
    },
    get fellBack() {
      return role.listening.fellBack;
    },
    get role() {
      return role;
    },
    closed,
    willLinger: () => role.kind === 'broker' && !role.host.registry.empty,
    hasQuarantine: () => role.kind === 'broker' && role.host.hasQuarantine(),
    home,
    tokenFile: tokenPath(home),
    settings,
    transport,
    registry,
    authority,
    fanout,
    ownerLoginUrl: () => ownerLoginUrl(loginOrigin(role.listening.url), secret.ownerKey),
    openWindow: async (more) => {
      const w = await registry.open(more.map((f) => path.resolve(f)));
      if (role.kind === 'registered') {
        role.backend.add(w);
        await role.link.heartbeat();
      }
    },
    close: (graceMs = 5000) => stop(graceMs, true),
  };
}
