// Content fingerprints of an ontology: `sha256:` + hex digests that are identical across processes and
// load orders.
//
// The semantic fingerprint covers the asserted content: ontology id, imports, ontology annotations and the
// axioms. Axioms are folded into an order-independent multiset digest (eight 32-bit lanes, each the sum
// modulo 2^32 of the corresponding word of the SHA-256 of the axiom's canonical line), so an edit updates
// it in O(edit) instead of re-rendering and sorting the whole ontology. Axioms with anonymous individuals
// are rendered together by `axiomLines`, whose blank-node naming depends on the whole set of them.
// The document fingerprint additionally covers the prefix map and the document format.

import type { Hash } from 'node:crypto';
import type { Axiom } from './terms.js';
import type { Ontology } from './ontology.js';
import { LineRenderer, axiomLines } from './render/axiom-lines.js';
import { anonymousIndividuals } from './walk.js';
import { sha256Digest, sha256DigestAfter, sha256Head, sha256Hex, sha256Latin1 } from '../util/digest.js';

let sawAnonymous = false;
/** Renders axioms without anonymous individuals canonically and flags any anonymous one it meets. */
const lineRenderer = new LineRenderer(() => {
  sawAnonymous = true;
  return '_:?';
});

// Blank-node labels differ between loads, so anonymous annotation values are rendered without them.
const annotationRenderer = new LineRenderer(() => '_:?');

const laneBytes = Buffer.alloc(32);

/**
 * The canonical lines of the axioms edited last, as their digest update rendered them: whoever records the
 * edit (the change journal) takes the line from here rather than rendering the axiom again. A few slots
 * cover a commit's edits in the usual case; lines of the whole ontology, rendered when a digest is built,
 * are not kept.
 */
const RECENT = 8;
const recentAxioms: (Axiom | null)[] = new Array<Axiom | null>(RECENT).fill(null);
const recentLines: string[] = new Array<string>(RECENT).fill('');
let recentNext = 0;

/** The canonical line of an axiom edited lately, if it has no anonymous individual and is still remembered. */
export function editedAxiomLine(a: Axiom): string | undefined {
  for (let i = 0; i < RECENT; i++) if (recentAxioms[i] === a) return recentLines[i];
  return undefined;
}

class AxiomDigest {
  readonly lanes = new Uint32Array(8);
  /** Axioms folded into the lanes. */
  folded = 0;
  readonly withAnonymous = new Set<Axiom>();
  private anonymousHash: string | null = null;

  constructor(o: Ontology) {
    for (const a of o.axioms()) this.fold(a, true);
  }

  get size(): number {
    return this.folded + this.withAnonymous.size;
  }

  /** An edit: folded in, and its line remembered for `editedAxiomLine`. */
  update(a: Axiom, added: boolean): void {
    const line = this.fold(a, added);
    if (line === null) return;
    recentAxioms[recentNext] = a;
    recentLines[recentNext] = line;
    recentNext = (recentNext + 1) % RECENT;
  }

  /** Folds the axiom in or out; returns its line, or null if it has an anonymous individual. */
  private fold(a: Axiom, added: boolean): string | null {
    sawAnonymous = false;
    const line = lineRenderer.axiom(a);
    if (sawAnonymous) {
      if (added) this.withAnonymous.add(a);
      else this.withAnonymous.delete(a);
      this.anonymousHash = null;
      return null;
    }
    const h = sha256Latin1(line);
    const lanes = this.lanes;
    for (let i = 0, j = 0; i < lanes.length; i++, j += 4) {
      // the digest's i-th big-endian 32-bit word
      const w = ((h.charCodeAt(j) << 24) | (h.charCodeAt(j + 1) << 16) | (h.charCodeAt(j + 2) << 8) | h.charCodeAt(j + 3)) >>> 0;
      lanes[i] = added ? lanes[i]! + w : lanes[i]! - w;
    }
    this.folded += added ? 1 : -1;
    return line;
  }

  text(): string {
    if (this.anonymousHash === null) {
      this.anonymousHash = sha256Hex(axiomLines(this.withAnonymous).join('\n'));
    }
    // each lane as 8 big-endian hex digits, written in one go (an index loop: entries() allocates a pair per lane, per commit)
    for (let i = 0; i < this.lanes.length; i++) laneBytes.writeUInt32BE(this.lanes[i]!, i * 4);
    return (
      'axioms ' + this.folded + ' ' + laneBytes.toString('hex') + '\nanonymous ' + this.withAnonymous.size + ' ' + this.anonymousHash + '\n'
    );
  }
}

const digests = new WeakMap<Ontology, AxiomDigest>();

