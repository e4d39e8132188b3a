// Access to the OWL API reference readings of the shared corpus, and the comparison rules of
// ../shared/corpus/README.md: literal normalisations the OWL API applies on parse, and its artefact lines.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XSD } from '../../src/model/vocab.js';

function findRepoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
  return dir;
}

export const repoRoot = findRepoRoot();
/** The nearest `shared` directory beside the repository or one of its parents (a worktree sits one level deeper). */
function findSharedDir(): string {
  for (let dir = repoRoot; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const candidate = path.join(path.dirname(dir), 'shared');
    if (existsSync(candidate)) return candidate;
  }
  return path.resolve(repoRoot, '../shared');
}

export const sharedDir = findSharedDir();
export const corpusDir = path.join(sharedDir, 'corpus');

export interface ManifestEntry {
  path: string;
  format: 'rdfxml' | 'turtle' | 'ofn' | 'owlxml' | 'manchester' | 'ntriples';
  sizeBytes: number;
}

export function manifest(): ManifestEntry[] {
  return JSON.parse(readFileSync(path.join(corpusDir, 'MANIFEST.json'), 'utf8')).files;
}

/** The base IRI the references were produced with. */
export const corpusBase = (relPath: string) => 'http://corpus.invalid/' + relPath;

export function readCorpusFile(relPath: string): string {
  return readFileSync(path.join(corpusDir, relPath), 'utf8');
}

export function referenceStats(relPath: string): Record<string, unknown> | null {
  const p = path.join(corpusDir, 'reference', relPath + '.stats.json');
  return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : null;
}

/** The reference lines of a corpus file, or null when it has no reference. */
export function referenceLines(relPath: string): string[] | null {
  const p = path.join(corpusDir, 'reference', relPath + '.axioms.ofn');
  if (!existsSync(p)) return null;
  return readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
}

/** Lines that are OWL API inventions rather than content of the file. */
export function isOwlApiArtefact(line: string): boolean {
  return line.includes('<http://org.semanticweb.owlapi/error#Error') || line.includes('<_:iri');
}

// ---------------------------------------------------------------- Java number formatting

function javaScientific(digits: string, exp10: number, negative: boolean): string {
  // digits: significant digits without dot, value = 0.digits * 10^exp10 ... expressed as d.ddd × 10^(exp10-1)
  const mantissa = digits[0] + '.' + (digits.length > 1 ? digits.slice(1) : '0');
  return (negative ? '-' : '') + mantissa + 'E' + (exp10 - 1);
}

/** Java's Double.toString / Float.toString from the shortest round-tripping decimal digits. */
function javaFloatingToString(value: number, shortest: string): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const negative = value < 0;
  // shortest is like "1.2345e-7" from toExponential()
  const [m, e] = shortest.replace('-', '').split('e');
  if (m === undefined || e === undefined) throw new Error(`not in exponential form: ${shortest}`);
  const digits = m.replace('.', '').replace(/0+$/, '') || '0';
  const exp = parseInt(e, 10) + 1; // value = 0.digits × 10^exp
  const abs = Math.abs(value);
  if (abs >= 1e-3 && abs < 1e7) {
    let intPart: string;
    let frac: string;
    if (exp <= 0) {
      intPart = '0';
      frac = '0'.repeat(-exp) + digits;
    } else if (exp >= digits.length) {
      intPart = digits + '0'.repeat(exp - digits.length);
      frac = '0';
    } else {
      intPart = digits.slice(0, exp);
      frac = digits.slice(exp);
    }
    return (negative ? '-' : '') + intPart + '.' + frac;
  }
  return javaScientific(digits, exp, negative);
}

function shortestDouble(v: number): string {
  return v.toExponential();
}

function shortestFloat(f: number): string {
  for (let p = 1; p <= 9; p++) {
    const s = f.toExponential(p - 1);
    if (Math.fround(parseFloat(s)) === f) return s;
  }
  return f.toExponential(8);
}

const JAVA_INT_MIN = -(2n ** 31n);
const JAVA_INT_MAX = 2n ** 31n - 1n;
const JAVA_LONG_MIN = -(2n ** 63n);
const JAVA_LONG_MAX = 2n ** 63n - 1n;

/** The lexical form OWL API 5.1.20 keeps for a literal of the given datatype. */
export function owlApiLexicalForm(lex: string, datatype: string): string {
  switch (datatype) {
    case XSD + 'boolean':
      return lex.trim() === 'true' || lex.trim() === '1' ? 'true' : 'false';
    case XSD + 'double': {
      const t = lex.trim();
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) && !/^[+-]?(Infinity|NaN)$/.test(t)) return lex;
      const v = Number(t);
      return javaFloatingToString(v, shortestDouble(v));
    }
    case XSD + 'float': {
      const t = lex.trim();
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$/.test(t) && !/^[+-]?(Infinity|NaN)$/.test(t)) return lex;
      const f = Math.fround(Number(t.replace(/[fFdD]$/, '')));
      return javaFloatingToString(f, shortestFloat(f));
    }
    case XSD + 'integer':
    case XSD + 'long': {
      if (!/^[+-]?\d+$/.test(lex) || lex.startsWith('0')) return lex;
      const n = BigInt(lex);
      const [min, max] = datatype === XSD + 'integer' ? [JAVA_INT_MIN, JAVA_INT_MAX] : [JAVA_LONG_MIN, JAVA_LONG_MAX];
      return n >= min && n <= max ? n.toString() : lex;
    }
    default:
      return lex;
  }
}

function unescapeLexical(s: string): string {
  return s.replace(/\\(u[0-9A-Fa-f]{4}|.)/g, (_, c: string) =>
    c[0] === 'u' && c.length === 5
      ? String.fromCharCode(parseInt(c.slice(1), 16))
      : c === 'n'
        ? '\n'
        : c === 'r'
          ? '\r'
          : c === 't'
            ? '\t'
            : c,
  );
}

function escapeLexicalForLine(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
    else out += ch;
  }
  return out;
}

const TYPED_LITERAL = /"((?:[^"\\]|\\.)*)"\^\^<([^>]*)>/g;

/** A line of ours with its typed literals normalised the way the OWL API normalises them on parse. */
export function normaliseLiterals(line: string): string {
  return line.replace(TYPED_LITERAL, (whole, lex: string, dt: string) => {
    const raw = unescapeLexical(lex);
    const norm = owlApiLexicalForm(raw, dt);
    return norm === raw ? whole : '"' + escapeLexicalForLine(norm) + '"^^<' + dt + '>';
  });
}

/**
 * Compares our canonical lines with the reference: both sides literal-normalised, OWL API artefact lines
 * dropped from the reference. Returns what the reference has that we lack, and what we have in addition.
 * Throws if the file has no reference.
 */
export function compareWithReference(relPath: string, ourLines: string[]): { missing: string[]; extra: string[] } {
  const ref = referenceLines(relPath);
  if (ref === null) throw new Error('no reference for ' + relPath);
  const refSet = new Set(ref.filter((l) => !isOwlApiArtefact(l)).map(normaliseLiterals));
  const ours = new Set(ourLines.map(normaliseLiterals));
  const missing = [...refSet].filter((l) => !ours.has(l)).sort();
  const extra = [...ours].filter((l) => !refSet.has(l)).sort();
  return { missing, extra };
}
