// Shared pieces of the import-lock tests: ontologies built directly (id, imports, document) and a temporary
// directory of real document files.

import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Ontology } from '../../src/model/ontology.js';
import type { IRI } from '../../src/model/terms.js';

export function ontology(
  iri: string,
  imports: string[] = [],
  documentIri: string | null = null,
  versionIri: string | null = null,
): Ontology {
  const o = new Ontology();
  o.id = { iri, versionIri };
  for (const i of imports) o.imports.add(i);
  o.documentIri = documentIri;
  return o;
}

/** A lookup over `ontologies` by ontology IRI or version IRI, as the workspace resolves imports. */
export function finder(ontologies: Ontology[]): (iri: IRI) => Ontology | undefined {
  return (iri) => ontologies.find((o) => o.id.iri === iri) ?? ontologies.find((o) => o.id.versionIri === iri);
}

export interface TempDir {
  readonly dir: string;
  /** Writes `text` at `rel` (parents created) and returns the absolute path. */
  file(rel: string, text: string): Promise<string>;
  remove(): Promise<void>;
}

async function tempDir(): Promise<TempDir> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'athene-imports-'));
  return {
    dir,
    file: async (rel, text) => {
      const p = path.join(dir, rel);
      await mkdir(path.dirname(p), { recursive: true });
      await writeFile(p, text);
      return p;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Runs `body` with a fresh temporary directory, removed afterwards whether `body` succeeds or not. */
export async function withTempDir<T>(body: (t: TempDir) => Promise<T>): Promise<T> {
  const t = await tempDir();
  try {
    return await body(t);
  } finally {
    await t.remove();
  }
}
