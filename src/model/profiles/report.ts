// What a profile check reports: the profile, whether the closure is in it, and every violation with the
// ontology it comes from and whether that ontology is the audited (owned) one.

import type { Axiom, IRI, Node } from '../terms.js';
import type { Ontology } from '../ontology.js';
import { FunctionalRenderer } from '../formats/functional/renderer.js';
import { ontologyLabel } from '../workspace.js';

export type OwlProfile = 'DL' | 'EL' | 'QL' | 'RL';

export const OWL_PROFILES: readonly OwlProfile[] = ['DL', 'EL', 'QL', 'RL'];

export interface ProfileViolation {
  /** Stable snake_case id of the rule broken (e.g. `non_simple_property_in_cardinality`). */
  readonly kind: string;
  readonly message: string;
  /** The axiom concerned in functional syntax with full IRIs; absent for header and signature-level problems. */
  readonly axiom?: string;
  /** The entity (or ontology header IRI) concerned, if any. */
  readonly entity?: IRI;
  /** Label of the ontology the violation comes from (ontology IRI, version IRI, or `(anonymous ontology)`). */
  readonly ontology: string;
  /** The violation comes from the audited ontology's own axioms or header. */
  readonly owned: boolean;
}

export interface ProfileReport {
  readonly profile: OwlProfile;
  /** No violation anywhere in the closure. */
  readonly inProfile: boolean;
  /** Sorted by ontology, kind, entity, axiom, message: a total order, so unchanged content gives the same list. */
  readonly violations: readonly ProfileViolation[];
}

/** Collects violations for one check run: renders axioms once, attributes each to its ontology. */
export class ViolationSink {
  private readonly renderer = new FunctionalRenderer();
  private readonly rendered = new Map<Axiom, string>();
  /** Keys of the violations recorded, per ontology (two anonymous ontologies share a label, not an identity). */
  private readonly seen = new Map<Ontology, Set<string>>();
  readonly violations: ProfileViolation[] = [];

  constructor(private readonly owned: Ontology) {}

  render(a: Axiom): string {
    let s = this.rendered.get(a);
    if (s === undefined) {
      s = this.renderer.axiom(a);
      this.rendered.set(a, s);
    }
    return s;
  }

  /** A node (expression, individual, literal) in functional syntax with full IRIs, for messages. */
  expr(n: Node): string {
    return this.renderer.node(n);
  }

  /** Records a violation once (the same kind, entity and axiom in the same ontology is one problem). */
  add(o: Ontology, kind: string, message: string, axiom?: Axiom | null, entity?: IRI | null): void {
    const text = axiom ? this.render(axiom) : undefined;
    const label = ontologyLabel(o);
    const key = [kind, entity ?? '', text ?? ''].join('\u0000');
    let seen = this.seen.get(o);
    if (seen === undefined) this.seen.set(o, (seen = new Set()));
    if (seen.has(key)) return;
    seen.add(key);
    this.violations.push({
      kind,
      message,
      ontology: label,
      owned: o === this.owned,
      ...(text !== undefined ? { axiom: text } : {}),
      ...(entity ? { entity } : {}),
    });
  }

  /** The smallest rendering among `axioms` (a deterministic witness for a signature-level problem). */
  witness(axioms: Iterable<Axiom>): Axiom | null {
    let best: Axiom | null = null;
    let bestText = '';
    for (const a of axioms) {
      const t = this.render(a);
      if (best === null || t < bestText) {
        best = a;
        bestText = t;
      }
    }
    return best;
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function sortViolations(vs: ProfileViolation[]): ProfileViolation[] {
  return vs.sort(
    (a, b) =>
      cmp(a.ontology, b.ontology) ||
      cmp(a.kind, b.kind) ||
      cmp(a.entity ?? '', b.entity ?? '') ||
      cmp(a.axiom ?? '', b.axiom ?? '') ||
      cmp(a.message, b.message),
  );
}
