import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readObo } from '../../src/model/formats/obo/reader.js';
import { OboWriteError, writeObo } from '../../src/model/formats/obo/writer.js';
import { ParseError } from '../../src/model/formats/errors.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { Ontology } from '../../src/model/ontology.js';
import { checkProfile } from '../../src/model/profiles/check.js';
import {
  annotationAssertion,
  annotationProperty,
  cls,
  dataProperty,
  declaration,
  iriNode,
  literal,
  objectUnionOf,
  subClassOf,
} from '../../src/model/terms.js';
import { at } from '../support/at.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// compiled to dist/test/obo; fixtures stay in the source tree
const fixture = (name: string) => readFileSync(path.resolve(here, '../../../test/fixtures/obo', name), 'utf8');

/** Axiom lines with the long namespaces shortened, for readable expectations. */
function short(o: Ontology): string[] {
  return axiomLines(o.axioms()).map((l) =>
    l
      .replaceAll('http://purl.obolibrary.org/obo/', 'obo:')
      .replaceAll('http://www.geneontology.org/formats/oboInOwl#', 'oio:')
      .replaceAll('http://www.w3.org/2001/XMLSchema#', 'xsd:')
      .replaceAll('http://www.w3.org/2000/01/rdf-schema#', 'rdfs:'),
  );
}

