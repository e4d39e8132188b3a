// OWL/XML reader against the stats.json of the corpus's .owx files (axiom lines and round trips are checked
// for every format by conformance.test.ts and roundtrip.test.ts), and the files without a reference.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readOwlXml } from '../src/model/formats/owlxml/reader.js';
import { axiomLines } from '../src/model/render/axiom-lines.js';
import type { Ontology } from '../src/model/ontology.js';
import { compareWithReference, corpusBase, readCorpusFile, referenceStats } from './support/reference.js';

const load = (rel: string): Ontology => readOwlXml(readCorpusFile(rel), { base: corpusBase(rel) });

const WITH_REFERENCE = ['owlapi/apitest/OWLXML.owx', 'owlapi/apitest/nestedAnnotationsOriginal.owx', 'owlapi/features/owlxml_anonloop.owx'];

/**
 * The OWL API also turns the root element's default XML namespace (`xmlns="...owl#"`) into the ':'
 * prefix. XML namespace declarations are not OWL prefixes (only <Prefix> elements are), so Athene
 * leaves ':' out unless a <Prefix name=""> declares it.
 */
function expectedPrefixes(stats: Record<string, unknown>, o: Ontology): Record<string, string> {
  const p = { ...(stats.prefixes as Record<string, string>) };
  if (p[':'] === 'http://www.w3.org/2002/07/owl#' && !o.prefixes.has(':')) delete p[':'];
  return p;
}

for (const rel of WITH_REFERENCE) {
  test(`${rel} gives the reference's axiom count, header and prefixes`, () => {
    const o = load(rel);
    const stats = referenceStats(rel)!;
    assert.equal(o.id.iri, stats.ontologyIRI);
    assert.equal(o.id.versionIri, stats.versionIRI);
    assert.equal(o.axiomCount, stats.axioms);
    assert.deepEqual([...o.imports], stats.importsDeclared);
    assert.deepEqual(Object.fromEntries(o.prefixes), expectedPrefixes(stats, o));
  });
}

test('owlapi/primer/primer.owx matches the primer.ofn reference except where the two files differ', () => {
  const o = load('owlapi/primer/primer.owx');
  const { missing, extra } = compareWithReference('owlapi/primer/primer.ofn', axiomLines(o.axioms()));
  const FAMILY = 'http://example.com/owl/families/';
  const STRING = 'http://www.w3.org/2001/XMLSchema#string';
  const comment = (lex: string) =>
    `SubClassOf(Annotation(<http://www.w3.org/2000/01/rdf-schema#comment> "${lex}"^^<${STRING}>) <${FAMILY}Man> <${FAMILY}Person>)`;
  // primer.owx writes the literal with its quotes inside the element: "\"States ...\""
  assert.deepEqual(missing, [comment('States that every man is a person.')]);
  assert.deepEqual(extra.sort(), [
    // primer.owx declares Meg; primer.ofn only uses her
    `Declaration(NamedIndividual(<${FAMILY}Meg>))`,
    comment('\\"States that every man is a person.\\"'),
  ]);
  assert.equal(o.id.iri, 'http://example.com/owl/families');
});

test('owlapi/apitest/declareDatatypes.owx (no reference) reads its datatypes and typed comments', () => {
  const o = load('owlapi/apitest/declareDatatypes.owx');
  const NS = 'http://www.semanticweb.org/owlapi-datatypes';
  const lines = axiomLines(o.axioms());
  assert.equal(lines.length, 5);
  assert.ok(lines.includes(`Declaration(Datatype(<${NS}#myDatatype>))`));
  assert.ok(
    lines.includes(
      `AnnotationAssertion(<http://www.w3.org/2000/01/rdf-schema#comment> <http://www.w3.org/2002/07/owl#Thing> "comment with datatype myDatatype2"^^<${NS}#myDatatype2>)`,
    ),
  );
  assert.equal(o.id.iri, NS);
});
