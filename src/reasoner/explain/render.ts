// Justifications as result rows: each axiom in Manchester syntax with display names (the TOOLS.md axiom
// row) and in functional syntax with IRIs, so a client can both read it and act on it exactly.

import type { Axiom } from '../../model/terms.js';
import { axiomTypeName } from '../../model/terms.js';
import type { ManchesterRenderer } from '../../model/formats/manchester/render.js';
import type { FunctionalRenderer } from '../../model/formats/functional/renderer.js';

export interface JustificationAxiomRow {
  readonly axiom_type: string;
  readonly rendering: string;
  readonly functional: string;
}

export interface JustificationRow {
  readonly size: number;
  readonly axioms: readonly JustificationAxiomRow[];
}

export interface Renderers {
  readonly manchester: ManchesterRenderer;
  readonly functional: FunctionalRenderer;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rows sorted by rendering (then by functional syntax, which is unique per axiom). */
export function axiomRows(axioms: readonly Axiom[], r: Renderers): JustificationAxiomRow[] {
  return axioms
    .map((a) => ({ axiom_type: axiomTypeName(a), rendering: r.manchester.axiom(a), functional: r.functional.axiom(a) }))
    .sort((x, y) => byText(x.rendering, y.rendering) || byText(x.functional, y.functional));
}

/** Justifications as rows, ordered by size, then by their rows' renderings. */
export function justificationRows(justifications: readonly (readonly Axiom[])[], r: Renderers): JustificationRow[] {
  const rows = justifications.map((j) => ({ size: j.length, axioms: axiomRows(j, r) }));
  const key = (row: JustificationRow) => row.axioms.map((a) => a.rendering + '\n' + a.functional).join('\n');
  return rows.sort((x, y) => x.size - y.size || byText(key(x), key(y)));
}
