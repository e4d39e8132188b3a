// Document format detection: content sniffing first (extensions like .owl say little), the file
// extension as the tie-breaker.

import type { FormatId } from '../ontology.js';

const BY_EXTENSION: Record<string, FormatId> = {
  ttl: 'turtle',
  turtle: 'turtle',
  n3: 'turtle',
  nt: 'ntriples',
  ntriples: 'ntriples',
  nq: 'nquads',
  nquads: 'nquads',
  trig: 'trig',
  rdf: 'rdfxml',
  rdfs: 'rdfxml',
  xml: 'rdfxml',
  owl: 'rdfxml',
  owx: 'owlxml',
  owlxml: 'owlxml',
  ofn: 'ofn',
  fss: 'ofn',
  func: 'ofn',
  omn: 'manchester',
  man: 'manchester',
  obo: 'obo',
  jsonld: 'jsonld',
  json: 'jsonld',
};

export const ALL_FORMATS: readonly FormatId[] = [
  'turtle',
  'ntriples',
  'nquads',
  'trig',
  'rdfxml',
  'jsonld',
  'owlxml',
  'ofn',
  'manchester',
  'obo',
];

/** Canonical file extension per format (for writing). */
export const EXTENSION: Record<FormatId, string> = {
  turtle: 'ttl',
  ntriples: 'nt',
  nquads: 'nq',
  trig: 'trig',
  rdfxml: 'owl',
  jsonld: 'jsonld',
  owlxml: 'owx',
  ofn: 'ofn',
  manchester: 'omn',
  obo: 'obo',
};

/** Accepts format names users type: ids, common aliases and extensions. */
export function parseFormatName(name: string): FormatId | null {
  const n = name.trim().toLowerCase().replace(/^\./, '');
  const aliases: Record<string, FormatId> = {
    'rdf/xml': 'rdfxml',
    'rdf-xml': 'rdfxml',
    'owl/xml': 'owlxml',
    'owl-xml': 'owlxml',
    functional: 'ofn',
    'functional-syntax': 'ofn',
    fs: 'ofn',
    'n-triples': 'ntriples',
    'n-quads': 'nquads',
    'json-ld': 'jsonld',
    mos: 'manchester',
    'manchester-syntax': 'manchester',
  };
  if ((ALL_FORMATS as readonly string[]).includes(n)) return n as FormatId;
  return aliases[n] ?? BY_EXTENSION[n] ?? null;
}

export function formatFromExtension(fileName: string): FormatId | null {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1];
  return extension === undefined ? null : (BY_EXTENSION[extension.toLowerCase()] ?? null);
}

/** Skips a BOM, whitespace and `#` comment lines; returns the index of the first significant character. */
function significantStart(text: string): number {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (i < text.length && /\s/.test(text.charAt(i))) i++;
    if (text[i] !== '#') return i;
    while (i < text.length && text[i] !== '\n') i++;
  }
}

/**
 * A first line that is a triple: an IRI, then an IRI, `a` or a prefixed name, then more. No XML start tag
 * looks like that (an IRI has no whitespace, a tag with attributes has), though `<urn:x>` alone is both.
 */
const TRIPLE_START = /^<[^>\s]*>[ \t]+(<[^>\s]*>|a|[A-Za-z][\w.-]*:\S*)[ \t]+\S/;

/**
 * The qualified name of the document element, skipping the prolog (XML declaration, comments, processing
 * instructions and the DOCTYPE with its internal subset, however long), or null.
 */
function rootElement(text: string, from: number): string | null {
  for (let i = text.indexOf('<', from); i >= 0; i = text.indexOf('<', i)) {
    if (text.startsWith('<?', i)) i = text.indexOf('?>', i) + 2;
    else if (text.startsWith('<!--', i)) i = text.indexOf('-->', i) + 3;
    else if (text.startsWith('<!DOCTYPE', i)) i = doctypeEnd(text, i);
    else return /^<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)/.exec(text.slice(i, i + 256))?.[1] ?? null;
    if (i <= 1) return null;
  }
  return null;
}

/** The index after a DOCTYPE declaration; its internal subset may hold '>' in declarations and quoted values. */
function doctypeEnd(text: string, start: number): number {
  let quote = '';
  let subset = false;
  for (let i = start + 9; i < text.length; i++) {
    const c = text[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') subset = true;
    else if (c === ']') subset = false;
    else if (c === '>' && !subset) return i + 1;
  }
  return 0;
}

/** Sniffs the format from the first few kilobytes (the XML root element from the whole prolog); null when the content says nothing clear. */
export function sniffFormat(text: string): FormatId | null {
  const start = significantStart(text);
  const head = text.slice(start, start + 8192);
  const lineEnd = head.indexOf('\n');
  const firstLine = lineEnd < 0 ? head : head.slice(0, lineEnd);
  const xml = head.startsWith('<?xml') || head.startsWith('<!') || /^<[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?[\s>/]/.test(head);
  if (xml && !TRIPLE_START.test(firstLine)) {
    const root = rootElement(text, start);
    return root !== null && /(^|:)Ontology$/.test(root) ? 'owlxml' : 'rdfxml';
  }
  if (/^(Prefix|Ontology)\s*\(/.test(head)) return 'ofn';
  if (/^(Prefix|Ontology|Class|ObjectProperty|DataProperty|AnnotationProperty|Individual|Datatype|Import|Annotations)\s*:/.test(head))
    return 'manchester';
  if (
    /^(format-version|data-version|ontology|date|saved-by|auto-generated-by|default-namespace)\s*:/m.test(head.slice(0, 2048)) ||
    head.startsWith('[Term]') ||
    head.startsWith('[Typedef]')
  )
    return 'obo';
  if (head.startsWith('{') || head.startsWith('[')) return 'jsonld';
  if (/^(@prefix|@base|PREFIX|BASE)\b/i.test(head)) return /\bGRAPH\b|^\s*(<[^>]*>\s*)?\{/m.test(head) ? 'trig' : 'turtle';
  if (/^(<[^>\s]*>|_:\S+)\s/.test(head)) {
    if (/"\s*(\^\^<[^>]*>|@[A-Za-z-]+)?\s+<[^>]*>\s*\.\s*$|>\s+<[^>]*>\s+<[^>]*>\s+<[^>]*>\s*\.\s*$/.test(firstLine)) return 'nquads';
    const strictNTriples = /^(<[^>]*>|_:\S+)\s+<[^>]*>\s+(<[^>]*>|_:\S+|"(?:[^"\\]|\\.)*"(\^\^<[^>]*>|@[A-Za-z-]+)?)\s*\.\s*$/;
    return strictNTriples.test(firstLine) ? 'ntriples' : 'turtle';
  }
  return null;
}

/** The format of a document: explicit choice, else content, else extension, else Turtle. */
export function detectFormat(text: string, fileName?: string): FormatId {
  const sniffed = sniffFormat(text);
  const byExt = fileName ? formatFromExtension(fileName) : null;
  // Turtle content is valid TriG and N-Triples content valid N-Quads or Turtle: the extension refines it.
  if (sniffed === 'turtle' && byExt === 'trig') return 'trig';
  if (sniffed === 'ntriples' && (byExt === 'turtle' || byExt === 'nquads' || byExt === 'trig')) return byExt;
  return sniffed ?? byExt ?? 'turtle';
}
