// The address of the peer a request came from, as the socket reports it, and whether it is this machine.
// OAuth consent is granted only to local peers, whatever the bind address: a remote browser cannot
// approve a client (it uses the static bearer token instead).

import net from 'node:net';
import type { Reply } from './transport.js';

const LOCAL = new net.BlockList();
LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL.addAddress('::1', 'ipv6');

/** The peer's address as text; read it before the response is ended. */
export function peerAddress(res: Reply): string {
  return res.remoteAddress();
}

/** True for a loopback peer: 127.0.0.0/8, ::1, or an IPv4-mapped loopback address (::ffff:127.x.y.z). */
export function isLocalPeer(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return LOCAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
