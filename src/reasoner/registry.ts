// The installed reasoners (TOOLS.md 1.10): stable ids, display names carrying the version, the reasoner
// reference rule, and each reasoner's declared capabilities (which constructs it handles and what becomes
// of the rest) for `get_reasoner_capabilities`.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export type ReasonerId = 'structural' | 'el';

export type CapabilityStatus = 'supported' | 'unsupported' | 'unknown' | 'untested';

export interface CapabilityRow {
  readonly construct: string;
  readonly status: CapabilityStatus;
  readonly evidence: string;
}

export interface ReasonerInfo {
  readonly id: ReasonerId;
  readonly name: string;
  readonly version: string;
  /** The compiled module files (relative to this one) that implement the reasoner. */
  readonly codeFiles: readonly string[];
  readonly owl: readonly CapabilityRow[];
  /** What happens to an axiom outside the supported constructs. */
  readonly unsupportedHandling: string;
}

const VERSION = '0.1.0';
const EL_FILES = ['normalize.js', 'saturation.js', 'taxonomy.js', 'el-reasoner.js', 'int-set.js'];

const row = (construct: string, status: CapabilityStatus, evidence: string): CapabilityRow => ({ construct, status, evidence });

const TOLD = 'told hierarchy between named classes';
const STRUCTURAL_OWL: readonly CapabilityRow[] = [
  row('Declaration', 'supported', 'named classes and individuals enter the taxonomy'),
  row('SubClassOf(named named)', 'supported', TOLD),
  row('EquivalentClasses(named ...)', 'supported', TOLD + ' (named members only)'),
  row('ClassAssertion(named)', 'supported', 'asserted types'),
  row('class expressions', 'unsupported', 'axioms with anonymous expressions are reported unsupported'),
  row('property axioms', 'unsupported', 'reported unsupported'),
  row('individual axioms other than ClassAssertion', 'unsupported', 'reported unsupported'),
  row('data property axioms', 'unsupported', 'reported unsupported'),
];

const EL_OWL: readonly CapabilityRow[] = [
  ...['ObjectIntersectionOf', 'ObjectSomeValuesFrom', 'ObjectHasValue', 'ObjectHasSelf', 'ObjectOneOf (one individual)',
    'owl:Thing', 'owl:Nothing', 'SubClassOf', 'EquivalentClasses', 'DisjointClasses', 'DisjointUnion (as disjointness + subclasses)',
    'SubObjectPropertyOf', 'EquivalentObjectProperties', 'SubPropertyChainOf', 'TransitiveObjectProperty',
    'ReflexiveObjectProperty', 'ObjectPropertyDomain', 'ObjectPropertyRange', 'ClassAssertion', 'ObjectPropertyAssertion',
    'SameIndividual', 'DifferentIndividuals']
    .map((c) => row(c, 'supported', 'EL++ completion rules (ELK-style saturation)')),
  ...['ObjectUnionOf', 'ObjectComplementOf (beyond disjointness)', 'ObjectAllValuesFrom', 'object cardinality restrictions',
    'ObjectInverseOf', 'FunctionalObjectProperty', 'InverseFunctionalObjectProperty', 'SymmetricObjectProperty',
    'AsymmetricObjectProperty', 'IrreflexiveObjectProperty', 'InverseObjectProperties', 'DisjointObjectProperties',
    'HasKey', 'NegativeObjectPropertyAssertion', 'NegativeDataPropertyAssertion']
    .map((c) => row(c, 'unsupported', 'the axiom is left out whole and reported unsupported (unions and multi-individual ObjectOneOf on the right and complements on the left are kept as opaque concepts); answers stay sound, may be incomplete')),
  row('DataPropertyDomain', 'unsupported', 'left out and reported unsupported, as in ELK 0.6'),
  row('DataHasValue, DataSomeValuesFrom over EL datatypes', 'supported', 'opaque data restrictions with value, datatype and sub-property entailments; unsatisfiable on owl:bottomDataProperty; values other than strings are compared by lexical form and reported unsupported, as are owl:topDataProperty restrictions'),
  row('other data property axioms and restrictions', 'unsupported', 'ignored unless a data restriction or assertion uses the property; then reported unsupported'),
  row('DLSafeRule (SWRL)', 'unsupported', 'left out and reported unsupported; classifying tools add a warning when rules exist'),
];

