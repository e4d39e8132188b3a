// How well an ontology fits OBO 1.4, for save_ontology's lossy-format report: which axioms and header items
// OBO cannot hold (from a strict writer run), which language tags a lenient save drops, and which terms carry
// several values for a tag OBO allows once (name, def, comment).

import type { Ontology } from '../../ontology.js';
import type { Axiom } from '../../terms.js';
import { signature } from '../../walk.js';
import { RDFS_COMMENT, RDFS_LABEL } from '../../vocab.js';
import { IAO_DEFINITION } from './vocab.js';
import { OboWriteError, writeObo } from './writer.js';

export type OboIssueKind = 'axiom_not_expressible' | 'header_not_expressible' | 'language_tag_dropped' | 'multiple_single_value_tag';

export interface OboIssue {
  readonly kind: OboIssueKind;
  readonly focus_iri: string | null;
  readonly detail: string;
}

export interface OboCompatibility {
  readonly compatible: boolean;
  /** At most `limit` issues, most severe kinds first; `counts` has the totals. */
  readonly issues: OboIssue[];
  readonly counts: Record<OboIssueKind, number>;
  readonly issues_truncated: boolean;
}

/** Tags OBO 1.4 allows at most once per stanza, by the annotation property they map to. */
const SINGLE_VALUE_TAGS: ReadonlyMap<string, string> = new Map([[RDFS_LABEL, 'name'], [IAO_DEFINITION, 'def'], [RDFS_COMMENT, 'comment']]);

const KIND_ORDER: readonly OboIssueKind[] = ['header_not_expressible', 'axiom_not_expressible', 'multiple_single_value_tag', 'language_tag_dropped'];

/** The entity an axiom is about: an annotation subject, a named subclass, else the first signature entity. */
function focusOf(a: Axiom): string | null {
  if (a.kind === 'AnnotationAssertion') return a.subject.kind === 'IRI' ? a.subject.iri : null;
  if (a.kind === 'SubClassOf' && a.sub.kind === 'Class') return a.sub.iri;
  const sig = signature(a);
  return sig.length > 0 ? sig[0].iri : null;
}

function strictWriteFailures(o: Ontology): OboWriteError | null {
  try {
    writeObo(o, { onLossy: 'throw' });
    return null;
  } catch (err) {
    if (err instanceof OboWriteError) return err;
    throw err;
  }
}

function lossyIssue(a: Axiom): OboIssue {
  if (a.kind === 'AnnotationAssertion' && a.value.kind === 'Literal' && a.value.lang !== '') {
    return { kind: 'language_tag_dropped', focus_iri: focusOf(a), detail: `language tag @${a.value.lang} on <${a.property.iri}> is dropped` };
  }
  return { kind: 'axiom_not_expressible', focus_iri: focusOf(a), detail: `${a.kind} axiom has no OBO form and is left out` };
}

function multiValuedIssues(o: Ontology): OboIssue[] {
  const counts = new Map<string, number>();
  for (const a of o.axiomsOfKind('AnnotationAssertion')) {
    if (a.subject.kind !== 'IRI' || !SINGLE_VALUE_TAGS.has(a.property.iri)) continue;
    const key = a.subject.iri + '\n' + a.property.iri;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const out: OboIssue[] = [];
  for (const [key, n] of counts) {
    if (n < 2) continue;
    const [subject, property] = key.split('\n');
    out.push({ kind: 'multiple_single_value_tag', focus_iri: subject, detail: `${n} values for '${SINGLE_VALUE_TAGS.get(property)}' (<${property}>); OBO allows one` });
  }
  return out;
}

/** Checks `o` against OBO 1.4; `limit` bounds the listed issues (counts are always complete). */
export function oboCompatibility(o: Ontology, limit = 100): OboCompatibility {
  const issues: OboIssue[] = [];
  const failure = strictWriteFailures(o);
  if (failure !== null) {
    for (const p of failure.problems) issues.push({ kind: 'header_not_expressible', focus_iri: o.id.iri, detail: p });
    for (const a of failure.axioms) issues.push(lossyIssue(a));
  }
  issues.push(...multiValuedIssues(o));
  const counts: Record<OboIssueKind, number> = { axiom_not_expressible: 0, header_not_expressible: 0, language_tag_dropped: 0, multiple_single_value_tag: 0 };
  for (const i of issues) counts[i.kind]++;
  const rank = (i: OboIssue) => KIND_ORDER.indexOf(i.kind);
  issues.sort((x, y) => rank(x) - rank(y) || ((x.focus_iri ?? '') < (y.focus_iri ?? '') ? -1 : (x.focus_iri ?? '') > (y.focus_iri ?? '') ? 1 : 0));
  return { compatible: issues.length === 0, issues: issues.slice(0, limit), counts, issues_truncated: issues.length > limit };
}

/** One human-readable reason per issue kind present, for the lossy-format warning. */
export function lossyReasons(c: OboCompatibility): string[] {
  const text: Record<OboIssueKind, (n: number) => string> = {
    header_not_expressible: (n) => `${n} ontology header item(s) (ontology IRI, version IRI, annotations) have no OBO form`,
    axiom_not_expressible: (n) => `${n} axiom(s) have no OBO form and are left out`,
    multiple_single_value_tag: (n) => `${n} term(s) carry several values for a tag OBO allows once (name, def, comment)`,
    language_tag_dropped: (n) => `${n} language-tagged value(s) lose their language tag`,
  };
  return KIND_ORDER.filter((k) => c.counts[k] > 0).map((k) => text[k](c.counts[k]));
}
