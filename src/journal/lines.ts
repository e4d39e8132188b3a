// A journal line is `<checksum> <json>\n`: the checksum is the first 16 hex digits of the JSON's SHA-256
// (a CRC-32 was measured: about 0.4 µs less per 900-byte line, not worth a second line format that older
// builds would skip).

import { sha256Hex } from '../util/digest.js';

/** The checksum field's length: hex digits of a SHA-256. */
export const SUM = 16;

export function checksum(json: string): string {
  return sha256Hex(json).slice(0, SUM);
}

/** The bytes a line of this JSON takes. */
export function lineLength(json: string): number {
  return SUM + 1 + Buffer.byteLength(json) + 1;
}

/**
 * The lines of a batch, encoded into one buffer kept from batch to batch (a batch is written before the next
 * is encoded): a batch allocates no joined text and no copy of it for the write.
 */
let lineBytes = Buffer.allocUnsafe(64 * 1024);

/** Makes room in `lineBytes` for `bytes` more after `at`, keeping what is before it. */
function room(at: number, bytes: number): void {
  if (at + bytes <= lineBytes.length) return;
  const grown = Buffer.allocUnsafe(Math.max(at + bytes, lineBytes.length * 2));
  lineBytes.copy(grown, 0, 0, at);
  lineBytes = grown;
}

/** The lines of these JSON texts, checksummed: a view of the shared buffer, valid until the next call. */
export function encodeLines(jsons: readonly string[]): Buffer {
  let at = 0;
  for (const json of jsons) {
    // the JSON first, after room for its checksum, which is of its bytes; at most 3 UTF-8 bytes per UTF-16 unit
    const from = at + SUM + 1;
    room(from, json.length * 3 + 1);
    const to = from + lineBytes.write(json, from, 'utf8');
    lineBytes.write(sha256Hex(lineBytes.subarray(from, to)), at, SUM, 'latin1');
    lineBytes[at + SUM] = 0x20;
    lineBytes[to] = 0x0a;
    at = to + 1;
  }
  return lineBytes.subarray(0, at);
}
