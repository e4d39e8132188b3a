// Profile-check test support: ontologies written in functional syntax, checked, summarized by kind.

import { readFunctional } from '../../src/model/formats/functional/reader.js';
import type { Ontology } from '../../src/model/ontology.js';
import { checkProfile } from '../../src/model/profiles/check.js';
import type { OwlProfile, ProfileReport } from '../../src/model/profiles/report.js';

export const PREFIXES =
  'Prefix(:=<http://ex.org/>)\nPrefix(xsd:=<http://www.w3.org/2001/XMLSchema#>)\nPrefix(owl:=<http://www.w3.org/2002/07/owl#>)\n' +
  'Prefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)\nPrefix(rdf:=<http://www.w3.org/1999/02/22-rdf-syntax-ns#>)\n';

/** The usual declarations: classes A–E, object properties p q r s t, data properties d e, individuals a b c. */
export const DECLS = [
  ...'ABCDE'.split('').map((c) => `Declaration(Class(:${c}))`),
  ...'pqrst'.split('').map((p) => `Declaration(ObjectProperty(:${p}))`),
  ...'de'.split('').map((d) => `Declaration(DataProperty(:${d}))`),
  ...'abc'.split('').map((i) => `Declaration(NamedIndividual(:${i}))`),
].join('\n');

/** An ontology `<http://ex.org/o>` (or `iri`) with the usual declarations and `body`. */
export function onto(body: string, iri = 'http://ex.org/o', header = ''): Ontology {
  return readFunctional(`${PREFIXES}Ontology(<${iri}>\n${header}${DECLS}\n${body}\n)\n`);
}

export function check(body: string, profile: OwlProfile = 'DL'): ProfileReport {
  const o = onto(body);
  return checkProfile([o], profile, o);
}

/** The sorted distinct violation kinds of a check. */
export function kinds(body: string, profile: OwlProfile = 'DL'): string[] {
  return [...new Set(check(body, profile).violations.map((v) => v.kind))].sort();
}
