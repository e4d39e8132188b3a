// Deterministic labels for the anonymous individuals of an ontology, for writers: numbered in the order of
// the content hash of the axioms and ontology annotations around each one (`anonymousHashes`), so the
// labels depend neither on blank-node labels of the source nor on insertion order. Individuals with equal
// hashes have identical surroundings and are interchangeable in the output.

import type { AnonymousIndividual } from '../terms.js';
import type { Ontology } from '../ontology.js';
import { anonymousHashes } from './axiom-lines.js';

export function anonymousLabels(o: Ontology, prefix: string): Map<AnonymousIndividual, string> {
  const hashed = [...anonymousHashes([...o.axioms(), ...o.annotations])].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(hashed.map(([x], i) => [x, prefix + (i + 1)]));
}
