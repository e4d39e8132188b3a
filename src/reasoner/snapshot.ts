// An immutable, revision-tagged snapshot of the active ontology and its imports closure: the axioms a reasoner
// reads (logical axioms and class/individual declarations). Interned model objects cannot cross threads, so
// a reasoning thread receives them in the binary encoding of transfer.ts; the functional-syntax document
// (full IRIs) is rendered only for the readers that want text.

import type { AnonymousIndividual, Axiom, ClassExpression, IRI } from '../model/terms.js';
import { cls, equivalentClasses, isLogicalAxiom } from '../model/terms.js';
import type { Workspace } from '../model/workspace.js';
import type { Ontology } from '../model/ontology.js';
import { FunctionalRenderer } from '../model/formats/functional/renderer.js';
import { readFunctional } from '../model/formats/functional/reader.js';
import { encodeAxioms, type EncodedAxioms } from '../model/transfer.js';

/** The reasoning input of an imports closure: each axiom once, in the closure's order. */
export interface ReasoningInput {
  readonly axioms: readonly Axiom[];
  /** SWRL rules among them (reasoners here ignore them; tools warn). */
  readonly ruleCount: number;
}

export class Snapshot implements ReasoningInput {
  private rendered: string | null = null;
  private encoded: EncodedAxioms | null = null;

  readonly axioms: readonly Axiom[];

  /** `members`: the axioms as a set (what the next revision's change is computed against). */
  constructor(
    readonly workspaceId: string,
    readonly revision: number,
    readonly members: ReadonlySet<Axiom>,
    readonly ruleCount: number,
  ) {
    this.axioms = [...members];
  }

  get axiomCount(): number {
    return this.axioms.length;
  }

  /** `Ontology( ... )` holding every axiom once. */
  get text(): string {
    return (this.rendered ??= renderAxioms(this.axioms));
  }

  /** The axioms in the binary encoding a reasoning thread decodes (posted as a copy, so kept for the next task). */
  get encoding(): EncodedAxioms {
    return (this.encoded ??= encodeAxioms(this.axioms));
  }
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

/** The reasoning input of an imports closure (each axiom once). */
export function closureInput(closure: Iterable<Ontology>): ReasoningInput & { readonly members: ReadonlySet<Axiom> } {
  const seen = new Set<Axiom>();
  let rules = 0;
  for (const o of closure) {
    for (const a of o.axioms()) {
      if (!isReasoningInput(a) || seen.has(a)) continue;
      seen.add(a);
      if (a.kind === 'DLSafeRule') rules++;
    }
  }
  return { axioms: [...seen], ruleCount: rules, members: seen };
}

/** Axioms as one `Ontology( ... )` document with full IRIs, one axiom a line. */
export function renderAxioms(axioms: Iterable<Axiom>): string {
  const r = snapshotRenderer();
  const lines: string[] = ['Ontology('];
  for (const a of axioms) lines.push(r.axiom(a));
  lines.push(')');
  return lines.join('\n');
}

/** The snapshot of the workspace's active imports closure at its current revision: `last` while it is current. */
export function takeSnapshot(ws: Workspace, last: Snapshot | null): Snapshot {
  if (last !== null && last.revision === ws.revision) return last;
  const input = closureInput(ws.importsClosure(ws.active));
  return new Snapshot(ws.id, ws.revision, input.members, input.ruleCount);
}

/** The axioms of a snapshot document (or of any `Ontology(...)` text written by `snapshotRenderer`). */
export function readSnapshotAxioms(text: string): Axiom[] {
  return [...readFunctional(text).axioms()];
}

/** `EquivalentClasses(<q> expr)`, the query axiom of a DL query. */
export function queryAxiom(queryIri: IRI, expr: ClassExpression): Axiom {
  return equivalentClasses([cls(queryIri), expr]);
}

/**
 * A reasoning thread's input: every axiom, or the change from the snapshot `base` that thread last held
 * (it answers `stale` when it holds another one, and is then sent every axiom).
 */
export type Shipment =
  | { readonly kind: 'full'; readonly axioms: EncodedAxioms }
  | { readonly kind: 'delta'; readonly base: string; readonly added: EncodedAxioms; readonly removed: EncodedAxioms };

/** A shipment of every axiom of `input`. */
export function shipAll(input: ReasoningInput): Shipment {
  return { kind: 'full', axioms: input instanceof Snapshot ? input.encoding : encodeAxioms(input.axioms) };
}
