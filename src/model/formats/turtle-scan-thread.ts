// Reading a large Turtle / N-Triples document on two threads.
//
// The model's nodes are interned per thread, so the RDF → OWL mapping has to run where the ontology will
// live; the scan of the text does not. A scanning thread reads the document and streams its triple table
// in chunks (names as strings, literals as their parts, triples as term ids, which stay valid here); this
// thread interns the literals of each chunk as it arrives and builds the axioms of its simple triples
// (early-mapping.ts), while the scanner reads on. What is left after the last chunk is the rest of the mapping.
//
// The scanning thread is kept for a while between documents and serves one document at a time, through
// comlink: `scan` gets the text and a port of its own for the document's chunks, and answers with the end.

import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { ThreadLink, transfer } from '../../util/thread-link.js';
import { TripleTable, readLiteral } from '../rdf/rdf-graph-reader.js';
import { EarlyMapper, type EarlyAxioms } from '../rdf/early-mapping.js';
import type { ScannedSyntax } from './turtle-scanner.js';

/** One document for the scanning thread. */
export interface ScanTask {
  readonly text: string;
  readonly syntax: ScannedSyntax;
  readonly base: string | undefined;
  readonly bnodePrefix: string;
}

/**
 * Terms firstTerm… in id order (each either the next of `names` or, at the ids in `literalAt`, the next
 * literal of `lex` with its datatype and language from the words sent so far), and the triples as three columns.
 */
export interface ScanChunk {
  readonly firstTerm: number;
  readonly names: readonly string[];
  readonly literalAt: Int32Array;
  readonly lex: readonly string[];
  readonly datatypes: Int32Array;
  readonly langs: Int32Array;
  /** Datatype IRIs and language tags first used in this chunk, appended to the words of earlier chunks. */
  readonly words: readonly string[];
  readonly s: Int32Array;
  readonly p: Int32Array;
  readonly o: Int32Array;
}

/** The end of a document: scanned, left to n3's Parser (the scanner does not read it), or failed. */
export interface ScanEnd {
  readonly outcome: 'scanned' | 'parser' | 'failed';
  readonly prefixes: readonly (readonly [string, string])[];
  /** How many chunks the document's port carried: the end and the chunks travel on different ports. */
  readonly chunks: number;
}

/** What a two-thread read gives: the document, `parser` (read it with n3's Parser), or null (read it on this thread). */
export type ScanOutcome = ScannedDocument | 'parser' | null;

/** A document read on two threads: its triple table, prefixes, and the axioms built while it was read. */
export interface ScannedDocument {
  readonly table: TripleTable;
  readonly prefixes: Map<string, string>;
  readonly early: EarlyAxioms;
}

/** A scanning thread with nothing to do exits after this long. */
const IDLE_MS = 30_000;

const WORKER_URL = new URL('./turtle-scan-worker.js', import.meta.url);

/** The table being rebuilt on this thread from one document's chunks, with the axioms of its simple triples. */
class Mirror {
  readonly table: TripleTable;
  readonly early: EarlyMapper;
  private words: string[] = [];

  constructor() {
    this.table = new TripleTable();
    this.early = new EarlyMapper(this.table.terms);
  }

  take(chunk: ScanChunk): void {
    const terms = this.table.terms;
    if (chunk.firstTerm !== terms.length) throw new Error(`scan chunk out of order: term ${chunk.firstTerm}, expected ${terms.length}`);
    const words = this.words;
    for (const w of chunk.words) words.push(w);
    const { names, literalAt, lex, datatypes, langs } = chunk;
    const count = names.length + lex.length;
    let ni = 0,
      li = 0;
    // The chunk holds count terms: names in order, and literals at literalAt with lex, datatypes and langs
    // alongside; datatypes and langs index the words sent so far. Each read below is one of those.
    for (let t = chunk.firstTerm, end = t + count; t < end; t++) {
      if (li < literalAt.length && literalAt[li] === t) {
        terms.push(readLiteral(lex[li]!, words[datatypes[li]!]!, words[langs[li]!]!));
        li++;
      } else {
        terms.push(names[ni++]!);
      }
    }
    this.table.addColumns(chunk.s, chunk.p, chunk.o);
    this.early.take(chunk.s, chunk.p, chunk.o);
  }
}

/** What the scanning thread exposes. */
export interface ScannerApi {
  /** Scans `task` into chunks posted on `chunks`. */
  scan(task: ScanTask, chunks: MessagePort): Promise<ScanEnd>;
}

let scanner: { readonly worker: Worker; readonly link: ThreadLink<ScannerApi> } | null = null;
let idleTimer: NodeJS.Timeout | null = null;
/** Documents wait for the one before them: the scanning thread reads one at a time. */
let queue: Promise<void> = Promise.resolve();

/** With no document in hand the thread does not keep the process alive, and ends after IDLE_MS. */
function idle(): void {
  scanner?.worker.unref();
  idleTimer = setTimeout(() => {
    const w = scanner?.worker;
    scanner = null;
    void w?.terminate();
  }, IDLE_MS);
  idleTimer.unref();
}

function scanningThread(): ThreadLink<ScannerApi> {
  if (idleTimer !== null) clearTimeout(idleTimer);
  idleTimer = null;
  if (scanner === null) {
    const worker = new Worker(WORKER_URL);
    const s = { worker, link: new ThreadLink<ScannerApi>(worker) };
    const gone = (): void => {
      if (scanner === s) scanner = null;
      s.link.fail(new Error('The scanning thread stopped'));
    };
    worker.on('error', gone);
    worker.on('exit', gone);
    scanner = s;
  }
  scanner.worker.ref();
  return scanner.link;
}

/** Reads one document on the scanning thread: chunks arrive on a port of their own while the scan goes on. */
async function scanOne(text: string, syntax: ScannedSyntax, base: string | undefined): Promise<ScanOutcome> {
  const mirror = new Mirror();
  const { port1, port2 } = new MessageChannel();
  let failure: Error | null = null;
  let received = 0;
  let expected = Infinity;
  let allReceived = (): void => undefined;
  const complete = new Promise<void>((resolve) => (allReceived = resolve));
  port1.on('message', (chunk: ScanChunk) => {
    if (failure === null) {
      try {
        mirror.take(chunk);
      } catch (err) {
        failure = err as Error;
      }
    }
    if (++received === expected) allReceived();
  });
  try {
    const task: ScanTask = { text, syntax, base, bnodePrefix: mirror.table.bnodePrefix };
    const end = await scanningThread().call('scan', task, transfer(port2, [port2]));
    if (end.outcome === 'parser') return 'parser';
    if (end.outcome !== 'scanned') return null;
    expected = end.chunks;
    if (received === expected) allReceived();
    await complete;
    return failure === null ? { table: mirror.table, prefixes: new Map(end.prefixes), early: mirror.early.result() } : null;
  } catch {
    return null;
  } finally {
    port1.close();
    idle();
  }
}

/**
 * Scans `text` on the scanning thread into a triple table of this thread (blank nodes named for a new
 * document here). `parser` when the scanner leaves the document to n3's Parser; null when the thread failed:
 * the caller then reads the document on its own thread, which gives the precise error if there is one.
 */
export function scanTurtleOnThread(text: string, syntax: ScannedSyntax, base: string | undefined): Promise<ScanOutcome> {
  const run = queue.then(() => scanOne(text, syntax, base));
  // The queue waits for this document without holding on to its table once it is read.
  queue = run.then(() => undefined);
  return run;
}