test('reads every tag of the GO-like fixture into the standard OWL mapping', () => {
  const o = readObo(fixture('mini-go.obo'));
  assert.deepEqual(short(o), [
    'AnnotationAssertion(<obo:IAO_0000233> <obo:GO_0009987> "https://github.com/geneontology/go-ontology/issues/1"^^<xsd:anyURI>)',
    'AnnotationAssertion(<obo:IAO_0100001> <obo:GO_0000005> <obo:GO_0009987>)',
    'AnnotationAssertion(<oio:consider> <obo:GO_0000005> "GO:0008150"^^<xsd:string>)',
    'AnnotationAssertion(<oio:created_by> <obo:GO_0008150> "jl"^^<xsd:string>)',
    'AnnotationAssertion(<oio:creation_date> <obo:GO_0008150> "2010-01-01T00:00:00Z"^^<xsd:string>)',
    'AnnotationAssertion(<oio:custom_tag> <obo:GO_0000005> "some value"^^<xsd:string>)',
    'AnnotationAssertion(<oio:hasAlternativeId> <obo:GO_0008150> "GO:0000004"^^<xsd:string>)',
    'AnnotationAssertion(<oio:hasDbXref> <obo:BFO_0000050> "BFO:0000050"^^<xsd:string>)',
    'AnnotationAssertion(<oio:hasDbXref> <obo:GO_0008150> "Wikipedia:Biological_process"^^<xsd:string>)',
    'AnnotationAssertion(<oio:hasNarrowSynonym> <obo:GO_0008150> "biological process"^^<xsd:string>)',
    'AnnotationAssertion(<oio:hasOBONamespace> <obo:GO_0008150> "biological_process"^^<xsd:string>)',
    'AnnotationAssertion(<oio:hasScope> <obo:go#systematic_synonym> "EXACT"^^<xsd:string>)',
    'AnnotationAssertion(<oio:id> <obo:BFO_0000050> "part_of"^^<xsd:string>)',
    'AnnotationAssertion(<oio:id> <obo:GO_0000003> "GO:0000003"^^<xsd:string>)',
    'AnnotationAssertion(<oio:id> <obo:GO_0000005> "GO:0000005"^^<xsd:string>)',
    'AnnotationAssertion(<oio:id> <obo:GO_0008150> "GO:0008150"^^<xsd:string>)',
    'AnnotationAssertion(<oio:id> <obo:GO_0009987> "GO:0009987"^^<xsd:string>)',
    'AnnotationAssertion(<oio:id> <obo:GO_INST1> "GO:INST1"^^<xsd:string>)',
    'AnnotationAssertion(<oio:id> <obo:go#has_part> "has_part"^^<xsd:string>)',
    'AnnotationAssertion(<oio:id> <obo:go#overlaps> "overlaps"^^<xsd:string>)',
    'AnnotationAssertion(<oio:id> <obo:go#shorthand> "shorthand"^^<xsd:string>)',
    'AnnotationAssertion(<oio:inSubset> <obo:GO_0008150> <obo:go#goslim_generic>)',
    'AnnotationAssertion(<oio:is_class_level> <obo:go#shorthand> "true"^^<xsd:string>)',
    'AnnotationAssertion(<oio:shorthand> <obo:BFO_0000050> "part_of"^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:comment> <obo:GO_0008150> "Note that, in addition to forming the root\\nof the tree."^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:comment> <obo:go#goslim_generic> "Generic GO slim"^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:label> <obo:BFO_0000050> "part of"^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:label> <obo:GO_0000003> "reproduction! with \\"escapes\\""^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:label> <obo:GO_0000005> "obsolete ribosomal chaperone activity"^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:label> <obo:GO_0008150> "biological_process"^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:label> <obo:GO_0009987> "cellular process"^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:label> <obo:GO_INST1> "an instance"^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:label> <obo:go#has_part> "has part"^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:label> <obo:go#shorthand> "shorthand"^^<xsd:string>)',
    'AnnotationAssertion(<rdfs:label> <obo:go#systematic_synonym> "Systematic synonym"^^<xsd:string>)',
    'AnnotationAssertion(<http://www.w3.org/2002/07/owl#deprecated> <obo:GO_0000005> "true"^^<xsd:boolean>)',
    'AnnotationAssertion(Annotation(<oio:hasDbXref> "GOC:mah"^^<xsd:string>) Annotation(<oio:hasSynonymType> <obo:go#systematic_synonym>) <oio:hasExactSynonym> <obo:GO_0008150> "physiological process"^^<xsd:string>)',
    'AnnotationAssertion(Annotation(<oio:hasDbXref> "GOC:pdt"^^<xsd:string>) Annotation(Annotation(<rdfs:label> "a paper"^^<xsd:string>) <oio:hasDbXref> "PMID:123"^^<xsd:string>) <obo:IAO_0000115> <obo:GO_0008150> "A biological process is the execution of a genetically-encoded biological module."^^<xsd:string>)',
    'AsymmetricObjectProperty(<obo:go#has_part>)',
    'ClassAssertion(<obo:GO_0008150> <obo:GO_INST1>)',
    'Declaration(AnnotationProperty(<obo:IAO_0000115>))',
    'Declaration(AnnotationProperty(<obo:IAO_0000233>))',
    'Declaration(AnnotationProperty(<obo:IAO_0100001>))',
    'Declaration(AnnotationProperty(<obo:go#goslim_generic>))',
    'Declaration(AnnotationProperty(<obo:go#shorthand>))',
    'Declaration(AnnotationProperty(<obo:go#systematic_synonym>))',
    'Declaration(AnnotationProperty(<http://purl.org/dc/terms/license>))',
    'Declaration(AnnotationProperty(<oio:SubsetProperty>))',
    'Declaration(AnnotationProperty(<oio:SynonymTypeProperty>))',
    'Declaration(AnnotationProperty(<oio:consider>))',
    'Declaration(AnnotationProperty(<oio:created_by>))',
    'Declaration(AnnotationProperty(<oio:creation_date>))',
    'Declaration(AnnotationProperty(<oio:custom_tag>))',
    'Declaration(AnnotationProperty(<oio:default-namespace>))',
    'Declaration(AnnotationProperty(<oio:hasAlternativeId>))',
    'Declaration(AnnotationProperty(<oio:hasDbXref>))',
    'Declaration(AnnotationProperty(<oio:hasExactSynonym>))',
    'Declaration(AnnotationProperty(<oio:hasNarrowSynonym>))',
    'Declaration(AnnotationProperty(<oio:hasOBOFormatVersion>))',
    'Declaration(AnnotationProperty(<oio:hasOBONamespace>))',
    'Declaration(AnnotationProperty(<oio:hasScope>))',
    'Declaration(AnnotationProperty(<oio:hasSynonymType>))',
    'Declaration(AnnotationProperty(<oio:id>))',
    'Declaration(AnnotationProperty(<oio:inSubset>))',
    'Declaration(AnnotationProperty(<oio:is_class_level>))',
    'Declaration(AnnotationProperty(<oio:is_reversible_property_chain>))',
    'Declaration(AnnotationProperty(<oio:shorthand>))',
    'Declaration(AnnotationProperty(<oio:source>))',
    'Declaration(Class(<obo:GO_0000003>))',
    'Declaration(Class(<obo:GO_0000004>))',
    'Declaration(Class(<obo:GO_0000005>))',
    'Declaration(Class(<obo:GO_0008150>))',
    'Declaration(Class(<obo:GO_0009987>))',
    'Declaration(NamedIndividual(<obo:GO_INST1>))',
    'Declaration(NamedIndividual(<obo:GO_INST2>))',
    'Declaration(ObjectProperty(<obo:BFO_0000050>))',
    'Declaration(ObjectProperty(<obo:go#has_part>))',
    'Declaration(ObjectProperty(<obo:go#overlaps>))',
    'DisjointClasses(<obo:GO_0000003> <obo:GO_0009987>)',
    'EquivalentClasses(<obo:GO_0000003> <obo:GO_0000004>)',
    'EquivalentClasses(<obo:GO_0000003> ObjectUnionOf(<obo:GO_0008150> <obo:GO_0009987>))',
    'EquivalentClasses(Annotation(<oio:source> "GOC:y"^^<xsd:string>) <obo:GO_0000003> ObjectIntersectionOf(<obo:GO_0008150> ObjectSomeValuesFrom(<obo:BFO_0000050> <obo:GO_0009987>)))',
    'FunctionalObjectProperty(<obo:go#overlaps>)',
    'InverseObjectProperties(<obo:BFO_0000050> <obo:go#has_part>)',
    'ObjectPropertyAssertion(<obo:BFO_0000050> <obo:GO_INST1> <obo:GO_INST2>)',
    'ObjectPropertyDomain(<obo:BFO_0000050> <obo:GO_0008150>)',
    'ObjectPropertyRange(<obo:BFO_0000050> <obo:GO_0008150>)',
    'SubAnnotationPropertyOf(<obo:go#goslim_generic> <oio:SubsetProperty>)',
    'SubAnnotationPropertyOf(<obo:go#systematic_synonym> <oio:SynonymTypeProperty>)',
    'SubClassOf(<obo:GO_0009987> ObjectExactCardinality(2 <obo:go#has_part> <obo:GO_0008150>))',
    'SubClassOf(<obo:GO_0009987> ObjectSomeValuesFrom(<obo:BFO_0000050> <obo:GO_0008150>))',
    'SubClassOf(Annotation(<oio:source> "GOC:x"^^<xsd:string>) <obo:GO_0009987> <obo:GO_0008150>)',
    'SubObjectPropertyOf(<obo:BFO_0000050> <obo:go#overlaps>)',
    'SubObjectPropertyOf(Annotation(<oio:is_reversible_property_chain> "true"^^<xsd:string>) ObjectPropertyChain(<obo:go#has_part> <obo:BFO_0000050>) <obo:BFO_0000050>)',
    'SubObjectPropertyOf(ObjectPropertyChain(<obo:BFO_0000050> <obo:BFO_0000050>) <obo:BFO_0000050>)',
    'TransitiveObjectProperty(<obo:BFO_0000050>)',
  ]);
  assert.deepEqual(o.unmapped, []);
});

