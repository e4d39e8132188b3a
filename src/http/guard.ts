// Checks made on every request before anything else: DNS-rebinding protection (Host / Origin) and the
// bearer token.

import { isLoopbackAddress } from '../settings/settings.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

let cachedPort = -1;
let cachedHosts: ReadonlySet<string> = new Set();

/** The Host values a loopback-bound server answers to (kept for the last port asked: it is checked per request). */
export function loopbackHosts(port: number): ReadonlySet<string> {
  if (port !== cachedPort) {
    cachedHosts = new Set(LOOPBACK_NAMES.map((n) => `${n}:${port}`));
    cachedPort = port;
  }
  return cachedHosts;
}

/**
 * Null when the request may proceed; else why it is refused. A loopback-bound server accepts only
 * loopback Host names; any server refuses a browser Origin other than its own.
 */
export function rebindingRefusal(bind: string, port: number, host: string, origin: string): string | null {
  const h = host.toLowerCase();
  if (isLoopbackAddress(bind)) {
    const allowed = loopbackHosts(port);
    if (!allowed.has(h)) return `Host '${host}' is not a loopback name of this server`;
    if (origin !== '' && !allowedOrigin(origin, allowed)) return `Origin '${origin}' is not this server's origin`;
    return null;
  }
  if (origin !== '' && origin.toLowerCase() !== 'http://' + h) return `Origin '${origin}' is not this server's origin`;
  return null;
}

function allowedOrigin(origin: string, hosts: ReadonlySet<string>): boolean {
  const o = origin.toLowerCase();
  return o.startsWith('http://') && hosts.has(o.slice('http://'.length));
}
