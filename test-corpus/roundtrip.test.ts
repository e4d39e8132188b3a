// Round trip: for every corpus file and every writable format, parse → write → parse gives the same
// axioms and the same header. RDF can type an entity only by declaring it, so the RDF writers add a
// declaration for each undeclared entity (as the OWL API does): for them the expected axioms are the
// original ones plus those declarations. One thing RDF cannot carry: when an IRI is declared as two kinds
// of property (annotation and object property, say; OWL 2 DL forbids it), an rdfs:domain, rdfs:range or
// rdfs:subPropertyOf triple on it, or an assertion using it, cannot say which property it belongs to, so
// for RDF formats the axioms about such IRIs, and about their sub-properties (whose kind is read through
// them), are left out of the comparison, declarations apart. And an annotation whose property lies in
// the RDF, RDFS or OWL namespace without being a built-in annotation property (a typo like rdfs:commment)
// is reserved vocabulary to the RDF mapping: the reader keeps such triples as unmapped, not as annotations.
// Manchester syntax, written standard as the OWL API writes it, declares every entity it mentions (each
// gets a frame) and leaves out what it has no form for (general class axioms, axioms on inverse
// properties, declaration annotations): for it the expected axioms are those it carries, and no written
// document has an `Axiom:` line.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { readDocument, writeDocument } from '../src/model/formats/registry.js';
import { implicitDeclarations } from '../src/model/rdf/owl-to-triples.js';
import { axiomLines, LineRenderer } from '../src/model/render/axiom-lines.js';
import type { FormatId, Ontology } from '../src/model/ontology.js';
import { annotation, withAnnotations, type Annotation, type Axiom } from '../src/model/terms.js';
import { BUILT_IN_ANNOTATION_PROPERTIES, OWL, RDF, RDFS } from '../src/model/vocab.js';
import { corpusBase, corpusDir, manifest } from './support/reference.js';
import { manchesterCarries } from '../test/support/manchester-carries.js';
import { EXPECTED_LOAD_FAILURES } from './support/known-differences.js';

const FORMATS: FormatId[] = ['turtle', 'ntriples', 'nquads', 'trig', 'rdfxml', 'jsonld', 'owlxml', 'ofn', 'manchester'];
const RDF_FORMATS = new Set<FormatId>(['turtle', 'ntriples', 'nquads', 'trig', 'rdfxml', 'jsonld']);

/** Renders annotations with every anonymous individual as one name: blank-node labels are not content. */
const anonymousBlind = new LineRenderer(() => '_:x');

/** IRIs declared (or implicitly declared by the RDF writers) as more than one kind of property, and their sub-properties. */
function punnedProperties(o: Ontology): Set<string> {
  const kinds = new Map<string, Set<string>>();
  for (const a of [...o.axioms(), ...implicitDeclarations(o)]) {
    if (a.kind !== 'Declaration' || !a.entity.kind.endsWith('Property')) continue;
    const set = kinds.get(a.entity.iri) ?? new Set<string>();
    set.add(a.entity.kind);
    kinds.set(a.entity.iri, set);
  }
  const ambiguous = new Set([...kinds].filter(([, k]) => k.size > 1).map(([iri]) => iri));
  for (let grown = true; grown;) {
    grown = false;
    for (const a of o.axioms()) {
      if (
        (a.kind === 'SubAnnotationPropertyOf' || a.kind === 'SubDataPropertyOf') &&
        ambiguous.has(a.sup.iri) &&
        !ambiguous.has(a.sub.iri)
      ) {
        ambiguous.add(a.sub.iri);
        grown = true;
      }
    }
  }
  return ambiguous;
}

const aboutAny = (iris: Set<string>) => (line: string) =>
  line.startsWith('Declaration(') || ![...iris].some((iri) => line.includes('<' + iri + '>'));

const RESERVED = [RDF, RDFS, OWL];
const reservedProperty = (iri: string) => !BUILT_IN_ANNOTATION_PROPERTIES.has(iri) && RESERVED.some((ns) => iri.startsWith(ns));

function keepRdfAnnotations(anns: readonly Annotation[]): Annotation[] {
  return anns
    .filter((a) => !reservedProperty(a.property.iri))
    .map((a) => annotation(a.property, a.value, keepRdfAnnotations(a.annotations)));
}

/** The axiom as RDF can carry it (see above). */
const asRdfCarries = (a: Axiom): Axiom => withAnnotations(a, keepRdfAnnotations(a.annotations));

function header(o: Ontology) {
  return {
    id: o.id,
    imports: [...o.imports].sort(),
    annotations: [...o.annotations].map((a) => anonymousBlind.annotation(a)).sort(),
  };
}

for (const entry of manifest().filter((e) => !EXPECTED_LOAD_FAILURES[e.path])) {
  test(`round trip ${entry.path}`, async () => {
    const text = await readFile(path.join(corpusDir, entry.path), 'utf8');
    const { ontology } = await readDocument(text, { base: corpusBase(entry.path), fileName: entry.path });
    const exact = axiomLines(ontology.axioms());
    const punned = punnedProperties(ontology);
    const rdfComparable = aboutAny(punned);
    const withDeclarations = axiomLines([...ontology.axioms(), ...implicitDeclarations(ontology)].map(asRdfCarries)).filter(rdfComparable);
    for (const format of FORMATS) {
      const expected = RDF_FORMATS.has(format) ? withDeclarations : format === 'manchester' ? manchesterCarries(ontology) : exact;
      const written = writeDocument(ontology, format);
      if (format === 'manchester') assert.doesNotMatch(written, /^Axiom:/m, 'standard Manchester syntax only');
      const { ontology: back } = await readDocument(written, { format, base: 'http://roundtrip.invalid/doc' });
      const got = axiomLines(back.axioms());
      assert.deepEqual(RDF_FORMATS.has(format) ? got.filter(rdfComparable) : got, expected, `axioms after ${format}`);
      assert.deepEqual(header(back), header(ontology), `header after ${format}`);
    }
  });
}