test('reads the header: ontology id, data-version, imports, ontology annotations, idspaces', () => {
  const o = readObo(fixture('mini-go.obo'));
  assert.deepEqual(o.id, {
    iri: 'http://purl.obolibrary.org/obo/go.owl',
    versionIri: 'http://purl.obolibrary.org/obo/go/releases/2024-01-01/go.owl',
  });
  assert.deepEqual([...o.imports], ['http://purl.obolibrary.org/obo/go/extensions/go-bfo-bridge.owl']);
  const anns = [...o.annotations]
    .map(
      (a) =>
        a.property.iri.replace('http://www.geneontology.org/formats/oboInOwl#', 'oio:') +
        ' ' +
        (a.value.kind === 'Literal' ? a.value.lex : a.value.kind === 'IRI' ? a.value.iri : '?'),
    )
    .sort();
  assert.deepEqual(anns, [
    'http://purl.org/dc/terms/license http://creativecommons.org/licenses/by/4.0/',
    'http://www.w3.org/2000/01/rdf-schema#comment A small GO-like test file.',
    'oio:default-namespace gene_ontology',
    'oio:hasOBOFormatVersion 1.4',
  ]);
  assert.equal(o.prefixes.get('GOREL:'), 'http://purl.obolibrary.org/obo/GOREL_');
  assert.equal(o.format, 'obo');
});

