// The two file stores beside an ontology's document (TOOLS.md add_competency_question): `robot-sparql-dir`
// (`cqs/<id>.rq`) and `sidecar-manifest` (`<basename>-cqs.json`, `{"competency_questions": [entries]}` or a
// bare array of entries). Loading skips what is malformed, naming the source and the reason; writing keeps
// every other entry byte-for-byte as it was (malformed ones included) and replaces files atomically.

import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';
import { CqFormatError, questionFrom, questionJson, type CompetencyQuestion } from './question.js';
import { questionFromRq, questionToRq } from './rq-file.js';
import { readRegularFile } from '../util/file-read.js';

export interface FileQuestion {
  readonly question: CompetencyQuestion;
  /** The file holding it. */
  readonly file: string;
}

export interface Skipped {
  readonly source: string;
  readonly reason: string;
}

export interface FileLoad {
  /** The store exists (a directory with at least one query file, or a manifest file). */
  readonly found: boolean;
  readonly questions: readonly FileQuestion[];
  readonly skipped: readonly Skipped[];
}

const EMPTY: FileLoad = { found: false, questions: [], skipped: [] };

/** Largest store file read (a manifest or one query); bigger ones are skipped, never read whole. */
export const MAX_STORE_FILE_BYTES = 16 * 1024 * 1024;

export function robotDirOf(document: string): string {
  return path.join(path.dirname(document), 'cqs');
}

export function sidecarOf(document: string): string {
  const base = path.basename(document).replace(/\.[^.]*$/, '');
  return path.join(path.dirname(document), `${base}-cqs.json`);
}

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

async function readBounded(file: string): Promise<string> {
  const s = await stat(file);
  if (!s.isFile()) throw new CqFormatError('not a regular file');
  if (s.size > MAX_STORE_FILE_BYTES) throw new CqFormatError(`larger than ${MAX_STORE_FILE_BYTES} bytes`);
  return readRegularFile(file, 'query', 'utf8');
}

const isQueryFile = (name: string): boolean => /\.(rq|sparql)$/i.test(name) && !name.startsWith('.');

/** Every `.rq`/`.sparql` file of `dir`, by file name; files holding an id seen earlier are skipped. */
export async function loadRqDirectory(dir: string): Promise<FileLoad> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter(isQueryFile).sort();
  } catch (e) {
    if (errno(e) === 'ENOENT' || errno(e) === 'ENOTDIR') return EMPTY;
    return {
      found: true,
      questions: [],
      skipped: [{ source: dir, reason: `cannot read the directory: ${errno(e) ?? (e as Error).message}` }],
    };
  }
  const questions: FileQuestion[] = [];
  const skipped: Skipped[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const file = path.join(dir, name);
    const one = await loadRqFile(file);
    skipped.push(...one.skipped);
    for (const q of one.questions) {
      const earlier = seen.get(q.question.id);
      if (earlier !== undefined) skipped.push({ source: file, reason: `duplicate id '${q.question.id}' (also in ${earlier})` });
      else {
        seen.set(q.question.id, file);
        questions.push(q);
      }
    }
  }
  return { found: names.length > 0, questions, skipped };
}

/** One query file. */
export async function loadRqFile(file: string): Promise<FileLoad> {
  try {
    return { found: true, questions: [{ question: questionFromRq(await readBounded(file), file), file }], skipped: [] };
  } catch (e) {
    if (errno(e) === 'ENOENT') return EMPTY;
    return { found: true, questions: [], skipped: [{ source: file, reason: reasonOf(e) }] };
  }
}

function reasonOf(e: unknown): string {
  if (e instanceof CqFormatError) return e.message;
  return `cannot read the file: ${errno(e) ?? (e as Error).message}`;
}

/** A manifest's raw entries and how they were wrapped, for rewriting it without touching other entries. */
interface Manifest {
  readonly wrapped: boolean;
  readonly entries: unknown[];
}

