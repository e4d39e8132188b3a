// Where a shapes graph comes from: Turtle text given inline, or a local file whose serialization comes from
// its extension. Callers authorize a caller-selected path before it is read here (policy asset paths are
// confined by the policy); URLs never reach this module.

import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DomainError } from '../util/errors.js';
import type { ShapesDocument, ShapesFormat } from './protocol.js';
import { readRegularFile } from '../util/file-read.js';

/** Bound on one shapes document: a shapes graph is schema, not data; this keeps one request bounded. */
export const MAX_SHAPES_BYTES = 32 * 1024 * 1024;

const BY_EXTENSION: Readonly<Record<string, ShapesFormat>> = {
  '.ttl': 'turtle',
  '.turtle': 'turtle',
  '.nt': 'ntriples',
  '.nq': 'nquads',
  '.trig': 'trig',
  '.jsonld': 'jsonld',
  '.json': 'jsonld',
  '.rdf': 'rdfxml',
  '.owl': 'rdfxml',
  '.xml': 'rdfxml',
};

export const SHAPES_EXTENSIONS: readonly string[] = Object.keys(BY_EXTENSION);

export function shapesFormatOf(file: string): ShapesFormat | null {
  return BY_EXTENSION[path.extname(file).toLowerCase()] ?? null;
}

/** Inline shapes (always Turtle); `origin` names the argument in error messages. */
export function inlineShapes(text: string, origin: string): ShapesDocument {
  if (Buffer.byteLength(text, 'utf8') > MAX_SHAPES_BYTES) {
    throw new DomainError(`${origin} is larger than ${MAX_SHAPES_BYTES} bytes`, 'invalid_argument', { argument: origin });
  }
  return { text, format: 'turtle', origin };
}

/** Reads an (already authorized) shapes file; `argument` names the caller's argument in failures, if any. */
export async function readShapesFile(absolute: string, argument?: string): Promise<ShapesDocument> {
  const format = shapesFormatOf(absolute);
  const context = { path: absolute, ...(argument === undefined ? {} : { argument }) };
  if (format === null) {
    throw new DomainError(
      `${absolute}: unknown shapes file extension (known: ${SHAPES_EXTENSIONS.join(', ')})`,
      'invalid_argument',
      context,
    );
  }
  const info = await stat(absolute).catch(() => null);
  if (info === null || !info.isFile()) throw new DomainError(`${absolute} is not a readable file`, 'not_found', context);
  if (info.size > MAX_SHAPES_BYTES)
    throw new DomainError(`${absolute} is larger than ${MAX_SHAPES_BYTES} bytes`, 'invalid_argument', context);
  const text = await readRegularFile(absolute, 'shapes', 'utf8');
  return { text, format, origin: absolute, base: pathToFileURL(absolute).href };
}