test('unprefixed ids without an ontology tag use the base option; idspaces expand ids', () => {
  const o = readObo('idspace: EX http://ex.org/terms#\n\n[Term]\nid: EX:1\nis_a: local\n', { base: 'http://ex.org/doc' });
  assert.deepEqual(axiomLines(o.axioms()), [
    'AnnotationAssertion(<http://www.geneontology.org/formats/oboInOwl#id> <http://ex.org/terms#1> "EX:1"^^<http://www.w3.org/2001/XMLSchema#string>)',
    'Declaration(AnnotationProperty(<http://www.geneontology.org/formats/oboInOwl#id>))',
    'Declaration(Class(<http://ex.org/doc#local>))',
    'Declaration(Class(<http://ex.org/terms#1>))',
    'SubClassOf(<http://ex.org/terms#1> <http://ex.org/doc#local>)',
  ]);
});

test('unknown stanza types are kept in unmapped, not dropped silently', () => {
  const o = readObo('ontology: x\n\n[Annotation]\nid: A1\nfoo: bar\n');
  assert.equal(o.unmapped.length, 1);
  assert.match(at(o.unmapped, 0).reason, /Annotation/);
  assert.equal(o.axiomCount, 0);
});

function oboError(text: string): ParseError {
  try {
    readObo(text);
  } catch (e) {
    assert.ok(e instanceof ParseError, `expected ParseError, got ${e}`);
    assert.equal(e.format, 'obo');
    return e;
  }
  assert.fail('no error');
}

test('errors carry the line number', () => {
  const head = 'format-version: 1.4\nontology: t\n\n[Term]\nid: T:1\n';
  let e = oboError(head + 'this line has no tag\n');
  assert.equal(e.line, 6);
  e = oboError(head + 'def: "unterminated [X:1]\n');
  assert.equal(e.line, 6);
  assert.match(e.detail, /unterminated quoted string/);
  e = oboError(head + 'name: ok\nis_obsolete: maybe\n');
  assert.equal(e.line, 7);
  assert.match(e.detail, /true or false/);
  e = oboError(head + 'synonym: "s" SOMETIMES []\n');
  assert.match(e.detail, /unknown synonym scope "SOMETIMES"/);
  e = oboError(head + 'relationship: part_of\n');
  assert.match(e.detail, /relationship needs a relation id and a class id/);
  e = oboError(head + 'is_a: T:2 {cardinality="x"}\nrelationship: r T:2 {cardinality="many"}\n');
  assert.equal(e.line, 7);
  e = oboError(head + '\n[Term]\nname: no id here\n');
  assert.equal(e.line, 7);
  assert.match(e.detail, /without id/);
  e = oboError('ontology: t\n[Term\nid: T:1\n');
  assert.equal(e.line, 2);
});

test('write → read gives back the same axioms and header, deterministically', () => {
  const o = readObo(fixture('mini-go.obo'));
  const text = writeObo(o);
  const back = readObo(text);
  assert.deepEqual(axiomLines(back.axioms()), axiomLines(o.axioms()));
  assert.deepEqual(back.id, o.id);
  assert.deepEqual([...back.imports], [...o.imports]);
  assert.deepEqual(new Set(back.annotations), new Set(o.annotations));
  assert.equal(writeObo(back), text);
});

test('writer produces conventional OBO lines', () => {
  const text = writeObo(readObo(fixture('mini-go.obo')));
  const lines = text.split('\n');
  assert.equal(lines[0], 'format-version: 1.4');
  for (const expected of [
    'ontology: go',
    'data-version: releases/2024-01-01',
    'subsetdef: goslim_generic "Generic GO slim"',
    'synonymtypedef: systematic_synonym "Systematic synonym" EXACT',
    'def: "A biological process is the execution of a genetically-encoded biological module." [GOC:pdt, PMID:123 "a paper"]',
    'synonym: "physiological process" EXACT systematic_synonym [GOC:mah]',
    'is_a: GO:0008150 {source="GOC:x"}',
    'relationship: has_part GO:0008150 {cardinality="2"}',
    'name: reproduction\\! with \\"escapes\\"',
    'id: part_of',
    'xref: BFO:0000050',
    'equivalent_to_chain: has_part part_of',
    'is_metadata_tag: true',
  ])
    assert.ok(lines.includes(expected), `missing line: ${expected}`);
  assert.ok(lines.indexOf('[Term]') < lines.indexOf('[Typedef]') && lines.indexOf('[Typedef]') < lines.indexOf('[Instance]'));
});

