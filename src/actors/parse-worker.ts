// The parse pool's worker: reads and parses one document and sends back its transfer encoding (the parsed
// nodes are interned on this thread and cannot cross). Failures come back as plain data, because a thrown
// error loses its class and fields (ParseError's format, line, column) on the way.

import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { FormatId } from '../model/ontology.js';
import type { ImportedKinds } from '../model/rdf/graph-typing.js';
import { readDocument } from '../model/formats/registry.js';
import { ParseError } from '../model/formats/errors.js';
import { encodeOntology, transferables, type EncodedOntology } from '../model/transfer.js';
import { configureFileReads, readRegularFile, type FileReadConfig } from '../util/file-read.js';

/** One parse: either the document text or a file to read here. */
export interface ParseTask {
  readonly text?: string;
  readonly file?: string;
  readonly base?: string | undefined;
  readonly format?: FormatId | undefined;
  readonly fileName?: string | undefined;
  readonly importedKinds?: ImportedKinds | undefined;
  /** The asking thread's read configuration (protected directories, size limits), for a file read here. */
  readonly reads?: FileReadConfig;
}

export type ParseOutcome =
  | { readonly ok: true; readonly encoded: EncodedOntology }
  | { readonly ok: false; readonly parse: { format: FormatId; detail: string; line?: number | undefined; column?: number | undefined } }
  | { readonly ok: false; readonly error: { name: string; message: string; code?: string; file?: string } };

async function parse(task: ParseTask): Promise<ParseOutcome> {
  try {
    if (task.reads !== undefined) configureFileReads(task.reads);
    const text = task.text ?? (await readRegularFile(task.file!, 'document', 'utf8'));
    const { ontology } = await readDocument(text, {
      base: task.base,
      format: task.format,
      fileName: task.fileName,
      importedKinds: task.importedKinds,
    });
    return { ok: true, encoded: encodeOntology(ontology) };
  } catch (err) {
    if (err instanceof ParseError) {
      return { ok: false, parse: { format: err.format, detail: err.detail, line: err.line, column: err.column } };
    }
    const e = err as Error & { code?: unknown; file?: unknown };
    return {
      ok: false,
      error: {
        name: e.name,
        message: e.message,
        ...(typeof e.code === 'string' ? { code: e.code } : {}),
        ...(typeof e.file === 'string' ? { file: e.file } : {}),
      },
    };
  }
}

/** Piscina's task handler; a successful result moves its typed arrays to the caller instead of copying them. */
export default async function handle(task: ParseTask): Promise<unknown> {
  const outcome = await parse(task);
  if (!outcome.ok) return outcome;
  return move({ [transferableSymbol]: transferables(outcome.encoded), [valueSymbol]: outcome });
}
