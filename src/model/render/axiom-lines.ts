// The canonical one-axiom-per-line rendering used by `athene axioms` and the corpus conformance tests:
// functional-syntax structure, full IRIs, set-like operands sorted by their text, anonymous individuals
// renamed _:b1, _:b2, ... by a content hash so the output does not depend on blank-node labels.

import { createHash } from 'node:crypto';
import type { Annotation, AnonymousIndividual, Axiom, Literal, Node } from '../terms.js';
import { anonymousIndividuals } from '../walk.js';
import { FunctionalRenderer } from '../formats/functional/renderer.js';

/** Names anonymous individuals while rendering. */
export type AnonNamer = (a: AnonymousIndividual) => string;

/**
 * Escapes a lexical form for a double-quoted string of the line format (the same escapes Turtle and
 * N-Triples use): \\ and \" , \n \r \t, and \u with four hex digits for the other C0 controls and DEL.
 */
export function escapeLexical(s: string): string {
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x7f) break;
    i++;
  }
  if (i === s.length) return s;
  let out = s.slice(0, i);
  for (; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 0x5c) out += '\\\\';
    else if (ch === 0x22) out += '\\"';
    else if (ch === 0x0a) out += '\\n';
    else if (ch === 0x0d) out += '\\r';
    else if (ch === 0x09) out += '\\t';
    else if (ch < 0x20 || ch === 0x7f) out += '\\u' + ch.toString(16).toUpperCase().padStart(4, '0');
    else out += s[i];
  }
  return out;
}

export function renderLiteral(l: Literal): string {
  return '"' + escapeLexical(l.lex) + '"' + (l.lang ? '@' + l.lang : '^^<' + l.datatype + '>');
}

/**
 * Functional syntax in the canonical line form: full IRIs (no prefix map) and every literal written with
 * its datatype or language tag, control characters escaped.
 */
export class LineRenderer extends FunctionalRenderer {
  constructor(anon: AnonNamer) {
    super(new Map(), anon);
  }

  override literal(l: Literal): string {
    return renderLiteral(l);
  }
}

const sha16 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);

/**
 * Step 1 of the corpus README's procedure: for each anonymous individual the nodes mention, the first 16
 * hex digits of SHA-256 over the sorted renderings of the nodes that mention it, itself written `_:SELF`
 * and every other anonymous individual `_:*`. Ontology annotations are rendered with an `Ontology` prefix.
 * The result depends on content only, never on blank-node labels or order.
 */
export function anonymousHashes(nodes: Iterable<Axiom | Annotation>): Map<AnonymousIndividual, string> {
  const mentions = new Map<AnonymousIndividual, (Axiom | Annotation)[]>();
  for (const n of nodes) {
    for (const x of anonymousIndividuals(n as Node)) {
      let list = mentions.get(x);
      if (list === undefined) mentions.set(x, (list = []));
      list.push(n);
    }
  }
  const hash = new Map<AnonymousIndividual, string>();
  for (const [x, list] of mentions) {
    const r = new LineRenderer((y) => (y === x ? '_:SELF' : '_:*'));
    hash.set(
      x,
      sha16(
        list
          .map((n) => (n.kind === 'Annotation' ? 'Ontology' + r.annotation(n) : r.axiom(n)))
          .sort()
          .join('\n'),
      ),
    );
  }
  return hash;
}

/**
 * Every axiom as one canonical line, sorted (JavaScript default order = Java String.compareTo).
 * Anonymous individuals are numbered by the content-hash procedure of the corpus README.
 */
export function axiomLines(axioms: Iterable<Axiom>): string[] {
  const plain: string[] = [];
  const withAnon: { axiom: Axiom; anons: Set<AnonymousIndividual> }[] = [];
  const fixed = new LineRenderer(() => '_:?');
  for (const a of axioms) {
    const anons = anonymousIndividuals(a as Node);
    if (anons.size === 0) {
      plain.push(fixed.axiom(a));
      continue;
    }
    withAnon.push({ axiom: a, anons });
  }
  if (withAnon.length === 0) return plain.sort();

  const hash = anonymousHashes(withAnon.map((w) => w.axiom));
  // Step 2: number individuals in order of first appearance in the sorted hash-labelled lines.
  const hashed = new LineRenderer((y) => '_:h' + hash.get(y));
  const labelled = withAnon
    .map((w) => ({ line: hashed.axiom(w.axiom), anons: w.anons }))
    .sort((a, b) => (a.line < b.line ? -1 : a.line > b.line ? 1 : 0));
  const number = new Map<AnonymousIndividual, string>();
  let next = 1;
  for (const { line, anons } of labelled) {
    const order = [...anons]
      .filter((x) => !number.has(x))
      .map((x) => ({ x, pos: line.indexOf('_:h' + hash.get(x)), h: hash.get(x)! }))
      .sort((a, b) => a.pos - b.pos || (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
    for (const { x } of order) number.set(x, '_:b' + next++);
  }
  // Step 3: final rendering.
  const final = new LineRenderer((y) => number.get(y)!);
  for (const w of withAnon) plain.push(final.axiom(w.axiom));
  return plain.sort();
}
