// Making the chosen transport (transport.ts says how the choice is made).

import { NodeTransport } from './transport-node.js';
import { UwsTransport } from './transport-uws.js';
import { uwsModule, type Handler, type Transport, type TransportKind } from './transport.js';

export function createTransport(kind: TransportKind, handler: Handler): Transport {
  if (kind === 'node') return new NodeTransport(handler);
  const uws = uwsModule();
  if (typeof uws === 'string') throw new Error(uws);
  return new UwsTransport(uws, handler);
}
