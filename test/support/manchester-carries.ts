// What a Manchester document of an ontology holds when read back: every axiom the writer does not leave
// out, annotated declarations without their annotations, and a declaration of every entity used (each
// gets a frame, and a frame declares).

import { manchesterOmissions } from '../../src/model/formats/manchester/writer.js';
import type { Ontology } from '../../src/model/ontology.js';
import { isBuiltIn } from '../../src/model/profiles/closure-facts.js';
import { axiomLines } from '../../src/model/render/axiom-lines.js';
import { declaration, type Axiom } from '../../src/model/terms.js';
import { signature } from '../../src/model/walk.js';

export function manchesterCarries(o: Ontology): string[] {
  const omitted = new Set(manchesterOmissions(o));
  const kept: Axiom[] = [];
  for (const a of o.axioms()) {
    if (a.kind === 'Declaration') {
      kept.push(declaration(a.entity));
      continue;
    }
    for (const e of signature(a)) if (!isBuiltIn(e)) kept.push(declaration(e));
    if (!omitted.has(a)) kept.push(a);
  }
  return [...new Set(axiomLines(kept))];
}
