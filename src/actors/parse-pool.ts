// Parses documents on a one-thread task pool, so the thread that asked (a window actor) keeps
// answering other requests while a large document is read. Only the compact transfer encoding crosses
// back; the ontology is rebuilt here, where its nodes must be interned.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FormatId, Ontology } from '../model/ontology.js';
import type { ReadDocumentOptions, ReadDocumentResult } from '../model/formats/registry.js';
import { ParseError } from '../model/formats/errors.js';
import { decodeOntologyYielding } from '../model/transfer.js';
import type { ParseOutcome, ParseTask } from './parse-worker.js';
import { FileReadError, fileReadConfig, type FileReadErrorCode } from '../util/file-read.js';
import { TaskPool, valueOf } from '../util/task-pool.js';

/** An idle parse thread exits after this long; the next parse starts a new one. */
const IDLE_TIMEOUT_MS = 30_000;

// no grace: a parse does not watch a stop flag
const pool = new TaskPool<ParseTask, ParseOutcome>({
  worker: new URL('./parse-worker.js', import.meta.url),
  idleMs: IDLE_TIMEOUT_MS,
  graceMs: 0,
});

/** Rebuilds the worker's failure as the error the in-thread parse would have thrown. */
function failure(outcome: Exclude<ParseOutcome, { ok: true }>): Error {
  if ('parse' in outcome) {
    const p = outcome.parse;
    return new ParseError(p.format, p.detail, p.line, p.column);
  }
  if (outcome.error.name === 'FileReadError')
    return new FileReadError(outcome.error.message, outcome.error.code as FileReadErrorCode, outcome.error.file ?? '');
  const err = new Error(outcome.error.message) as Error & { code?: string };
  err.name = outcome.error.name;
  if (outcome.error.code !== undefined) err.code = outcome.error.code;
  return err;
}

/** Options of an off-thread parse: an abort of `signal` stops the parse thread and rejects with the signal's reason. */
export interface OffThreadOptions {
  readonly signal?: AbortSignal;
}

async function run(task: ParseTask, signal: AbortSignal | undefined): Promise<Ontology> {
  const outcome = valueOf(await pool.run(() => task, signal === undefined ? {} : { signal }), signal);
  if (!outcome.ok) throw failure(outcome);
  signal?.throwIfAborted();
  return decodeOntologyYielding(outcome.encoded);
}

/** `readDocument` on the parse thread: same result, same errors. */
export async function readDocumentOffThread(
  text: string,
  options: ReadDocumentOptions & OffThreadOptions = {},
): Promise<ReadDocumentResult> {
  const ontology = await run(
    { text, base: options.base, format: options.format, fileName: options.fileName, importedKinds: options.importedKinds },
    options.signal,
  );
  return { ontology, format: ontology.format };
}

/** `loadOntologyFile` on the parse thread (the file is read there too). */
export async function loadOntologyOffThread(
  file: string,
  options: { base?: string | undefined; format?: FormatId | undefined } & OffThreadOptions = {},
): Promise<Ontology> {
  const abs = path.resolve(file);
  const ontology = await run(
    { file: abs, reads: fileReadConfig(), base: options.base ?? pathToFileURL(abs).href, format: options.format, fileName: abs },
    options.signal,
  );
  ontology.documentIri = abs;
  return ontology;
}

/** Stops the parse thread (shutdown, tests); a later parse starts a new one. */
export function closeParsePool(): Promise<void> {
  return pool.close();
}