test('OBO 1.4 → OWL mapping, owl-axioms header tag: axioms with no OBO tag are written as functional syntax and read back', () => {
  const o = new Ontology();
  o.id = { iri: 'http://purl.obolibrary.org/obo/t.owl', versionIri: null };
  const a = cls('http://purl.obolibrary.org/obo/T_1');
  o.add(declaration(a));
  const union = subClassOf(a, objectUnionOf([cls('http://purl.obolibrary.org/obo/T_2'), cls('http://purl.obolibrary.org/obo/T_3')]));
  const dp = declaration(dataProperty('http://purl.obolibrary.org/obo/T_4'));
  const tagged = annotationAssertion(
    annotationProperty('http://www.w3.org/2000/01/rdf-schema#label'),
    iriNode(a.iri),
    literal('thing "one"', undefined, 'en'),
  );
  o.add(union);
  o.add(dp);
  o.add(tagged);
  const text = writeObo(o);
  const line = text.split('\n').find((l) => l.startsWith('owl-axioms: '));
  assert.ok(line !== undefined, text);
  assert.match(line, /ObjectUnionOf/);
  assert.ok(line.includes('\\\\\\"one\\\\\\"'), 'quotes inside owl-axioms are escaped, backslashes doubled');
  const back = readObo(text);
  for (const ax of [union, dp, tagged]) assert.ok(back.has(ax), `read back: ${axiomLines([ax])[0]}`);
});

test('a second name, def or comment goes to owl-axioms: OBO 1.4 allows one per stanza', () => {
  const o = readObo('ontology: t\n\n[Term]\nid: T:1\nname: b\nname: a\n');
  const text = writeObo(o);
  assert.match(text, /^name: a$/m);
  assert.doesNotMatch(text, /^name: b$/m);
  assert.deepEqual(axiomLines(readObo(text).axioms()), axiomLines(o.axioms()));
});

test('an ontology IRI that is not an OBO PURL is written whole, and a version IRI travels in owl-axioms', () => {
  const o = new Ontology();
  o.id = { iri: 'http://example.org/onto', versionIri: 'http://example.org/onto/v1' };
  const text = writeObo(o);
  assert.match(text, /^ontology: http:\/\/example.org\/onto$/m);
  assert.deepEqual(readObo(text).id, o.id);
});

test('an IRI with no OBO id form is reported before anything is written', () => {
  const o = new Ontology();
  o.add(declaration(cls('relative-name')));
  assert.throws(
    () => writeObo(o),
    (e: unknown) => e instanceof OboWriteError && /no OBO id form/.test(e.message) && e.iris[0] === 'relative-name',
  );
  assert.match(writeObo(o, { onLossy: 'drop' }), /^id: relative-name$/m);
});

test('a synonym without scope is RELATED; escapes in ids and text are undone', () => {
  const o = readObo('ontology: t\n\n[Term]\nid: T:1\nsynonym: "tab\\there" []\nname: a\\Wb\n');
  const lines = short(o);
  assert.ok(lines.includes('AnnotationAssertion(<oio:hasRelatedSynonym> <obo:T_1> "tab\\there"^^<xsd:string>)'), lines.join('\n'));
  assert.ok(lines.includes('AnnotationAssertion(<rdfs:label> <obo:T_1> "a b"^^<xsd:string>)'));
});

