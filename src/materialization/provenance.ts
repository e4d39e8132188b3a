// How a published axiom says where it came from (TOOLS.md 3.8): one axiom annotation, this property valued
// with an IRI under this prefix (the rest of the IRI is a digest of the axiom's source, closure, reasoner,
// category and content).

export const PROVENANCE_PROPERTY = 'http://www.w3.org/ns/prov#wasGeneratedBy';
export const PROVENANCE_PREFIX = 'urn:athene:materialization:';