function axiomDigest(o: Ontology): AxiomDigest {
  let d = digests.get(o);
  // A size mismatch means the ontology was edited without `noteAxiomChange`: start again.
  if (d === undefined || d.size !== o.axiomCount) {
    d = new AxiomDigest(o);
    digests.set(o, d);
  }
  return d;
}

/**
 * Keeps the cached digest of `o` current after an axiom was added to or removed from it. Every edit made
 * after a fingerprint was computed must be reported here (the change engine does), or `forgetFingerprint`
 * called.
 */
export function noteAxiomChange(o: Ontology, a: Axiom, added: boolean): void {
  digests.get(o)?.update(a, added);
}

/** The axioms of `o` that mention an anonymous individual (kept current with the fingerprint's digest). */
export function axiomsWithAnonymous(o: Ontology): ReadonlySet<Axiom> {
  return axiomDigest(o).withAnonymous;
}

/** Drops the cached digest of `o` (after edits that bypassed `noteAxiomChange`). */
export function forgetFingerprint(o: Ontology): void {
  digests.delete(o);
}

const sha = (text: string) => sha256Digest(text);

const DOCUMENT_TAG = 'athene-document-1\n';

function headerText(o: Ontology): string {
  let s = 'ontology ' + (o.id.iri ?? '') + ' ' + (o.id.versionIri ?? '') + '\n';
  for (const iri of [...o.imports].sort()) s += 'import ' + iri + '\n';
  const anns = [...o.annotations].map((a) => annotationRenderer.annotation(a)).sort();
  for (const a of anns) s += a + '\n';
  return s;
}

function prefixText(o: Ontology): string {
  let s = 'format ' + o.format + '\n';
  for (const [p, ns] of [...o.prefixes].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) s += 'prefix ' + p + ' ' + ns + '\n';
  return s;
}

/**
 * The header and prefix texts of an ontology as last rendered. An axiom edit leaves them as they were, so a
 * fingerprint per commit renders only the axiom digest; the change engine reports header edits
 * (`noteHeaderChange`), and the id object, format and set sizes guard against edits made around it.
 */
interface HeaderCache {
  readonly id: Ontology['id'];
  readonly format: string;
  readonly imports: number;
  readonly annotations: number;
  readonly prefixCount: number;
  readonly header: string;
  readonly prefixes: string;
  /**
   * The document digest with the text before the axioms hashed: a fingerprint per commit copies it and hashes
   * the rest, not the header again (hashing is most of a fingerprint's cost).
   */
  readonly documentHead: Hash;
}

const headers = new WeakMap<Ontology, HeaderCache>();

function headerCache(o: Ontology): HeaderCache {
  const c = headers.get(o);
  if (
    c !== undefined &&
    c.id === o.id &&
    c.format === o.format &&
    c.imports === o.imports.size &&
    c.annotations === o.annotations.size &&
    c.prefixCount === o.prefixes.size
  )
    return c;
  const header = headerText(o);
  const fresh: HeaderCache = {
    id: o.id,
    format: o.format,
    imports: o.imports.size,
    annotations: o.annotations.size,
    prefixCount: o.prefixes.size,
    header,
    prefixes: prefixText(o),
    documentHead: sha256Head(DOCUMENT_TAG + header),
  };
  headers.set(o, fresh);
  return fresh;
}

/** Drops the cached header text of `o`: its id, imports, annotations or prefix map were edited. */
export function noteHeaderChange(o: Ontology): void {
  headers.delete(o);
}

/** Digest of the asserted content: ontology id, imports, ontology annotations and axioms. */
export function semanticFingerprint(o: Ontology): string {
  return sha('athene-semantic-1\n' + headerCache(o).header + axiomDigest(o).text());
}

/** Digest of the live document: the semantic content plus the prefix map and the document format. */
export function documentFingerprint(o: Ontology): string {
  const h = headerCache(o);
  return sha256DigestAfter(h.documentHead, axiomDigest(o).text() + h.prefixes);
}

const MAX_WARNINGS = 16;

/** Anonymous individuals get fresh node ids on every load, so digests over them hold for this session only. */
export function fingerprintStability(o: Ontology): { stability: 'stable' | 'session_only'; warnings: string[] } {
  let count = 0;
  for (const a of o.axioms()) if (anonymousIndividuals(a).size > 0) count++;
  if (count === 0) return { stability: 'stable', warnings: [] };
  return {
    stability: 'session_only',
    warnings: [`${count} axiom(s) use anonymous individuals: the fingerprints identify this session's content only, not a release`].slice(
      0,
      MAX_WARNINGS,
    ),
  };
}
