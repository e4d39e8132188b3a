// A conservative lexical reading of a SPARQL request, made before anything is evaluated: which form it is
// (the first form keyword after the prologue), whether SERVICE appears anywhere outside strings, IRIs and
// comments, and which IRIs it mentions. The engine's own parser (oxigraph) then decides validity; this
// scan only has to be sure an UPDATE or a SERVICE never reaches evaluation, so it errs towards flagging.

export type QueryForm = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE' | 'UPDATE' | 'UNKNOWN';

export interface QueryScan {
  readonly form: QueryForm;
  readonly usesService: boolean;
  /** UPDATE with LOAD: never handed to the engine, even for a syntax check (it would fetch). */
  readonly usesLoad: boolean;
  /** Absolute IRIs written as `<…>` or as prefixed names whose prefix is declared or given (sorted, unique). */
  readonly iris: readonly MentionedIri[];
}

export interface MentionedIri {
  readonly iri: string;
  readonly curie?: string;
}

const READ_FORMS = new Set(['SELECT', 'ASK', 'CONSTRUCT', 'DESCRIBE']);
const UPDATE_KEYWORDS = new Set(['INSERT', 'DELETE', 'LOAD', 'CLEAR', 'CREATE', 'DROP', 'COPY', 'MOVE', 'ADD', 'WITH']);

// One token at a time: comments, long and short strings, IRI references, variables, prefixed names, words.
const TOKEN = new RegExp(
  [
    String.raw`(?<comment>#[^\n\r]*)`,
    String.raw`(?<string>'''[\s\S]*?'''|"""[\s\S]*?"""|'(?:[^'\\\n\r]|\\.)*'|"(?:[^"\\\n\r]|\\.)*")`,
    String.raw`(?<iri><[^<>"{}|^\x60\\\x00-\x20]*>)`,
    String.raw`(?<variable>[?$][\p{L}\p{N}_]+)`,
    String.raw`(?<pname>(?:[\p{L}][\p{L}\p{N}_.-]*)?:(?:[\p{L}\p{N}_:%\\-](?:[\p{L}\p{N}_.:%\\-]*[\p{L}\p{N}_:%\\-])?)?)`,
    String.raw`(?<word>[\p{L}_][\p{L}\p{N}_-]*)`,
  ].join('|'),
  'gu',
);

/** The prefixes a caller's query may use without declaring them: `name` without the colon → namespace. */
export type PrefixTable = ReadonlyMap<string, string>;

export function scanQuery(text: string, given: PrefixTable): QueryScan {
  const declared = new Map(given);
  const iris = new Map<string, MentionedIri>();
  let form: QueryForm | null = null;
  let usesService = false;
  let usesLoad = false;
  let pendingPrefix: string | null = null;
  let expectPrefixName = false;
  for (const m of text.matchAll(TOKEN)) {
    const g = m.groups as Record<string, string | undefined>;
    if (g.comment !== undefined || g.string !== undefined || g.variable !== undefined) continue;
    if (g.iri !== undefined) {
      const iri = g.iri.slice(1, -1);
      if (pendingPrefix !== null) {
        declared.set(pendingPrefix, iri);
        pendingPrefix = null;
      } else if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(iri)) iris.set(iri, iris.get(iri) ?? { iri });
      continue;
    }
    if (g.pname !== undefined) {
      const colon = g.pname.indexOf(':');
      if (expectPrefixName) {
        pendingPrefix = g.pname.slice(0, colon);
        expectPrefixName = false;
        continue;
      }
      const ns = declared.get(g.pname.slice(0, colon));
      if (ns !== undefined) {
        const iri = ns + g.pname.slice(colon + 1).replace(/\\(.)/g, '$1');
        if (!iris.has(iri) || iris.get(iri)?.curie === undefined) iris.set(iri, { curie: g.pname, iri });
      }
      continue;
    }
    const word = (g.word ?? '').toUpperCase();
    if (word === 'PREFIX') expectPrefixName = true;
    else if (word === 'SERVICE') usesService = true;
    else if (word === 'LOAD') usesLoad = true;
    if (form === null) {
      if (READ_FORMS.has(word)) form = word as QueryForm;
      else if (UPDATE_KEYWORDS.has(word)) form = 'UPDATE';
    } else if (form !== 'UPDATE' && UPDATE_KEYWORDS.has(word) && word !== 'WITH' && word !== 'ADD' && word !== 'CREATE') {
      // INSERT/DELETE/LOAD/CLEAR/DROP/COPY/MOVE after a read form: a request mixing forms is never evaluated.
      form = 'UPDATE';
    }
  }
  const sorted = [...iris.values()].sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
  return { form: form ?? 'UNKNOWN', usesService, usesLoad: form === 'UPDATE' && usesLoad, iris: sorted };
}

export function isReadForm(form: QueryForm): form is 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE' {
  return READ_FORMS.has(form);
}
