// Round trip of every readable corpus file through each RDF writer and back through its reader:
// the axioms read back must be the axioms read first plus the writer's implicit declarations, with the
// same header. Two differences are explained (not skipped) line by line:
//  - JSON-LD: jsonld.js's toRDF rewrites every xsd:double lexical form as toExponential(15)
//    ("1.5e3" → "1.5E3", 17-digit values rounded to 16), so for that format double literals are compared
//    by value to 15 significant digits, and anonymous individuals without their numbers (the numbering
//    hashes the literal text);
//  - punned properties (one IRI declared as two property kinds, e.g. annotation and object property):
//    an rdfs:domain / rdfs:range / rdfs:subPropertyOf triple on such an IRI cannot say which of the
//    properties it belongs to, and an assertion with such a property cannot say which kind it is, so
//    axioms naming those IRIs (declarations apart) are left out of the comparison.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Ontology } from '../src/model/ontology.js';
import type { FormatId } from '../src/model/ontology.js';
import { readDocument } from '../src/model/formats/registry.js';
import { writeJsonLd, writeNQuads, writeNTriples, writeRdfXml, writeTriG, writeTurtle } from '../src/model/formats/rdf-writers.js';
import { axiomLines, LineRenderer } from '../src/model/render/axiom-lines.js';
import { implicitDeclarations } from '../src/model/rdf/owl-to-triples.js';
import { corpusBase, manifest, readCorpusFile } from './support/reference.js';
import { XSD } from '../src/model/vocab.js';

const WRITERS: [FormatId, (o: Ontology) => string][] = [
  ['turtle', writeTurtle], ['ntriples', writeNTriples], ['nquads', writeNQuads], ['trig', writeTriG],
  ['rdfxml', writeRdfXml], ['jsonld', writeJsonLd],
];

const DOUBLE = /"([^"\\]*)"\^\^<http:\/\/www\.w3\.org\/2001\/XMLSchema#double>/g;
const byDoubleValue = (line: string) =>
  line.replace(DOUBLE, (_, lex: string) => `"${Number(lex).toPrecision(15)}"^^<${XSD}double>`).replace(/_:b\d+/g, '_:b');

/** IRIs declared as more than one kind of property. */
function punnedProperties(o: Ontology): Set<string> {
  const kinds = new Map<string, Set<string>>();
  for (const a of [...o.axioms(), ...implicitDeclarations(o)]) {
    if (a.kind !== 'Declaration' || !a.entity.kind.endsWith('Property')) continue;
    const set = kinds.get(a.entity.iri) ?? new Set<string>();
    set.add(a.entity.kind);
    kinds.set(a.entity.iri, set);
  }
  return new Set([...kinds].filter(([, k]) => k.size > 1).map(([iri]) => iri));
}

/** An axiom line, other than a declaration, that names a punned property. */
function aboutPunned(line: string, punned: Set<string>): boolean {
  if (punned.size === 0 || line.startsWith('Declaration(')) return false;
  for (const iri of punned) if (line.includes('<' + iri + '>')) return true;
  return false;
}

function compare(before: string[], after: string[], format: FormatId, punned: Set<string>) {
  const norm = (lines: string[]) => lines
    .filter((l) => !aboutPunned(l, punned))
    .map((l) => (format === 'jsonld' ? byDoubleValue(l) : l));
  const a = new Set(norm(before));
  const b = new Set(norm(after));
  return { missing: [...a].filter((x) => !b.has(x)).slice(0, 5), extra: [...b].filter((x) => !a.has(x)).slice(0, 5) };
}

function header(o: Ontology) {
  const r = new LineRenderer((x) => '_:' + x.nodeId);
  return { id: { ...o.id }, imports: [...o.imports].sort(), annotations: [...o.annotations].map((a) => r.annotation(a)).sort() };
}

for (const entry of manifest()) {
  test(`round trip through every RDF format: ${entry.path}`, async (t) => {
    let first: Ontology;
    try {
      first = (await readDocument(readCorpusFile(entry.path), { base: corpusBase(entry.path), fileName: entry.path })).ontology;
    } catch (e) {
      t.skip(`the loader cannot read this file: ${(e as Error).message}`);
      return;
    }
    const expected = axiomLines([...first.axioms(), ...implicitDeclarations(first)]);
    const punned = punnedProperties(first);
    for (const [format, write] of WRITERS) {
      const text = write(first);
      const back = (await readDocument(text, { base: 'http://roundtrip.invalid/', format })).ontology;
      assert.deepEqual(compare(expected, axiomLines(back.axioms()), format, punned), { missing: [], extra: [] }, format);
      if (!header(first).annotations.some((l) => l.includes('_:'))) assert.deepEqual(header(back), header(first), format);
    }
  });
}
