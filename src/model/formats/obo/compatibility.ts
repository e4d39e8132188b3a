// How well an ontology fits OBO 1.4, for save_ontology's format report: which IRIs have no OBO id form
// (a save writes them as they are), and which axioms and ontology annotations have no OBO tag and travel in the
// header's `owl-axioms:` line as OWL functional syntax (kept, and read back by Athene and the OWL API, but
// opaque to tools that read only the tags).

import type { Ontology } from '../../ontology.js';
import type { Axiom } from '../../terms.js';
import { signature } from '../../walk.js';
import { oboOverflow } from './writer.js';

export type OboIssueKind = 'iri_not_expressible' | 'axiom_in_owl_axioms' | 'annotation_in_owl_axioms' | 'version_iri_in_owl_axioms';

export interface OboIssue {
  readonly kind: OboIssueKind;
  readonly focus_iri: string | null;
  readonly detail: string;
}

export interface OboCompatibility {
  /** True when the OBO text holds everything (owl-axioms included); false when an IRI has no OBO id form. */
  readonly compatible: boolean;
  /** At most `limit` issues, most severe kinds first; `counts` has the totals. */
  readonly issues: OboIssue[];
  readonly counts: Record<OboIssueKind, number>;
  readonly issues_truncated: boolean;
}

const KIND_ORDER: readonly OboIssueKind[] = [
  'iri_not_expressible',
  'version_iri_in_owl_axioms',
  'axiom_in_owl_axioms',
  'annotation_in_owl_axioms',
];

/** The entity an axiom is about: an annotation subject, a named subclass, else the first signature entity. */
function focusOf(a: Axiom): string | null {
  if (a.kind === 'AnnotationAssertion') return a.subject.kind === 'IRI' ? a.subject.iri : null;
  if (a.kind === 'SubClassOf' && a.sub.kind === 'Class') return a.sub.iri;
  const sig = signature(a);
  return sig[0]?.iri ?? null;
}

/** Checks `o` against OBO 1.4; `limit` bounds the listed issues (counts are always complete). */
export function oboCompatibility(o: Ontology, limit = 100): OboCompatibility {
  const overflow = oboOverflow(o);
  const issues: OboIssue[] = [
    ...overflow.unspellable.map((iri): OboIssue => ({
      kind: 'iri_not_expressible',
      focus_iri: iri,
      detail: `IRI <${iri}> has no OBO id form`,
    })),
    ...overflow.axioms.map((a): OboIssue => ({
      kind: 'axiom_in_owl_axioms',
      focus_iri: focusOf(a),
      detail: `${a.kind} axiom has no OBO tag; it is written in owl-axioms`,
    })),
    ...(overflow.versionIri
      ? [
          {
            kind: 'version_iri_in_owl_axioms',
            focus_iri: o.id.iri,
            detail: `version IRI <${o.id.versionIri}> is no OBO data-version; it is written in owl-axioms`,
          } as OboIssue,
        ]
      : []),
    ...overflow.annotations.map((a): OboIssue => ({
      kind: 'annotation_in_owl_axioms',
      focus_iri: o.id.iri,
      detail: `ontology annotation <${a.property.iri}> has no OBO tag; it is written in owl-axioms`,
    })),
  ];
  const counts: Record<OboIssueKind, number> = {
    iri_not_expressible: 0,
    version_iri_in_owl_axioms: 0,
    axiom_in_owl_axioms: 0,
    annotation_in_owl_axioms: 0,
  };
  for (const i of issues) counts[i.kind]++;
  const rank = (i: OboIssue) => KIND_ORDER.indexOf(i.kind);
  issues.sort(
    (x, y) => rank(x) - rank(y) || ((x.focus_iri ?? '') < (y.focus_iri ?? '') ? -1 : (x.focus_iri ?? '') > (y.focus_iri ?? '') ? 1 : 0),
  );
  return { compatible: counts.iri_not_expressible === 0, issues: issues.slice(0, limit), counts, issues_truncated: issues.length > limit };
}

/** One human-readable reason per lossy issue kind present, for the lossy-format warning. */
export function lossyReasons(c: OboCompatibility): string[] {
  const n = c.counts.iri_not_expressible;
  return n > 0 ? [`${n} IRI(s) have no OBO id form; what uses them is left out`] : [];
}
