// Loading ontology documents from files and saving them back atomically.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FormatId, Ontology } from './ontology.js';
import { readDocument, writeDocument } from './formats/registry.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { readRegularFile } from '../util/file-read.js';

export interface LoadFileOptions {
  base?: string | undefined;
  format?: FormatId | undefined;
}

/** Reads and parses a file; the ontology remembers its path and format (so a save writes the same format). */
export async function loadOntologyFile(file: string, options: LoadFileOptions = {}): Promise<Ontology> {
  const abs = path.resolve(file);
  const text = await readRegularFile(abs, 'document', 'utf8');
  const { ontology } = await readDocument(text, {
    base: options.base ?? pathToFileURL(abs).href,
    format: options.format,
    fileName: abs,
  });
  ontology.documentIri = abs;
  return ontology;
}

/** Serializes and writes atomically; the previous document survives any failure. */
export async function saveOntologyFile(ontology: Ontology, file: string, format: FormatId = ontology.format): Promise<void> {
  const text = writeDocument(ontology, format);
  await writeFileAtomic(path.resolve(file), text);
}
