// The `interoperability` QC stage (TOOLS.md run_qc_suite, run_project_qc): the snapshot ontology is written
// in the policy's `interoperability.format` and in each `round_trip_formats` entry and read back (in memory:
// no imports resolved, no network); every format must give back exactly the same axioms, ontology id, imports
// and ontology annotations. What a format loses or adds is a finding naming the format, with samples.

import type { FormatId, Ontology } from '../../model/ontology.js';
import type { Annotation } from '../../model/terms.js';
import { readDocument, writeDocument } from '../../model/formats/registry.js';
import { anonymousHashes, axiomLines, LineRenderer } from '../../model/render/axiom-lines.js';
import { implicitDeclarations } from '../../model/rdf/owl-to-triples.js';
import type { Finding, QcSnapshot, StageOutcome } from '../finding.js';
import { findingId } from '../identity.js';

export interface InteroperabilityOptions {
  /** The serialization of the root artifact. */
  readonly format: FormatId;
  /** Further formats the ontology must survive. */
  readonly roundTripFormats: readonly FormatId[];
}

/** Lost or added axiom lines listed per finding (the counts are always complete). */
const SAMPLE = 10;

/** What a round trip must preserve, in canonical text (full IRIs, anonymous individuals by content). */
export interface OntologyContent {
  readonly iri: string | null;
  readonly versionIri: string | null;
  readonly imports: readonly string[];
  readonly annotations: readonly string[];
  readonly axioms: readonly string[];
  /** Declarations a reader may find although `axioms` lacks them, not counted as added (absent: every addition counts). */
  readonly implied?: readonly string[];
}

function annotationLines(annotations: Iterable<Annotation>): string[] {
  const list = [...annotations];
  const hash = anonymousHashes(list);
  const r = new LineRenderer((x) => '_:h' + hash.get(x));
  return list.map((a) => r.annotation(a)).sort();
}

/**
 * The content a round trip must preserve. With `allowWriterDeclarations` the declarations the RDF writers add
 * for used but undeclared entities (RDF can type an entity only so) are not counted as added.
 */
export function ontologyContent(o: Ontology, allowWriterDeclarations = false): OntologyContent {
  return {
    iri: o.id.iri,
    versionIri: o.id.versionIri,
    imports: [...o.imports].sort(),
    annotations: annotationLines(o.annotations),
    axioms: axiomLines(o.axioms()),
    ...(allowWriterDeclarations ? { implied: axiomLines(implicitDeclarations(o)) } : {}),
  };
}

/** Lines of `a` missing from `b` (both sorted, distinct). */
function missingFrom(a: readonly string[], b: readonly string[]): string[] {
  const inB = new Set(b);
  return a.filter((x) => !inB.has(x));
}

export type RoundTripRule =
  | 'interoperability.write_failed'
  | 'interoperability.read_failed'
  | 'interoperability.axioms_lost'
  | 'interoperability.axioms_added'
  | 'interoperability.ontology_id_changed'
  | 'interoperability.imports_changed'
  | 'interoperability.annotations_changed';

/** One difference between the content before and after a round trip through `format`. */
export interface RoundTripDifference {
  readonly rule: RoundTripRule;
  readonly message: string;
  readonly details: Record<string, unknown>;
}

const sample = (lines: readonly string[]) => ({
  count: lines.length,
  sample: lines.slice(0, SAMPLE),
  ...(lines.length > SAMPLE ? { truncated: lines.length - SAMPLE } : {}),
});

