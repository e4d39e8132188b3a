// An RDF document is mapped with the declarations of its loaded imports closure (OWL 2 Mapping to RDF
// Graphs §3.1, as the OWL API reads them): a cardinality restriction, a someValuesFrom and an assertion on a
// data property declared only in an import are data axioms; without the import they fall back to the lax
// reading. test/fixtures/imports: people.ttl imports people-base.ttl, which declares base:age and base:Years.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDocument } from '../../src/model/formats/registry.js';
import { declaredKinds, importsRetype } from '../../src/model/rdf/imported-kinds.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => readFile(path.resolve(here, '../../../test/fixtures/imports', name), 'utf8');

const P = 'http://example.org/people#';
const B = 'http://example.org/people-base#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

const logical = (lines: string[]) => lines.filter((l) => !l.startsWith('Declaration('));

test('the imports closure declarations make restrictions and assertions on an imported data property data axioms', async () => {
  const base = (await readDocument(await fixture('people-base.ttl'))).ontology;
  const text = await fixture('people.ttl');
  const alone = (await readDocument(text)).ontology;
  assert.deepEqual(
    logical(axiomLines(alone.axioms())),
    [
      `AnnotationAssertion(<${B}age> <${P}alice> "42"^^<${XSD}integer>)`,
      `ClassAssertion(<${P}Person> <${P}alice>)`,
      `SubClassOf(<${P}Person> ObjectMaxCardinality(1 <${B}age>))`,
      `SubClassOf(<${P}Person> ObjectSomeValuesFrom(<${B}age> <${B}Years>))`,
    ],
    'without the import, the lax reading',
  );

  const kinds = declaredKinds([base]);
  assert.equal(importsRetype(alone, kinds), true);
  const typed = (await readDocument(text, { importedKinds: kinds })).ontology;
  assert.deepEqual(logical(axiomLines(typed.axioms())), [
    `ClassAssertion(<${P}Person> <${P}alice>)`,
    `DataPropertyAssertion(<${B}age> <${P}alice> "42"^^<${XSD}integer>)`,
    `SubClassOf(<${P}Person> DataMaxCardinality(1 <${B}age>))`,
    `SubClassOf(<${P}Person> DataSomeValuesFrom(<${B}age> <${B}Years>))`,
  ]);
  assert.equal(importsRetype(typed, kinds), false, 'a reading made with the closure needs no other');
  // the imported declarations type the IRIs; they are not the document's own axioms
  assert.ok(!axiomLines(typed.axioms()).some((l) => l.includes(`DataProperty(<${B}age>)`)));
});

test('a document that declares the property itself, or never mentions it, is not read again', async () => {
  const kinds = declaredKinds([(await readDocument(await fixture('people-base.ttl'))).ontology]);
  const own = (
    await readDocument(`<${B}age> a <http://www.w3.org/2002/07/owl#ObjectProperty> .\n<${P}a> <${B}age> <${P}b> .\n`, { format: 'turtle' })
  ).ontology;
  assert.equal(importsRetype(own, kinds), false, "the document's own declaration wins (Mapping to RDF Graphs §3.1)");
  const typed = (
    await readDocument(`<${B}age> a <http://www.w3.org/2002/07/owl#ObjectProperty> .\n<${P}a> <${B}age> <${P}b> .\n`, {
      format: 'turtle',
      importedKinds: kinds,
    })
  ).ontology;
  assert.deepEqual(logical(axiomLines(typed.axioms())), [`ObjectPropertyAssertion(<${B}age> <${P}a> <${P}b>)`]);
  const unrelated = (await readDocument(`<${P}X> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <${P}Y> .\n`, { format: 'turtle' }))
    .ontology;
  assert.equal(importsRetype(unrelated, kinds), false);
});

test('RDF/XML and JSON-LD documents are read with the imported kinds too', async () => {
  const kinds = declaredKinds([(await readDocument(await fixture('people-base.ttl'))).ontology]);
  const rdfxml = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:owl="http://www.w3.org/2002/07/owl#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">
  <owl:Class rdf:about="${P}Person">
    <rdfs:subClassOf><owl:Restriction><owl:onProperty rdf:resource="${B}age"/><owl:cardinality rdf:datatype="${XSD}nonNegativeInteger">1</owl:cardinality></owl:Restriction></rdfs:subClassOf>
  </owl:Class>
</rdf:RDF>`;
  const jsonld = JSON.stringify({
    '@id': `${P}Person`,
    'http://www.w3.org/2000/01/rdf-schema#subClassOf': {
      '@type': 'http://www.w3.org/2002/07/owl#Restriction',
      'http://www.w3.org/2002/07/owl#onProperty': { '@id': `${B}age` },
      'http://www.w3.org/2002/07/owl#minCardinality': { '@value': '1', '@type': `${XSD}nonNegativeInteger` },
    },
  });
  const fromXml = (await readDocument(rdfxml, { format: 'rdfxml', importedKinds: kinds })).ontology;
  assert.ok(
    axiomLines(fromXml.axioms()).includes(`SubClassOf(<${P}Person> DataExactCardinality(1 <${B}age>))`),
    axiomLines(fromXml.axioms()).join('\n'),
  );
  const fromJson = (await readDocument(jsonld, { format: 'jsonld', importedKinds: kinds })).ontology;
  assert.ok(
    axiomLines(fromJson.axioms()).includes(`SubClassOf(<${P}Person> DataMinCardinality(1 <${B}age>))`),
    axiomLines(fromJson.axioms()).join('\n'),
  );
});
