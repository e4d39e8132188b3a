// The entity kinds an imports closure declares, which type what an RDF document leaves undeclared (OWL 2
// Mapping to RDF Graphs §3.1: the mapping reads the declarations of the imports closure when it is loaded),
// and whether they change a reading made without them, so a loader reads a document again only then.

import type { EntityKind, IRI } from '../terms.js';
import type { Ontology } from '../ontology.js';
import type { ImportedKinds } from './graph-typing.js';
import { K_AP, K_CLASS, K_DP, K_DT, K_OP } from './vocab-reader.js';

const PROPERTY = K_OP | K_DP | K_AP;

/** The kinds that decide how a document maps; a named individual's declaration changes no other mapping. */
const TYPING_BITS: ReadonlyMap<EntityKind, number> = new Map([
  ['Class', K_CLASS],
  ['ObjectProperty', K_OP],
  ['DataProperty', K_DP],
  ['AnnotationProperty', K_AP],
  ['Datatype', K_DT],
]);

/** Kind bits by IRI from the Declaration axioms of `closure`. */
export function declaredKinds(closure: Iterable<Ontology>): Map<IRI, number> {
  const out = new Map<IRI, number>();
  for (const o of closure) {
    for (const d of o.axiomsOfKind('Declaration')) {
      const bit = TYPING_BITS.get(d.entity.kind);
      if (bit !== undefined) out.set(d.entity.iri, (out.get(d.entity.iri) ?? 0) | bit);
    }
  }
  return out;
}

/**
 * Whether reading `o` with `imported` would type one of its entities differently: an imported declaration
 * adds a class or datatype kind the reading lacks, or gives a property `o` does not declare itself another
 * property kind than the one its use gave it.
 */
export function importsRetype(o: Ontology, imported: ImportedKinds): boolean {
  if (imported.size === 0) return false;
  const own = declaredKinds([o]);
  const read = new Map<IRI, number>();
  for (const [kind, bit] of TYPING_BITS) {
    for (const e of o.entities(kind)) if (imported.has(e.iri)) read.set(e.iri, (read.get(e.iri) ?? 0) | bit);
  }
  for (const [iri, bits] of read) {
    const declared = imported.get(iri)!;
    if ((declared & ~PROPERTY & ~bits) !== 0) return true;
    const ownProperty = ((own.get(iri) ?? 0) & PROPERTY) !== 0;
    if (!ownProperty && (declared & PROPERTY) !== 0 && (declared & PROPERTY) !== (bits & PROPERTY)) return true;
  }
  return false;
}
