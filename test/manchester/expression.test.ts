import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseClassExpression, parseDataRange, ManchesterParseError } from '../../src/model/formats/manchester/expression.js';
import { LineRenderer } from '../../src/model/render/axiom-lines.js';
import { NameError, type NameResolver, type ResolvedName } from '../../src/model/names.js';
import type { EntityKind } from '../../src/model/terms.js';
import * as T from '../../src/model/terms.js';

const EX = 'http://ex.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Names: `x:` and the empty prefix map to EX; kinds come from a small table. */
function resolver(kinds: Record<string, EntityKind[]> = {}): NameResolver {
  return {
    resolve(token: string): ResolvedName {
      let name = token;
      if (name.startsWith('<')) return { iri: name.slice(1, -1), kinds: new Set(kinds[name.slice(1, -1)] ?? []) };
      if (name.startsWith("'")) name = name.slice(1, -1).replace(/ /g, '_');
      let iri: string;
      if (name.startsWith('xsd:')) iri = XSD + name.slice(4);
      else if (name.startsWith('ambiguous')) throw new NameError('ambiguous name ' + name, ['a', 'b']);
      else iri = EX + name.replace(/^x:/, '');
      return { iri, kinds: new Set(kinds[iri.slice(EX.length)] ?? []) };
    },
  };
}

const lines = new LineRenderer(() => '_:x');
const ce = (text: string, kinds?: Record<string, EntityKind[]>) => lines.classExpression(parseClassExpression(text, resolver(kinds)));
const dr = (text: string, kinds?: Record<string, EntityKind[]>) => lines.dataRange(parseDataRange(text, resolver(kinds)));
const e = (n: string) => `<${EX}${n}>`;
const x = (n: string) => `<${XSD}${n}>`;

test('class names, CURIEs, full IRIs and quoted names', () => {
  assert.equal(ce('A'), e('A'));
  assert.equal(ce('x:A'), e('A'));
  assert.equal(ce('<http://other.org/B>'), '<http://other.org/B>');
  assert.equal(ce("'has topping' some Tomato"), `ObjectSomeValuesFrom(${e('has_topping')} ${e('Tomato')})`);
});

test('boolean constructors and precedence: or < and < not < restriction', () => {
  assert.equal(ce('A or B and C'), `ObjectUnionOf(${e('A')} ObjectIntersectionOf(${e('B')} ${e('C')}))`);
  assert.equal(ce('(A or B) and C'), `ObjectIntersectionOf(${e('C')} ObjectUnionOf(${e('A')} ${e('B')}))`);
  assert.equal(ce('not A and B'), `ObjectIntersectionOf(${e('B')} ObjectComplementOf(${e('A')}))`);
  assert.equal(ce('p some A and B'), `ObjectIntersectionOf(${e('B')} ObjectSomeValuesFrom(${e('p')} ${e('A')}))`);
  assert.equal(ce('not p some A'), `ObjectComplementOf(ObjectSomeValuesFrom(${e('p')} ${e('A')}))`);
  assert.equal(ce('p some (A or B)'), `ObjectSomeValuesFrom(${e('p')} ObjectUnionOf(${e('A')} ${e('B')}))`);
  assert.equal(ce('A that p some B'), `ObjectIntersectionOf(${e('A')} ObjectSomeValuesFrom(${e('p')} ${e('B')}))`);
  assert.equal(ce('p some q some A'), `ObjectSomeValuesFrom(${e('p')} ObjectSomeValuesFrom(${e('q')} ${e('A')}))`);
});

test('object restrictions, one-of and inverse properties', () => {
  assert.equal(ce('p only A'), `ObjectAllValuesFrom(${e('p')} ${e('A')})`);
  assert.equal(ce('p value a'), `ObjectHasValue(${e('p')} ${e('a')})`);
  assert.equal(ce('p value _:n'), `ObjectHasValue(${e('p')} _:x)`);
  assert.equal(ce('p Self'), `ObjectHasSelf(${e('p')})`);
  assert.equal(ce('p min 2 A'), `ObjectMinCardinality(2 ${e('p')} ${e('A')})`);
  assert.equal(ce('p max 1'), `ObjectMaxCardinality(1 ${e('p')})`);
  assert.equal(ce('p exactly 3 A and B'), `ObjectIntersectionOf(${e('B')} ObjectExactCardinality(3 ${e('p')} ${e('A')}))`);
  assert.equal(ce('p exactly 1 and B'), `ObjectIntersectionOf(${e('B')} ObjectExactCardinality(1 ${e('p')}))`);
  assert.equal(ce('{a, b}'), `ObjectOneOf(${e('a')} ${e('b')})`);
  assert.equal(ce('inverse p some A'), `ObjectSomeValuesFrom(ObjectInverseOf(${e('p')}) ${e('A')})`);
  assert.equal(ce('inverse (p) only A'), `ObjectAllValuesFrom(ObjectInverseOf(${e('p')}) ${e('A')})`);
});

