// The small interface the front door and the broker backend are written against, so routing,
// authentication, forwarding and streaming exist once; uWebSockets.js and node:http are thin transports
// behind it (transport-uws.ts, transport-node.ts). The reply's shape follows uWS's response.

import { createRequire } from 'node:module';
import type * as UWS from 'uWebSockets.js';

export interface Incoming {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  /** Lower-case names; a repeated header keeps its last value. */
  readonly headers: Map<string, string>;
  /** Header lines received and their total size (names and values), for the 431 limits. */
  readonly headerCount: number;
  readonly headerBytes: number;
}

export interface Reply {
  /** Runs `cb` with writes batched into one send. */
  cork(cb: () => void): void;
  /** A status line, e.g. `200 OK`; first, before any header. */
  writeStatus(status: string): Reply;
  writeHeader(name: string, value: string): Reply;
  /** Sends the head (once) and a body chunk; the body is then streamed. */
  write(chunk: string | Uint8Array): void;
  /** Ends the response; `closeConnection` closes the connection after it. */
  end(body?: string | Uint8Array, closeConnection?: boolean): void;
  /** The client went away before the end; a later call replaces the handler. */
  onAborted(cb: () => void): void;
  /** The request body, chunk by chunk; a chunk may be kept. Call once. */
  onData(cb: (chunk: Buffer, isLast: boolean) => void): void;
  /** The peer's address as text. */
  remoteAddress(): string;
}

export type Handler = (req: Incoming, res: Reply) => void;

export type TransportKind = 'uws' | 'node';

/**
 * Header limits the front door answers with 431 (RFC 6585) on either transport. The count stays below what
 * uWS's own parser takes (transport-uws.ts says what it drops unanswered).
 */
export const MAX_HEADER_COUNT = 40;
export const MAX_HEADER_BYTES = 16 * 1024;

export interface Transport {
  readonly kind: TransportKind;
  /** Binds (exclusively: a taken port is not shared); resolves the bound port, or null when the port is taken. */
  listen(host: string, port: number): Promise<number | null>;
  /** Stops accepting connections; open ones stay. */
  stopListening(): void;
  /** Closes every connection (idle keep-alive ones would keep the process alive). */
  closeAll(): void;
}

export type UwsModule = typeof UWS;

/** uWS's native binary for this Node, or why it cannot load (never the package's incomplete JavaScript fallback). */
function loadUws(): UwsModule | string {
  const binary = `uWebSockets.js/binaries/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  try {
    return createRequire(import.meta.url)(binary) as UwsModule;
  } catch (err) {
    const which = `Node ${process.versions.node} (${process.platform}-${process.arch}, ABI ${process.versions.modules})`;
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return `uWebSockets.js has no binary for ${which}`;
    return `uWebSockets.js cannot load on ${which}: ${(err as Error).message.split('\n')[0]}`;
  }
}

let uws: UwsModule | string | undefined;

/** The uWS module, loaded once; a string says why it cannot be used. */
export function uwsModule(): UwsModule | string {
  uws ??= loadUws();
  return uws;
}

export interface TransportChoice {
  readonly kind: TransportKind;
  /** Why node:http serves although uWS was preferred; null when the choice was the setting's. */
  readonly fallback: string | null;
}

/** `auto`: uWS when its binary loads, else node:http; `uws` fails when it cannot load. */
export function chooseTransport(setting: 'auto' | 'uws' | 'node'): TransportChoice {
  if (setting === 'node') return { kind: 'node', fallback: null };
  const loaded = uwsModule();
  if (typeof loaded !== 'string') return { kind: 'uws', fallback: null };
  if (setting === 'uws') throw new Error(`--http-server uws: ${loaded}`);
  return { kind: 'node', fallback: loaded };
}
