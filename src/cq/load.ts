// Loading every competency question of an ontology from the three stores (TOOLS.md
// list_competency_questions): the two file stores beside its local document and its own annotations.
// Malformed entries are skipped with their source and reason, never fatal. The order is total: by id, then
// by store.

import type { Ontology } from '../model/ontology.js';
import { localDocumentOf } from '../policy/paths.js';
import { ANNOTATION_TARGET, loadAnnotations } from './annotation-store.js';
import { loadManifest, loadRqDirectory, loadRqFile, robotDirOf, sidecarOf, type FileLoad, type Skipped } from './file-stores.js';
import { CONVENTIONS, type CompetencyQuestion, type Convention } from './question.js';

export interface StoredQuestion {
  readonly question: CompetencyQuestion;
  readonly convention: Convention;
  /** The file holding it, or ANNOTATION_TARGET. */
  readonly source: string;
}

export interface QuestionCatalog {
  readonly questions: readonly StoredQuestion[];
  readonly conventionsFound: readonly Convention[];
  readonly skipped: readonly Skipped[];
}

const rank = (c: Convention): number => CONVENTIONS.indexOf(c);

/** By id, then store order: the documented total order of every list of questions. */
export function byIdThenStore(a: StoredQuestion, b: StoredQuestion): number {
  if (a.question.id !== b.question.id) return a.question.id < b.question.id ? -1 : 1;
  return rank(a.convention) - rank(b.convention);
}

function fromFiles(load: FileLoad, convention: Convention): StoredQuestion[] {
  return load.questions.map((q) => ({ question: q.question, convention, source: q.file }));
}

/** All three stores of `o` (file stores only when it has a local document). */
export async function loadQuestions(o: Ontology): Promise<QuestionCatalog> {
  const document = localDocumentOf(o);
  const robot = document === null ? null : await loadRqDirectory(robotDirOf(document));
  const sidecar = document === null ? null : await loadManifest(sidecarOf(document));
  const annotations = loadAnnotations(o);
  const questions = [
    ...(robot === null ? [] : fromFiles(robot, 'robot-sparql-dir')),
    ...(sidecar === null ? [] : fromFiles(sidecar, 'sidecar-manifest')),
    ...annotations.questions.map((a) => ({ question: a.question, convention: 'ontology-annotations' as const, source: ANNOTATION_TARGET })),
  ].sort(byIdThenStore);
  const found: Convention[] = [];
  if (robot?.found === true) found.push('robot-sparql-dir');
  if (sidecar?.found === true) found.push('sidecar-manifest');
  if (annotations.questions.length > 0 || annotations.skipped.length > 0) found.push('ontology-annotations');
  return { questions, conventionsFound: found, skipped: [...(robot?.skipped ?? []), ...(sidecar?.skipped ?? []), ...annotations.skipped] };
}

/**
 * Questions from a project policy's `cqs` asset (TOOLS.md 1.9): a directory of query files, one query file
 * (`.rq`/`.sparql`), or a manifest (`.json`); a missing asset is reported as skipped.
 */
export async function loadAsset(file: string, isDirectory: boolean): Promise<QuestionCatalog> {
  if (isDirectory) return catalogOf(await loadRqDirectory(file), 'robot-sparql-dir');
  if (/\.json$/i.test(file)) return catalogOf(await loadManifest(file), 'sidecar-manifest', file);
  return catalogOf(await loadRqFile(file), 'robot-sparql-dir', file);
}

function catalogOf(load: FileLoad, convention: Convention, file?: string): QuestionCatalog {
  const missing = !load.found && file !== undefined ? [{ source: file, reason: 'the file does not exist' }] : [];
  return {
    questions: fromFiles(load, convention),
    conventionsFound: load.found ? [convention] : [],
    skipped: [...load.skipped, ...missing],
  };
}
