// Deterministic labels for the anonymous individuals of an ontology, for writers: numbered in the order of
// a hash of the full-IRI renderings of the axioms and ontology annotations that mention each one, so the
// labels depend neither on blank-node labels of the source nor on insertion order. Individuals with equal
// hashes have identical surroundings and are interchangeable in the output.

import { createHash } from 'node:crypto';
import type { Annotation, AnonymousIndividual, Axiom, Node } from '../terms.js';
import type { Ontology } from '../ontology.js';
import { anonymousIndividuals } from '../walk.js';
import { LineRenderer } from './axiom-lines.js';

export function anonymousLabels(o: Ontology, prefix: string): Map<AnonymousIndividual, string> {
  const mentions = new Map<AnonymousIndividual, (Axiom | Annotation)[]>();
  const collect = (n: Axiom | Annotation) => {
    for (const x of anonymousIndividuals(n as Node)) {
      let list = mentions.get(x);
      if (list === undefined) mentions.set(x, (list = []));
      list.push(n);
    }
  };
  for (const a of o.axioms()) collect(a);
  for (const a of o.annotations) collect(a);
  const hashed: { x: AnonymousIndividual; h: string }[] = [];
  for (const [x, list] of mentions) {
    const lr = new LineRenderer((y) => (y === x ? '_:SELF' : '_:*'));
    const text = list.map((n) => (n.kind === 'Annotation' ? 'Ontology' + lr.annotation(n) : lr.axiom(n))).sort().join('\n');
    hashed.push({ x, h: createHash('sha256').update(text, 'utf8').digest('hex') });
  }
  hashed.sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
  return new Map(hashed.map(({ x }, i) => [x, prefix + (i + 1)]));
}