test('data restrictions: kind from the resolver, else from the filler', () => {
  assert.equal(ce('d some xsd:integer'), `DataSomeValuesFrom(${e('d')} ${x('integer')})`);
  assert.equal(ce('d value 5'), `DataHasValue(${e('d')} "5"^^${x('integer')})`);
  assert.equal(ce('d value "x"@EN'), `DataHasValue(${e('d')} "x"@en)`);
  assert.equal(ce('d some {1, 2}'), `DataSomeValuesFrom(${e('d')} DataOneOf("1"^^${x('integer')} "2"^^${x('integer')}))`);
  assert.equal(
    ce('d only integer[> 0]'),
    `DataAllValuesFrom(${e('d')} DatatypeRestriction(${x('integer')} ${x('minExclusive')} "0"^^${x('integer')}))`,
  );
  // known data property: unqualified cardinality and a custom datatype filler
  assert.equal(ce('d min 1', { d: ['DataProperty'] }), `DataMinCardinality(1 ${e('d')})`);
  assert.equal(ce('d some D', { d: ['DataProperty'] }), `DataSomeValuesFrom(${e('d')} ${e('D')})`);
  assert.equal(ce('d max 2 xsd:string'), `DataMaxCardinality(2 ${e('d')} ${x('string')})`);
  assert.equal(ce('p some D', { D: ['Datatype'] }), `DataSomeValuesFrom(${e('p')} ${e('D')})`);
  // known object property wins over a datatype-looking filler
  assert.equal(ce('p some xsd:integer', { p: ['ObjectProperty'] }), `ObjectSomeValuesFrom(${e('p')} ${x('integer')})`);
});

test('data ranges: facets, literals, boolean operators', () => {
  assert.equal(
    dr('xsd:integer[>= 0, < 10]'),
    `DatatypeRestriction(${x('integer')} ${x('maxExclusive')} "10"^^${x('integer')} ${x('minInclusive')} "0"^^${x('integer')})`,
  );
  assert.equal(
    dr('xsd:string[length 5, minLength 1, maxLength 9, pattern "a*"]'),
    `DatatypeRestriction(${x('string')} ${x('length')} "5"^^${x('integer')} ${x('maxLength')} "9"^^${x('integer')} ${x('minLength')} "1"^^${x('integer')} ${x('pattern')} "a*"^^${x('string')})`,
  );
  assert.equal(
    dr('rdf:PlainLiteral[langRange "en"]'.replace('rdf:PlainLiteral', 'xsd:PL')),
    `DatatypeRestriction(${x('PL')} <http://www.w3.org/1999/02/22-rdf-syntax-ns#langRange> "en"^^${x('string')})`,
  );
  assert.equal(dr('xsd:decimal[<= 1.5]'), `DatatypeRestriction(${x('decimal')} ${x('maxInclusive')} "1.5"^^${x('decimal')})`);
  assert.equal(
    dr('{1.5f, true, "a", "b"^^xsd:token, -3}'),
    `DataOneOf("-3"^^${x('integer')} "1.5"^^${x('float')} "a"^^${x('string')} "b"^^${x('token')} "true"^^${x('boolean')})`,
  );
  assert.equal(
    dr('xsd:integer or xsd:string and not xsd:boolean'),
    `DataUnionOf(${x('integer')} DataIntersectionOf(${x('string')} DataComplementOf(${x('boolean')})))`,
  );
  assert.equal(dr('not (integer or decimal)'), `DataComplementOf(DataUnionOf(${x('decimal')} ${x('integer')}))`);
});

test('interning: equal expressions are the same node', () => {
  const names = resolver();
  assert.equal(parseClassExpression('A and p some B', names), parseClassExpression('(p some B) and A', names));
  assert.equal(parseClassExpression('A and B', names), T.objectIntersectionOf([T.cls(EX + 'B'), T.cls(EX + 'A')]));
});

test('errors name what was expected and where', () => {
  const err = (text: string) => {
    try {
      parseClassExpression(text, resolver());
    } catch (e) {
      assert.ok(e instanceof ManchesterParseError, String(e));
      return `${e.column}: ${e.detail}`;
    }
    assert.fail('no error for ' + text);
  };
  assert.equal(err('A and'), "6: expected a class name, '(', '{', 'not' or a restriction but found end of input");
  assert.equal(err('p min x A'), "7: expected a non-negative integer but found 'x'");
  assert.equal(err('(A or B'), "8: expected ')' but found end of input");
  assert.equal(err('A B'), "3: expected end of class expression but found 'B'");
  assert.equal(err('p some "x'), '8: unterminated string literal');
  assert.throws(() => parseDataRange('xsd:integer[foo 1]', resolver()), /column 13: expected a facet/);
  // the resolver's own errors propagate unchanged (callers keep its candidate list)
  assert.throws(
    () => parseClassExpression('ambiguousX', resolver()),
    (e) => e instanceof NameError && e.candidates.length === 2,
  );
});
