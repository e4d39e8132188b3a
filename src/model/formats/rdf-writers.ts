// The RDF document writers (each `(o: Ontology) => string`), over the OWL 2 RDF mapping of
// rdf/owl-to-triples.ts.

export { writeTurtle, writeTriG, writeNTriples, writeNQuads } from './turtle-writer.js';
export { writeRdfXml } from './rdfxml-writer.js';
export { writeJsonLd } from './jsonld-writer.js';
