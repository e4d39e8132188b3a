// The QC vocabulary of TOOLS.md 1.11, shared by every stage (profile, structural, governance, reasoner, …),
// by the gate that combines stages (run_qc_suite, preview_change_set, apply_changes verify) and by the
// tools that report findings. A stage reads one private snapshot and never touches the live workspace.

import type { Ontology } from '../model/ontology.js';

export type Severity = 'error' | 'warn' | 'info';

export type StageId =
  | 'interoperability'
  | 'reasoner'
  | 'profile'
  | 'structural'
  | 'governance'
  | 'invariants'
  | 'cqs'
  | 'shacl'
  | 'rules'
  | 'provider_evidence';

export const STAGE_IDS: readonly StageId[] = [
  'interoperability',
  'reasoner',
  'profile',
  'structural',
  'governance',
  'invariants',
  'cqs',
  'shacl',
  'rules',
  'provider_evidence',
];

/** A stage's own judgement of what it found; the gate maps verdicts to `pass | fail | error`. */
export type Verdict = 'pass' | 'info' | 'warn' | 'fail';

export type Gate = 'pass' | 'fail' | 'error';

export interface Waiver {
  readonly rule_id: string;
  readonly focus_iri: string | null;
  readonly reason: string;
  readonly expires: string | null;
}

/** One finding (TOOLS.md 1.11). `id` is stable: the same problem in the same content gets the same id. */
export interface Finding {
  readonly id: string;
  readonly source: StageId;
  readonly severity: Severity;
  readonly message: string;
  readonly focus_iri: string | null;
  /** The axiom concerned, in functional syntax with full IRIs (stable across sessions), if any. */
  readonly axiom: string | null;
  readonly path: string | null;
  readonly rule_id: string;
  readonly waiver: Waiver | null;
  readonly details?: Record<string, unknown>;
}

/** What a stage reports. `findings` is complete (stages do not cap); reports cap samples when rendering. */
export interface StageOutcome {
  readonly stage: StageId;
  /** `completed`: ran to the end; `skipped`: could not run (`reason` says why); `error`: failed while running. */
  readonly status: 'completed' | 'skipped' | 'error';
  readonly verdict?: Verdict;
  readonly reason?: string;
  readonly findings: readonly Finding[];
  /** Stage-specific extra fields for the report (e.g. the reasoner stage's reasoner configuration). */
  readonly details?: Record<string, unknown>;
}

/** One private snapshot every stage of one gate run reads. */
export interface QcSnapshot {
  /** A private copy of the active ontology (with a preview's delta applied); stages must not modify it. */
  readonly ontology: Ontology;
  /** The imports closure as loaded: `ontology` first, then the imported ontologies (live objects: read only). */
  readonly closure: readonly Ontology[];
  /** The live revision the snapshot was captured at. */
  readonly revision: number;
  readonly labelLanguage: string;
}
