// Anonymous individuals of stored changes. A change is stored with the node ids of its anonymous
// individuals, which name the same individuals for as long as the process that loaded the document runs
// (a revert finds them as they are). After a restart the document's anonymous individuals have other ids:
// an axiom to remove is then found by its shape (the axiom with every anonymous individual blanked), and
// the correspondence it establishes carries over to the later changes of the same replay or plan.

import type { AnonymousIndividual, Axiom } from '../model/terms.js';
import type { Ontology } from '../model/ontology.js';
import { axiomsWithAnonymous } from '../model/fingerprint.js';
import { readFunctional } from '../model/formats/functional/reader.js';
import { LineRenderer } from '../model/render/axiom-lines.js';
import { anonymousIndividuals } from '../model/walk.js';

const shapeRenderer = new LineRenderer(() => '_:?');

/** The anonymous individuals of `a` in the order its canonical rendering meets them. */
function anonymousOrder(a: Axiom): AnonymousIndividual[] {
  const order: AnonymousIndividual[] = [];
  new LineRenderer((x) => {
    order.push(x);
    return '_:?';
  }).axiom(a);
  return order;
}

export function parseAxiom(text: string): Axiom {
  const [axiom] = readFunctional('Ontology(' + text + ')', { keepBlankNodeLabels: true }).axioms();
  if (axiom === undefined) throw new Error(`not an axiom: ${text}`);
  return axiom;
}

/** The stored ids of one replay's (or plan's) anonymous individuals, and the individuals they turned out to be. */
export class BlankNodes {
  private readonly found = new Map<Ontology, Map<string, AnonymousIndividual>>();

  /** The stored axiom as an axiom of `o`: its anonymous individuals those known to correspond. */
  axiom(text: string, o: Ontology, removing: boolean): Axiom {
    const parsed = parseAxiom(text);
    const anons = anonymousIndividuals(parsed);
    if (anons.size === 0) return parsed;
    let known = this.found.get(o);
    if (known === undefined) this.found.set(o, (known = new Map()));
    const map = known;
    const axiom = [...anons].some((x) => map.has(x.nodeId))
      ? parseAxiom(new LineRenderer((x) => '_:' + (map.get(x.nodeId)?.nodeId ?? x.nodeId)).axiom(parsed))
      : parsed;
    if (!removing || o.has(axiom)) return axiom;
    return this.sameShape(parsed, o, map) ?? axiom;
  }

  /**
   * An axiom of `o` that is the parsed stored axiom up to its anonymous individuals, each stored id
   * standing for one individual throughout (as already matched, and no two for the same).
   */
  private sameShape(parsed: Axiom, o: Ontology, known: Map<string, AnonymousIndividual>): Axiom | null {
    const shape = shapeRenderer.axiom(parsed);
    const mine = anonymousOrder(parsed);
    const taken = new Set(known.values());
    for (const candidate of axiomsWithAnonymous(o)) {
      if (candidate.kind !== parsed.kind || shapeRenderer.axiom(candidate) !== shape) continue;
      const theirs = anonymousOrder(candidate);
      const pairs = new Map<string, AnonymousIndividual>();
      const used = new Set<AnonymousIndividual>();
      const fits =
        mine.length === theirs.length &&
        mine.every((x, i) => {
          const y = theirs[i];
          if (y === undefined) return false;
          const bound = known.get(x.nodeId) ?? pairs.get(x.nodeId);
          if (bound !== undefined) return bound === y;
          if (taken.has(y) || used.has(y)) return false;
          pairs.set(x.nodeId, y);
          used.add(y);
          return true;
        });
      if (!fits) continue;
      for (const [id, y] of pairs) known.set(id, y);
      return candidate;
    }
    return null;
  }
}
