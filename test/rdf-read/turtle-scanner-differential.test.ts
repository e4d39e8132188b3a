// The scanner against n3's Parser on generated documents: for every document, either the scanner reads
// exactly the triples and prefixes n3 reads, or it hands the document to n3 (and n3 then decides). The
// generator mixes the constructs where a hand-written scanner goes wrong: name characters and escapes,
// trailing dots, numbers next to statement ends, quotes and escapes in strings, comments, nesting.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TripleTable } from '../../src/model/rdf/rdf-graph-reader.js';
import { tripleLines as lines } from '../support/triple-lines.js';
import { scanTurtle } from '../../src/model/formats/turtle-scanner.js';
import { parseInto } from '../../src/model/formats/turtle-reader.js';
import { at } from '../support/at.js';

/** A small deterministic PRNG (mulberry32), so a failure names a reproducible seed. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generator(seed: number) {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => at(xs, Math.floor(r() * xs.length));
  /** Mostly well-formed choices, now and then one that n3 rejects or the scanner leaves to n3. */
  const either = <T>(good: readonly T[], bad: readonly T[]): T => (r() < 0.015 ? pick(bad) : pick(good));
  const locals = ['a', 'b1', 'x.y', 'z_', 'é', 'ñame', 'a-b', '0lead', 'a\\.b', 'a%20b', 'p:q', 'C', '_u', 'tail.', 'ab\\-', 'a·b'];
  const name = () => either(['', 'ex', 'owl', 'rdfs', 'xsd', 'ns.dot'], ['undef']) + ':' + either(locals, ['-bad', 'a%2', 'x\\q']);
  const iri = () =>
    either(
      ['<http://ex.org/a>', '<http://ex.org/b#c>', '<rel>', '<#frag>', '<../up>', '<http://ex.org/ü>', '<>'],
      ['<http://ex.org/sp ace>', '<http://ex.org/\\u0041>'],
    );
  const subject = () => pick([name, iri, () => '_:' + pick(['b0', 'b1', 'x.y', 'b.']), () => '[]'])();
  const ws = () => pick([' ', '  ', '\n', '\t', ' # note\n', '\r\n']);
  const str = () =>
    either(
      [
        '"plain"',
        '"esc \\" \\n \\t \\u00e9 \\U0001F600"',
        "'single'",
        '"""long\n"quoted" ""inner"" """',
        "'''long '' single'''",
        '""',
        '"x"@en',
        '"x"@en-GB',
        '"1"^^xsd:int',
        '"2"^^<http://ex.org/dt>',
      ],
      ['"bad \\q escape"', '"new\nline"', '"x"@toolongsubtag', '"x"@en--ltr', '"3"^^rdf:langString'],
    );
  const number = () => either(['1', '-2', '+3', '4.5', '.5', '7e3', '8.E-2', '9.0e+1', '00'], ['6.', '1.e5']);
  let depth = 0;
  const object = (): string => {
    const k = r();
    if (k < 0.3) return name();
    if (k < 0.4) return iri();
    if (k < 0.6) return str();
    if (k < 0.7) return number();
    if (k < 0.75) return either(['true', 'false'], ['tru']);
    if (depth < 3 && k < 0.87) {
      depth++;
      const out = r() < 0.2 ? '[' + ws() + ']' : '[' + ws() + predicateObjects() + ws() + either([']', ' ; ]'], [' . ]']);
      depth--;
      return out;
    }
    if (depth < 3) {
      depth++;
      const items: string[] = [];
      for (let i = Math.floor(r() * 4); i > 0; i--) items.push(object());
      depth--;
      return '(' + items.join(ws()) + ')';
    }
    return name();
  };
  const predicateObjects = (): string => {
    const parts: string[] = [];
    for (let i = 1 + Math.floor(r() * 3); i > 0; i--) {
      const objects: string[] = [];
      for (let j = 1 + Math.floor(r() * 2); j > 0; j--) objects.push(object());
      parts.push(pick(['a', name(), iri()]) + ws() + objects.join(ws() + ',' + ws()));
    }
    return parts.join(ws() + either([';', ';;', '; ;'], [',']) + ws());
  };
  const statement = (): string => {
    const k = r();
    if (k < 0.08)
      return pick([
        '@prefix ex: <http://ex.org/> .',
        'PREFIX ex: <http://ex2.org/>',
        '@prefix ns.dot: <http://dot.org/> .',
        '@base <http://base2.org/dir/> .',
        'BASE <sub/>',
        '@prefix : <http://empty.org/> .',
      ]);
    if (k < 0.12) return '(' + object() + ws() + object() + ')' + ws() + predicateObjects() + ws() + '.';
    if (k < 0.16) return '[' + ws() + predicateObjects() + ws() + ']' + ws() + pick(['.', predicateObjects() + ' .']);
    return subject() + ws() + predicateObjects() + ws() + either(['.', ' .', '.\n', ';.'], ['']);
  };
  return () => {
    const out = [
      '@prefix ex: <http://ex.org/> . @prefix owl: <http://www.w3.org/2002/07/owl#> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
      '@prefix xsd: <http://www.w3.org/2001/XMLSchema#> . @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> . @prefix : <http://ex.org/e#> . @prefix ns.dot: <http://dot.org/> .',
    ];
    for (let i = 1 + Math.floor(r() * 6); i > 0; i--) out.push(statement());
    return out.join('\n') + '\n';
  };
}

test('the scanner reads generated documents exactly as n3 does, or leaves them to n3', async () => {
  let scanned = 0,
    leftToN3 = 0,
    n3Rejected = 0;
  for (let seed = 1; seed <= 1500; seed++) {
    const text = generator(seed)();
    const ours = new TripleTable(),
      ourPrefixes = new Map<string, string>();
    const covered = scanTurtle(text, 'turtle', 'http://base.org/doc', ours, ourPrefixes);
    const theirs = new TripleTable(),
      theirPrefixes = new Map<string, string>();
    let n3Error: unknown = null;
    try {
      await parseInto(text, 'turtle', 'http://base.org/doc', theirs, theirPrefixes);
    } catch (err) {
      n3Error = err;
    }
    if (!covered) {
      leftToN3++;
      continue;
    }
    assert.equal(n3Error, null, `seed ${seed}: the scanner accepted a document n3 rejects:\n${text}`);
    assert.deepEqual(lines(ours), lines(theirs), `seed ${seed}:\n${text}`);
    assert.deepEqual([...ourPrefixes], [...theirPrefixes], `seed ${seed}`);
    scanned++;
    if (n3Error !== null) n3Rejected++;
  }
  // The generator must exercise both outcomes, or this test proves nothing.
  assert.ok(scanned > 300, `scanned ${scanned}`);
  assert.ok(leftToN3 > 300, `left to n3 ${leftToN3}`);
  assert.equal(n3Rejected, 0);
});