test('§5.8.1 typing: the reader declares the annotation properties it introduces and the entities only referenced', () => {
  for (const name of ['mini-go.obo', 'go-style-edit.obo']) {
    const o = readObo(fixture(name));
    const undeclared = checkProfile([o], 'DL', o).violations.filter((v) => v.kind === 'undeclared_entity');
    assert.deepEqual(
      undeclared.map((v) => v.message),
      [],
      name,
    );
  }
  const lines = short(readObo(fixture('go-style-edit.obo')));
  for (const expected of [
    'Declaration(AnnotationProperty(<obo:IAO_0000115>))',
    'Declaration(AnnotationProperty(<oio:hasDbXref>))',
    'Declaration(AnnotationProperty(<oio:hasExactSynonym>))',
    'Declaration(AnnotationProperty(<oio:source>))',
    'Declaration(AnnotationProperty(<http://purl.org/dc/terms/license>))',
    'Declaration(Class(<obo:CHEBI_15377>))',
    'Declaration(Class(<obo:NCBITaxon_131567>))',
    'Declaration(NamedIndividual(<obo:GOX_INST2>))',
  ])
    assert.ok(lines.includes(expected), `missing ${expected}`);
});

test('OBO 1.4 → OWL: a relationship whose relation is_metadata_tag is an annotation, not an existential restriction', () => {
  const lines = short(readObo(fixture('go-style-edit.obo')));
  assert.ok(lines.includes('AnnotationAssertion(<obo:IAO_0000233> <obo:GOX_0000002> <obo:GOX_0000005>)'), lines.join('\n'));
  assert.ok(!lines.some((l) => l.includes('ObjectSomeValuesFrom(<obo:IAO_0000233>')));
  assert.ok(lines.includes('SubClassOf(<obo:GOX_0000002> ObjectSomeValuesFrom(<obo:RO_0002160> <obo:NCBITaxon_131567>))'));
  const text = writeObo(readObo(fixture('go-style-edit.obo')));
  assert.match(text, /^relationship: term_tracker_item GOX:0000005$/m);
});

test('OBO 1.4 → OWL: expand_expression_to is IAO:0000424 with a quoted text; escaped quotes are written back escaped inside the quotes', () => {
  const o = readObo(fixture('go-style-edit.obo'));
  const lines = short(o);
  assert.ok(
    lines.includes(
      'AnnotationAssertion(Annotation(<oio:hasDbXref> "GOC:cjm"^^<xsd:string>) <obo:IAO_0000424> <obo:RO_0002160> ' +
        '"GOX:0000001 and (\\"has part\\" some (RO:0002162 only ?Y))"^^<xsd:string>)',
    ),
    lines.filter((l) => l.includes('IAO_0000424')).join('\n'),
  );
  const text = writeObo(o);
  assert.ok(
    text.split('\n').includes('expand_expression_to: "GOX:0000001 and (\\"has part\\" some (RO:0002162 only ?Y))" [GOC:cjm]'),
    text,
  );
  assert.ok(text.split('\n').includes('expand_assertion_to: "Class: ?X SubClassOf: RO:0002162 only ?Y" []'));
});

test('the writer writes back everything the reader reads: a GO-style -edit.obo round-trips losslessly', () => {
  const o = readObo(fixture('go-style-edit.obo'));
  const text = writeObo(o);
  const back = readObo(text);
  assert.deepEqual(axiomLines(back.axioms()), axiomLines(o.axioms()));
  assert.deepEqual(back.id, o.id);
  assert.deepEqual([...back.imports], [...o.imports]);
  assert.deepEqual([...back.annotations].map((a) => a.id).sort(), [...o.annotations].map((a) => a.id).sort());
  assert.equal(writeObo(back), text);
  for (const expected of [
    'def: "Any constituent part of a cell, with a \\"quoted\\" word." []',
    'synonym: "bio process" RELATED syngo_official_label [] {source="SynGO:1"}',
    'xref: Wikipedia:Biological_process "Wikipedia entry"',
    'intersection_of: GOX:0000001 {source="GOC:y"}',
    'intersection_of: part_of GOX:0000002',
    'relationship: part_of CL:0000000 {all_only="true"}',
    'is_obsolete: true',
    'replaced_by: GOX:0000002',
    'consider: GOX:0000003',
    'subset: gocheck_do_not_annotate',
    'property_value: term_tracker_item "https://github.com/geneontology/go-ontology/issues/1" xsd:anyURI',
  ])
    assert.ok(text.split('\n').includes(expected), `missing line: ${expected}`);
});
