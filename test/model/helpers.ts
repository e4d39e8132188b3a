// Small ontologies built in code for the model tests.

import { Ontology } from '../../src/model/ontology.js';
import { Workspace } from '../../src/model/workspace.js';
import * as t from '../../src/model/terms.js';
import { RDFS_LABEL } from '../../src/model/vocab.js';

export const EX = 'http://example.org/zoo';
export const ex = (local: string) => EX + '#' + local;

export function label(iri: string, text: string, lang?: string): t.AnnotationAssertion {
  return t.annotationAssertion(t.annotationProperty(RDFS_LABEL), t.iriNode(iri), t.literal(text, undefined, lang));
}

/** A zoo ontology: classes Animal, Dog (label "dog"), Cat; object property hasOwner; data property age; individual rex. */
export function zoo(): Ontology {
  const o = new Ontology();
  o.id = { iri: EX, versionIri: null };
  o.prefixes.set('zoo:', EX + '#');
  o.prefixes.set('rdfs:', 'http://www.w3.org/2000/01/rdf-schema#');
  for (const c of ['Animal', 'Dog', 'Cat']) o.add(t.declaration(t.cls(ex(c))));
  o.add(t.declaration(t.objectProperty(ex('hasOwner'))));
  o.add(t.declaration(t.dataProperty(ex('age'))));
  o.add(t.declaration(t.namedIndividual(ex('rex'))));
  o.add(t.subClassOf(t.cls(ex('Dog')), t.cls(ex('Animal'))));
  o.add(label(ex('Dog'), 'dog', 'en'));
  o.add(label(ex('Dog'), 'chien', 'fr'));
  return o;
}

export function workspaceWith(...ontologies: Ontology[]): Workspace {
  const ws = new Workspace();
  for (const o of ontologies) ws.load(o);
  return ws;
}
