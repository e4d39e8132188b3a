// The scanning thread of a large Turtle / N-Triples document (see turtle-scan-thread.ts): it runs the
// scanner over the whole text and streams the triple table to the asking thread in chunks. Literals are
// recorded, not interned: model nodes belong to the thread that uses them, which interns them while this
// thread reads on.

import type { MessagePort } from 'node:worker_threads';
import { TripleTable, type TermValue } from '../rdf/rdf-graph-reader.js';
import { VOCABULARY } from '../rdf/vocab-reader.js';
import { scanTurtle } from './turtle-scanner.js';
import type { ScanChunk, ScannerApi } from './turtle-scan-thread.js';
import { exposeToParent } from '../../util/thread-link.js';

/** Triples per chunk: small enough that the asking thread starts early, large enough that messages stay few. */
const CHUNK_TRIPLES = 1 << 15;

class StreamedTable extends TripleTable {
  private sentTerms = VOCABULARY.length;
  private sentTriples = 0;
  private literalAt: number[] = [];
  private lex: string[] = [];
  private datatypes: number[] = [];
  private langs: number[] = [];
  /** Datatype IRIs and language tags by index; `words.length - newWords` of them were sent before. */
  private readonly wordIndex = new Map<string, number>();
  private newWords: string[] = [];

  /** Chunks posted so far. */
  chunks = 0;

  constructor(
    bnodePrefix: string,
    private readonly port: MessagePort,
  ) {
    super(bnodePrefix);
  }

  protected override literalValue(lex: string, datatypeIri: string, lang: string): TermValue {
    this.literalAt.push(this.terms.length);
    this.lex.push(lex);
    this.datatypes.push(this.word(datatypeIri));
    this.langs.push(this.word(lang));
    // Only the position matters here: the asking thread puts the interned literal there.
    return '';
  }

  override add(s: number, p: number, o: number): void {
    super.add(s, p, o);
    if (this.size - this.sentTriples >= CHUNK_TRIPLES) this.flush();
  }

  private word(w: string): number {
    let i = this.wordIndex.get(w);
    if (i === undefined) {
      this.wordIndex.set(w, (i = this.wordIndex.size));
      this.newWords.push(w);
    }
    return i;
  }

  /** Sends the terms and triples made since the last chunk. */
  flush(): void {
    const names: string[] = [];
    let li = 0;
    for (let t = this.sentTerms; t < this.terms.length; t++) {
      if (li < this.literalAt.length && this.literalAt[li] === t) li++;
      else names.push(this.terms[t] as string);
    }
    const s = this.s.slice(this.sentTriples, this.size),
      p = this.p.slice(this.sentTriples, this.size),
      o = this.o.slice(this.sentTriples, this.size);
    const literalAt = new Int32Array(this.literalAt),
      datatypes = new Int32Array(this.datatypes),
      langs = new Int32Array(this.langs);
    const chunk: ScanChunk = {
      firstTerm: this.sentTerms,
      names,
      literalAt,
      lex: this.lex,
      datatypes,
      langs,
      words: this.newWords,
      s,
      p,
      o,
    };
    this.port.postMessage(chunk, [s.buffer, p.buffer, o.buffer, literalAt.buffer, datatypes.buffer, langs.buffer]);
    this.chunks++;
    this.sentTerms = this.terms.length;
    this.sentTriples = this.size;
    this.literalAt = [];
    this.lex = [];
    this.datatypes = [];
    this.langs = [];
    this.newWords = [];
  }
}

const api: ScannerApi = {
  async scan(task, port) {
    try {
      const table = new StreamedTable(task.bnodePrefix, port);
      const prefixes = new Map<string, string>();
      if (!scanTurtle(task.text, task.syntax, task.base, table, prefixes)) return { outcome: 'parser', prefixes: [], chunks: table.chunks };
      table.flush();
      return { outcome: 'scanned', prefixes: [...prefixes], chunks: table.chunks };
    } catch {
      // the asking thread reads the document itself and reports the failure precisely
      return { outcome: 'failed', prefixes: [], chunks: 0 };
    }
  },
};

exposeToParent(api);
