// DNS-rebinding protection, checked on every request before anything else, on every bind: the Host must
// name this server (a loopback name with any port — port forwarding, reverse proxies and tunnels change
// it —, the bind address, the machine's host name or interface addresses, or an `allowed_hosts` entry),
// and a present Origin must be one of this server's own origins (the same names) or an `allowed_origins`
// entry.

import net from 'node:net';
import os from 'node:os';

/** The host name of a Host header or URL host (`name`, `name:port`, `[v6]:port`), lower-case; null when malformed. */
export function hostnameOf(host: string): string | null {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0 || (end + 1 < h.length && !/^:\d{1,5}$/.test(h.slice(end + 1)))) return null;
    const v6 = h.slice(1, end);
    return net.isIPv6(v6) ? v6 : null;
  }
  const m = /^([a-z0-9.-]+)(?::\d{1,5})?$/.exec(h);
  return m?.[1]?.replace(/\.$/, '') ?? null;
}

/** localhost, 127.0.0.0/8, ::1 (also as an IPv4-mapped address). */
export function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost') || name === '::1') return true;
  const v4 = name.startsWith('::ffff:') ? name.slice(7) : name;
  return net.isIPv4(v4) && v4.startsWith('127.');
}

/** Every address of this machine's interfaces, lower-case (IPv6 without a zone). */
export function localAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) {
    for (const i of list ?? []) out.add(i.address.toLowerCase().replace(/%.*$/, ''));
  }
  return out;
}

const MEMO_LIMIT = 64;

export class HostGuard {
  private readonly names: Set<string>;
  private readonly origins: Set<string>;
  /** Host and Origin values already judged (a client sends the same ones each time). */
  private readonly memo = new Map<string, boolean>();

  constructor(bind: string, allowedHosts: readonly string[], allowedOrigins: readonly string[]) {
    this.names = localAddresses();
    const hostname = os.hostname().toLowerCase();
    this.names.add(hostname);
    const [shortName = hostname] = hostname.split('.');
    this.names.add(shortName);
    const bound = hostnameOf(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind);
    if (bound !== null && bound !== '0.0.0.0' && bound !== '::') this.names.add(bound);
    for (const h of allowedHosts) {
      const name = hostnameOf(h);
      if (name !== null) this.names.add(name);
    }
    this.origins = new Set(allowedOrigins.map((o) => o.trim().toLowerCase().replace(/\/+$/, '')));
  }

  /** True when `name` (a host name, no port) is a name of this server. */
  private isOwnName(name: string): boolean {
    return isLoopbackName(name) || this.names.has(name);
  }

  private judge(key: string, decide: () => boolean): boolean {
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const verdict = decide();
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(key, verdict);
    return verdict;
  }

  hostAllowed(host: string): boolean {
    return this.judge('h' + host, () => {
      const name = hostnameOf(host);
      return name !== null && this.isOwnName(name);
    });
  }

  originAllowed(origin: string): boolean {
    return this.judge('o' + origin, () => {
      const o = origin.trim().toLowerCase().replace(/\/+$/, '');
      if (this.origins.has(o)) return true;
      let url: URL;
      try {
        url = new URL(o);
      } catch {
        return false;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
      const name = hostnameOf(url.host);
      return name !== null && this.isOwnName(name);
    });
  }

  /** Null when the request may proceed; else why it is refused. */
  refusal(host: string, origin: string): string | null {
    if (!this.hostAllowed(host)) return `Host '${host}' is not a name of this server (see the allowed_hosts setting)`;
    if (origin !== '' && !this.originAllowed(origin))
      return `Origin '${origin}' is not this server's origin (see the allowed_origins setting)`;
    return null;
  }
}
