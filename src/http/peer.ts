// The address of the peer a request came from, as the socket reports it, and whether it is this machine.
// OAuth consent is granted only to local peers, whatever the bind address: a remote browser cannot
// approve a client (it uses the static bearer token instead). Any address of this machine's interfaces
// counts as local, so a server bound to a non-loopback address can still be approved from the machine.

import net from 'node:net';
import os from 'node:os';
import type { Reply } from './transport.js';

const LOCAL = new net.BlockList();
LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL.addAddress('::1', 'ipv6');
for (const list of Object.values(os.networkInterfaces())) {
  for (const i of list ?? []) {
    const address = i.address.replace(/%.*$/, '');
    if (net.isIPv4(address)) LOCAL.addAddress(address, 'ipv4');
    else if (net.isIPv6(address)) LOCAL.addAddress(address, 'ipv6');
  }
}

/** The peer's address as text; read it before the response is ended. */
export function peerAddress(res: Reply): string {
  return res.remoteAddress();
}

/** True for a peer on this machine: 127.0.0.0/8, ::1, an interface address, or an IPv4-mapped form of one. */
export function isLocalPeer(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return LOCAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
