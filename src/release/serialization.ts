// The release serialization (TOOLS.md run_release_gate, prepare_release): the root ontology written once in
// the policy's `release.format`; with `release.require_clean_round_trip` exactly those bytes are read back
// (in memory, no imports resolved) and must give back the same axioms, id, imports and ontology annotations.
// A writer or reader failure is `release.round_trip_failed`; content a format loses or adds is
// `release.lossy_format`. The bytes verified are the bytes prepare_release writes.

import type { FormatId, Ontology } from '../model/ontology.js';
import { readDocument, writeDocument } from '../model/formats/registry.js';
import { compareContent, ontologyContent, type RoundTripDifference } from '../qc/stages/interoperability.js';
import { releaseFinding, type ReleaseFinding } from './finding.js';

/** File extension and media type of each release format. */
export const FORMAT_FILES: Readonly<Record<FormatId, { readonly extension: string; readonly mediaType: string }>> = {
  turtle: { extension: 'ttl', mediaType: 'text/turtle' },
  ntriples: { extension: 'nt', mediaType: 'application/n-triples' },
  nquads: { extension: 'nq', mediaType: 'application/n-quads' },
  trig: { extension: 'trig', mediaType: 'application/trig' },
  rdfxml: { extension: 'owl', mediaType: 'application/rdf+xml' },
  jsonld: { extension: 'jsonld', mediaType: 'application/ld+json' },
  owlxml: { extension: 'owx', mediaType: 'application/owl+xml' },
  ofn: { extension: 'ofn', mediaType: 'text/owl-functional' },
  manchester: { extension: 'omn', mediaType: 'text/owl-manchester' },
  obo: { extension: 'obo', mediaType: 'text/obo' },
};

export interface RoundTripResult {
  readonly clean: boolean;
  readonly format: FormatId;
  readonly skipped?: true;
  readonly reason?: string;
  readonly error?: string;
  /** What the format lost or added, one row per kind of difference. */
  readonly differences?: readonly { readonly rule: string; readonly message: string }[];
}

export interface Serialization {
  /** The document text, or null when the writer failed. */
  readonly text: string | null;
  readonly round_trip: RoundTripResult;
  readonly findings: readonly ReleaseFinding[];
}

function failed(o: Ontology, format: FormatId, error: string): Serialization {
  return {
    text: null,
    round_trip: { clean: false, format, error },
    findings: [
      releaseFinding('release.round_trip_failed', 'error', `The release serialization in ${format} failed: ${error}`, o.id.iri, format, {
        format,
      }),
    ],
  };
}

/** Reads `text` back as `format` and lists how it differs from `o`; a reader failure is thrown. */
async function differencesAfterReading(o: Ontology, text: string, format: FormatId): Promise<RoundTripDifference[]> {
  // The ontology's own IRI is the base, as it is for a document published where the ontology lives.
  const back = (await readDocument(text, { format, ...(o.id.iri === null ? {} : { base: o.id.iri }) })).ontology;
  return compareContent(format, ontologyContent(o), ontologyContent(back));
}

/** Writes `o` in `format` and, when `verify`, checks the round trip of exactly that text. */
export async function releaseSerialization(o: Ontology, format: FormatId, verify: boolean): Promise<Serialization> {
  let text: string;
  try {
    text = writeDocument(o, format);
  } catch (e) {
    return failed(o, format, `the writer failed: ${(e as Error).message}`);
  }
  if (!verify) {
    return {
      text,
      round_trip: {
        clean: false,
        format,
        skipped: true,
        reason: 'release.require_clean_round_trip is false: the serialization was not read back',
      },
      findings: [],
    };
  }
  let differences: RoundTripDifference[];
  try {
    differences = await differencesAfterReading(o, text, format);
  } catch (e) {
    return { ...failed(o, format, `the ${format} text Athene wrote cannot be read back: ${(e as Error).message}`), text };
  }
  if (differences.length === 0) return { text, round_trip: { clean: true, format }, findings: [] };
  return {
    text,
    round_trip: { clean: false, format, differences: differences.map((d) => ({ rule: d.rule, message: d.message })) },
    findings: differences.map((d) =>
      releaseFinding(
        'release.lossy_format',
        'error',
        `The release format ${format} is lossy for this ontology: ${d.message}`,
        o.id.iri,
        d.rule,
        d.details,
      ),
    ),
  };
}
