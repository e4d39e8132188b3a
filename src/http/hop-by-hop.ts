// Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection and are never forwarded — the fixed
// ones, any `Proxy-*`, and whatever a message's Connection header names.

const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
]);

/** The header names (lower-case) not to forward for a message with this Connection header value. */
export function connectionNamed(connection: string | undefined): ReadonlySet<string> | null {
  if (connection === undefined || connection === '') return null;
  return new Set(
    connection
      .toLowerCase()
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
}

export function isHopByHop(name: string, named: ReadonlySet<string> | null = null): boolean {
  return HOP_BY_HOP.has(name) || name.startsWith('proxy-') || (named !== null && named.has(name));
}
