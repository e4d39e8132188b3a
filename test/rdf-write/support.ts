// Helpers shared by the RDF writer tests: canonical comparison of ontologies (axioms and header).

import type { Ontology } from '../../src/model/ontology.js';
import { axiomLines, LineRenderer } from '../../src/model/render/axiom-lines.js';
import { implicitDeclarations } from '../../src/model/rdf/owl-to-triples.js';

/** The canonical lines of what reading a written document must give: the axioms plus the implicit declarations. */
export function expectedLines(o: Ontology): string[] {
  return axiomLines([...o.axioms(), ...implicitDeclarations(o)]);
}

export function headerOf(o: Ontology): { id: unknown; imports: string[]; annotations: string[] } {
  const r = new LineRenderer((a) => '_:' + a.nodeId);
  return {
    id: { ...o.id },
    imports: [...o.imports].sort(),
    annotations: [...o.annotations].map((a) => r.annotation(a)).sort(),
  };
}

/** Lines only in `a` and only in `b` (empty both ways when the sets are equal). */
export function diff(a: string[], b: string[]): { missing: string[]; extra: string[] } {
  const sa = new Set(a);
  const sb = new Set(b);
  return { missing: a.filter((x) => !sb.has(x)), extra: b.filter((x) => !sa.has(x)) };
}