/** Every way `after` (read back from `format`) differs from `before`; empty when the round trip is clean. */
export function compareContent(format: FormatId, before: OntologyContent, after: OntologyContent): RoundTripDifference[] {
  const out: RoundTripDifference[] = [];
  const lost = missingFrom(before.axioms, after.axioms);
  const added = missingFrom(missingFrom(after.axioms, before.axioms), before.implied ?? []);
  if (lost.length > 0)
    out.push({
      rule: 'interoperability.axioms_lost',
      message: `${format} loses ${lost.length} axiom(s) in a round trip, e.g. ${lost[0]}`,
      details: { format, axioms: sample(lost) },
    });
  if (added.length > 0)
    out.push({
      rule: 'interoperability.axioms_added',
      message: `${format} adds ${added.length} axiom(s) in a round trip, e.g. ${added[0]}`,
      details: { format, axioms: sample(added) },
    });
  if (before.iri !== after.iri || before.versionIri !== after.versionIri) {
    out.push({
      rule: 'interoperability.ontology_id_changed',
      message: `${format} does not keep the ontology id (${before.iri ?? 'anonymous'}${before.versionIri === null ? '' : ' ' + before.versionIri} → ${after.iri ?? 'anonymous'}${after.versionIri === null ? '' : ' ' + after.versionIri})`,
      details: {
        format,
        before: { iri: before.iri, version_iri: before.versionIri },
        after: { iri: after.iri, version_iri: after.versionIri },
      },
    });
  }
  const importsLost = missingFrom(before.imports, after.imports);
  const importsAdded = missingFrom(after.imports, before.imports);
  if (importsLost.length + importsAdded.length > 0) {
    out.push({
      rule: 'interoperability.imports_changed',
      message: `${format} does not keep the imports (${importsLost.length} lost, ${importsAdded.length} added)`,
      details: { format, lost: importsLost, added: importsAdded },
    });
  }
  const annLost = missingFrom(before.annotations, after.annotations);
  const annAdded = missingFrom(after.annotations, before.annotations);
  if (annLost.length + annAdded.length > 0) {
    out.push({
      rule: 'interoperability.annotations_changed',
      message: `${format} does not keep the ontology annotations (${annLost.length} lost, ${annAdded.length} added)`,
      details: { format, lost: sample(annLost), added: sample(annAdded) },
    });
  }
  return out;
}

/** Writes `o` in `format`, reads it back and compares; a writer or reader failure is itself a difference. */
export async function roundTrip(o: Ontology, before: OntologyContent, format: FormatId): Promise<RoundTripDifference[]> {
  let text: string;
  try {
    text = writeDocument(o, format);
  } catch (e) {
    return [
      {
        rule: 'interoperability.write_failed',
        message: `the ontology cannot be written as ${format}: ${(e as Error).message}`,
        details: { format },
      },
    ];
  }
  let back: Ontology;
  try {
    // The ontology's own IRI is the base, as it is for a document saved where the ontology lives.
    back = (await readDocument(text, { format, ...(o.id.iri === null ? {} : { base: o.id.iri }) })).ontology;
  } catch (e) {
    return [
      {
        rule: 'interoperability.read_failed',
        message: `the ${format} document Athene writes cannot be read back: ${(e as Error).message}`,
        details: { format },
      },
    ];
  }
  return compareContent(format, before, ontologyContent(back));
}

function toFinding(d: RoundTripDifference, focus: string | null): Finding {
  return {
    id: findingId('interoperability', d.rule, focus, null, String(d.details.format)),
    source: 'interoperability',
    severity: 'error',
    message: d.message,
    focus_iri: focus,
    axiom: null,
    path: null,
    rule_id: d.rule,
    waiver: null,
    details: d.details,
  };
}

/** The formats checked: the primary format first, then each further one once. */
export function formatsToCheck(options: InteroperabilityOptions): FormatId[] {
  return [...new Set([options.format, ...options.roundTripFormats])];
}

/** Runs the stage; without options (no project policy) it is skipped. `deadline` is ms since the epoch. */
export async function interoperabilityStage(
  s: QcSnapshot,
  options: InteroperabilityOptions | undefined,
  deadline = Infinity,
): Promise<StageOutcome> {
  if (options === undefined)
    return { stage: 'interoperability', status: 'skipped', reason: 'needs a project policy (interoperability block)', findings: [] };
  const formats = formatsToCheck(options);
  const before = ontologyContent(s.ontology);
  const findings: Finding[] = [];
  const clean: FormatId[] = [];
  for (const format of formats) {
    if (Date.now() > deadline)
      return {
        stage: 'interoperability',
        status: 'error',
        reason: `the round trips ran out of time (checked: ${clean.join(', ') || 'none'})`,
        findings: [],
      };
    const diffs = await roundTrip(s.ontology, before, format);
    if (diffs.length === 0) clean.push(format);
    for (const d of diffs) findings.push(toFinding(d, s.ontology.id.iri));
  }
  return {
    stage: 'interoperability',
    status: 'completed',
    verdict: findings.length > 0 ? 'fail' : 'pass',
    findings,
    details: { formats, clean_formats: clean, axiom_count: before.axioms.length },
  };
}