function manifestOf(text: string): Manifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new CqFormatError(`not JSON: ${(e as Error).message}`);
  }
  if (Array.isArray(parsed)) return { wrapped: false, entries: parsed };
  const list = (parsed as { competency_questions?: unknown } | null)?.competency_questions;
  if (typeof parsed === 'object' && parsed !== null && Array.isArray(list)) return { wrapped: true, entries: list };
  throw new CqFormatError('a manifest is {"competency_questions": [entries]} or an array of entries');
}

/** A sidecar manifest; malformed entries and later duplicates are skipped (`<file>#<index>`). */
export async function loadManifest(file: string): Promise<FileLoad> {
  let manifest: Manifest;
  try {
    manifest = manifestOf(await readBounded(file));
  } catch (e) {
    if (errno(e) === 'ENOENT') return EMPTY;
    return { found: true, questions: [], skipped: [{ source: file, reason: reasonOf(e) }] };
  }
  const questions: FileQuestion[] = [];
  const skipped: Skipped[] = [];
  const seen = new Set<string>();
  manifest.entries.forEach((entry, i) => {
    try {
      const q = questionFrom(entry);
      if (seen.has(q.id)) throw new CqFormatError(`duplicate id '${q.id}' (an earlier entry holds it)`);
      seen.add(q.id);
      questions.push({ question: q, file });
    } catch (e) {
      if (!(e instanceof CqFormatError)) throw e;
      skipped.push({ source: `${file}#${i}`, reason: e.message });
    }
  });
  return { found: true, questions, skipped };
}

/** Reads a manifest for rewriting: absent is empty; an unreadable or malformed one is refused (nothing may be lost). */
async function manifestForWrite(file: string): Promise<Manifest> {
  try {
    return manifestOf(await readBounded(file));
  } catch (e) {
    if (errno(e) === 'ENOENT') return { wrapped: true, entries: [] };
    throw new CqFormatError(`the manifest ${file} cannot be rewritten without losing content: ${reasonOf(e)}`);
  }
}

const entryId = (entry: unknown): unknown => (typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined);

async function writeManifest(file: string, m: Manifest): Promise<void> {
  const body = m.wrapped ? { competency_questions: m.entries } : m.entries;
  await writeFileAtomic(file, JSON.stringify(body, null, 2) + '\n');
}

/** Stores `q` in the manifest: the entry with its id is replaced in place, else it is appended. */
export async function addToManifest(file: string, q: CompetencyQuestion): Promise<void> {
  const m = await manifestForWrite(file);
  const entry = questionJson(q);
  const at = m.entries.findIndex((e) => entryId(e) === q.id);
  if (at >= 0) m.entries[at] = entry;
  else m.entries.push(entry);
  await writeManifest(file, m);
}

/** Removes every entry with id `id`; false when there was none. */
export async function removeFromManifest(file: string, id: string): Promise<boolean> {
  const m = await manifestForWrite(file);
  const kept = m.entries.filter((e) => entryId(e) !== id);
  if (kept.length === m.entries.length) return false;
  await writeManifest(file, { wrapped: m.wrapped, entries: kept });
  return true;
}

/**
 * Where `q` goes in a robot directory: the file already holding its id (rewritten in place), else
 * `<id>.rq`, unless that file holds another question.
 */
export async function rqTarget(dir: string, q: CompetencyQuestion): Promise<string> {
  const load = await loadRqDirectory(dir);
  const holder = load.questions.find((h) => h.question.id === q.id);
  if (holder !== undefined) return holder.file;
  const file = path.join(dir, `${q.id}.rq`);
  const other = load.questions.find((h) => h.file === file);
  if (other !== undefined) throw new CqFormatError(`${file} holds the question '${other.question.id}' (its # id: line); choose another id`);
  if (load.skipped.some((s) => s.source === file))
    throw new CqFormatError(`${file} exists but is not a valid question file; fix or remove it first`);
  return file;
}

export async function writeRq(file: string, q: CompetencyQuestion): Promise<void> {
  await writeFileAtomic(file, questionToRq(q));
}

/** Removes the file holding `id` in the directory; the file removed, or null. */
export async function removeRq(dir: string, id: string): Promise<string | null> {
  const holder = (await loadRqDirectory(dir)).questions.find((h) => h.question.id === id);
  if (holder === undefined) return null;
  await unlink(holder.file);
  return holder.file;
}
