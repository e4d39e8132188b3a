// rdf:parseType="Literal" content is an rdf:XMLLiteral in exclusive canonical form (RDF 1.1 Concepts §5.1;
// Exclusive XML Canonicalization 1.0): escaped text and attribute values, sorted attributes, and the
// namespaces each element visibly uses declared on it. The raw text the streaming parser hands is not even
// well-formed XML when it holds '&', '<' or a quote.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRdfXml } from '../../src/model/formats/rdfxml-reader.js';
import type { Literal } from '../../src/model/terms.js';

test('an rdf:parseType="Literal" value is well-formed exclusive canonical XML', async () => {
  const o = await readRdfXml(`<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/" xmlns:h="http://www.w3.org/1999/xhtml">
  <rdf:Description rdf:about="http://ex.org/a">
    <ex:note rdf:parseType="Literal">A &amp; B &lt; C <h:b title="say &quot;hi&quot; &amp; go" class="x">bold</h:b><![CDATA[ 1 < 2 ]]><h:br/></ex:note>
  </rdf:Description>
</rdf:RDF>`);
  const values = [...o.axioms()].flatMap((a) => (a.kind === 'AnnotationAssertion' ? [a.value as Literal] : []));
  assert.equal(values.length, 1);
  const [value] = values;
  assert.ok(value);
  assert.equal(value.datatype, 'http://www.w3.org/1999/02/22-rdf-syntax-ns#XMLLiteral');
  assert.equal(
    value.lex,
    'A &amp; B &lt; C <h:b xmlns:h="http://www.w3.org/1999/xhtml" class="x" title="say &quot;hi&quot; &amp; go">bold</h:b> 1 &lt; 2 <h:br xmlns:h="http://www.w3.org/1999/xhtml"></h:br>',
  );
});
