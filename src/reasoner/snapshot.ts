// An immutable, revision-tagged snapshot of the active ontology and its imports closure, in a form that can
// cross to a reasoning thread: interned model objects cannot, so the axioms a reasoner reads (logical axioms
// and class/individual declarations) travel as one functional-syntax document with full IRIs.

import type { AnonymousIndividual, Axiom, ClassExpression } from '../model/terms.js';
import { isLogicalAxiom } from '../model/terms.js';
import type { Workspace } from '../model/workspace.js';
import type { Ontology } from '../model/ontology.js';
import { FunctionalRenderer } from '../model/formats/functional/renderer.js';
import { readFunctional } from '../model/formats/functional/reader.js';

export interface Snapshot {
  readonly workspaceId: string;
  readonly revision: number;
  /** `Ontology( ... )` holding every reasoning-relevant axiom of the imports closure once. */
  readonly text: string;
  readonly axiomCount: number;
  /** SWRL rules in the closure (reasoners here ignore them; tools warn). */
  readonly ruleCount: number;
}

/** Axioms a reasoner reads: logical ones and the declarations that put classes and individuals in its answers. */
function isReasoningInput(a: Axiom): boolean {
  return isLogicalAxiom(a) || (a.kind === 'Declaration' && (a.entity.kind === 'Class' || a.entity.kind === 'NamedIndividual'));
}

/** A renderer with full IRIs and stable per-document labels for anonymous individuals. */
export function snapshotRenderer(): FunctionalRenderer {
  const labels = new Map<AnonymousIndividual, string>();
  return new FunctionalRenderer(new Map(), (a) => {
    let l = labels.get(a);
    if (l === undefined) labels.set(a, (l = '_:b' + labels.size));
    return l;
  });
}

const cache = new WeakMap<Workspace, Snapshot>();

/** The reasoning input of an imports closure as one snapshot document (each axiom once). */
export function renderClosure(closure: Iterable<Ontology>): Pick<Snapshot, 'text' | 'axiomCount' | 'ruleCount'> {
  const seen = new Set<Axiom>();
  const r = snapshotRenderer();
  const lines: string[] = ['Ontology('];
  let rules = 0;
  for (const o of closure) {
    for (const a of o.axioms()) {
      if (!isReasoningInput(a) || seen.has(a)) continue;
      seen.add(a);
      if (a.kind === 'DLSafeRule') rules++;
      lines.push(r.axiom(a));
    }
  }
  lines.push(')');
  return { text: lines.join('\n'), axiomCount: seen.size, ruleCount: rules };
}

/** The snapshot of the workspace's active imports closure at its current revision (cached per revision). */
export function takeSnapshot(ws: Workspace): Snapshot {
  const hit = cache.get(ws);
  if (hit !== undefined && hit.revision === ws.revision) return hit;
  const snap: Snapshot = { workspaceId: ws.id, revision: ws.revision, ...renderClosure(ws.importsClosure(ws.active)) };
  cache.set(ws, snap);
  return snap;
}

/** The axioms of a snapshot document (or of any `Ontology(...)` text written by `snapshotRenderer`). */
export function readSnapshotAxioms(text: string): Axiom[] {
  return [...readFunctional(text).axioms()];
}

/** Functional text of `EquivalentClasses(<q> expr)`, the query axiom of a DL query. */
export function queryAxiomText(queryIri: string, expr: ClassExpression): string {
  const r = snapshotRenderer();
  return 'EquivalentClasses(<' + queryIri + '> ' + r.classExpression(expr) + ')';
}

/** Reads back axioms rendered one per line by a worker (the unsupported samples). */
export function readAxiomLines(lines: readonly string[]): Axiom[] {
  if (lines.length === 0) return [];
  return readSnapshotAxioms('Ontology(\n' + lines.join('\n') + '\n)');
}