export const REASONERS: readonly ReasonerInfo[] = [
  {
    id: 'el', name: `Athene EL++ Classifier ${VERSION}`, version: VERSION, codeFiles: EL_FILES, owl: EL_OWL,
    unsupportedHandling: 'Axioms outside EL++ are left out whole (a few constructs are kept as opaque concepts); they are counted and sampled as unsupported and every answer is marked complete:false.',
  },
  {
    id: 'structural', name: `Athene Structural Reasoner ${VERSION}`, version: VERSION, codeFiles: [...EL_FILES, 'structural.js'], owl: STRUCTURAL_OWL,
    unsupportedHandling: 'Only the told named-class hierarchy and asserted types are used; every other logical axiom is reported unsupported and answers are marked complete:false.',
  },
];

export function reasonerById(id: ReasonerId): ReasonerInfo {
  return REASONERS.find((r) => r.id === id)!;
}

/** The reasoners sorted by display name, then id (so same-name reasoners stay separate and ordered). */
export function sortedReasoners(): ReasonerInfo[] {
  return [...REASONERS].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export type ReferenceOutcome =
  | { readonly kind: 'match'; readonly reasoner: ReasonerInfo }
  | { readonly kind: 'none' }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly ReasonerInfo[] };

const tokens = (s: string): string[] => s.trim().toLowerCase().split(/\s+/).filter((t) => t.length > 0);

/** True when `needle` occurs in `hay` as one contiguous run of whole tokens. */
function containsRun(hay: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > hay.length) return false;
  for (let i = 0; i + needle.length <= hay.length; i++) {
    let j = 0;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return true;
  }
  return false;
}

/**
 * The reasoner reference rule: an id or full display name (case-insensitive) pins that reasoner; otherwise a
 * version-less name matches when its tokens are a contiguous whole-token run of a name without its version
 * (so a partial version never matches) and exactly one reasoner matches.
 */
export function resolveReasoner(reference: string, installed: readonly ReasonerInfo[] = REASONERS): ReferenceOutcome {
  const ref = reference.trim().toLowerCase();
  const exact = installed.filter((r) => r.id.toLowerCase() === ref || r.name.toLowerCase() === ref);
  if (exact.length === 1) return { kind: 'match', reasoner: exact[0] };
  if (exact.length > 1) return { kind: 'ambiguous', candidates: exact };
  const wanted = tokens(reference);
  const hits = installed.filter((r) => {
    const nameTokens = tokens(r.name);
    const versionless = nameTokens[nameTokens.length - 1] === r.version.toLowerCase() ? nameTokens.slice(0, -1) : nameTokens;
    return containsRun(versionless, wanted);
  });
  if (hits.length === 1) return { kind: 'match', reasoner: hits[0] };
  return hits.length === 0 ? { kind: 'none' } : { kind: 'ambiguous', candidates: hits };
}

const implementationDigests = new Map<ReasonerId, string>();

/** SHA-256 over the reasoner's installed code files (their names and contents, in a fixed order). */
export function implementationDigest(r: ReasonerInfo): string {
  let d = implementationDigests.get(r.id);
  if (d === undefined) {
    const h = createHash('sha256');
    for (const f of [...r.codeFiles].sort()) h.update(f + '\0').update(readFileSync(new URL('./' + f, import.meta.url))).update('\0');
    implementationDigests.set(r.id, (d = 'sha256:' + h.digest('hex')));
  }
  return d;
}
