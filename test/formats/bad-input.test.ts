// Bad input: a truncated or malformed document in each format is refused with a ParseError that names
// the format and, where the format has lines, the line.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDocument, writeDocument } from '../../src/model/formats/registry.js';
import { ParseError } from '../../src/model/formats/errors.js';
import { Ontology, type FormatId } from '../../src/model/ontology.js';
import * as f from '../../src/model/terms.js';

const EX = 'http://example.org/bad#';

function sample(): Ontology {
  const o = new Ontology();
  o.id = { iri: 'http://example.org/bad', versionIri: null };
  o.prefixes.set(':', EX);
  const A = f.cls(EX + 'A');
  const B = f.cls(EX + 'B');
  const C = f.cls(EX + 'C');
  const p = f.objectProperty(EX + 'p');
  for (const e of [A, B, C, p]) o.add(f.declaration(e));
  o.add(f.subClassOf(A, B));
  o.add(f.subClassOf(B, f.objectSomeValuesFrom(p, C)));
  o.add(
    f.annotationAssertion(
      f.annotationProperty('http://www.w3.org/2000/01/rdf-schema#label'),
      f.iriNode(EX + 'A'),
      f.literal('a thing', undefined, 'en'),
    ),
  );
  return o;
}

const FORMATS: FormatId[] = ['turtle', 'ntriples', 'nquads', 'trig', 'rdfxml', 'jsonld', 'owlxml', 'ofn', 'manchester'];

for (const format of FORMATS) {
  test(`${format}: a truncated document is refused with a ParseError`, async () => {
    const text = writeDocument(sample(), format);
    const truncated = text.slice(0, Math.floor(text.length * 0.6));
    await assert.rejects(readDocument(truncated, { format }), (err: unknown) => {
      assert.ok(err instanceof ParseError, `ParseError expected, got ${String(err)}`);
      assert.equal(err.format, format);
      assert.ok(err.line !== undefined && err.line >= 1, 'names the line: ' + err.message);
      return true;
    });
  });

  test(`${format}: a malformed document is refused with the line of the fault`, async () => {
    const lines = writeDocument(sample(), format).split('\n');
    const at = Math.floor(lines.length / 2);
    lines.splice(at, 0, format === 'jsonld' ? '}}}' : '<<< not a statement (( ;;');
    await assert.rejects(readDocument(lines.join('\n'), { format }), (err: unknown) => {
      assert.ok(err instanceof ParseError, `ParseError expected, got ${String(err)}`);
      assert.ok(err.line !== undefined && Math.abs(err.line - (at + 1)) <= 1, `line near ${at + 1}: ${err.message}`);
      return true;
    });
  });
}
