// The installed reasoners (TOOLS.md 1.10): stable ids, display names carrying the version, the reasoner
// reference rule, and each reasoner's declared capabilities (which constructs it handles and what becomes
// of the rest) for `get_reasoner_capabilities`. Konclude is installed when its executable runs (the
// configured path, else `Konclude` on the PATH); it is looked for once per thread, on first use.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { probeKonclude, type KoncludeConfig, type KoncludeInstall } from './konclude.js';

export type ReasonerId = 'structural' | 'el' | 'konclude' | 'auto';

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
  ...[
    'ObjectIntersectionOf',
    'ObjectSomeValuesFrom',
    'ObjectHasValue',
    'ObjectHasSelf',
    'ObjectOneOf (one individual)',
    'owl:Thing',
    'owl:Nothing',
    'SubClassOf',
    'EquivalentClasses',
    'DisjointClasses',
    'DisjointUnion (as disjointness + subclasses)',
    'SubObjectPropertyOf',
    'EquivalentObjectProperties',
    'SubPropertyChainOf',
    'TransitiveObjectProperty',
    'ReflexiveObjectProperty',
    'ObjectPropertyDomain',
    'ObjectPropertyRange',
    'ClassAssertion',
    'ObjectPropertyAssertion',
    'SameIndividual',
    'DifferentIndividuals',
  ].map((c) => row(c, 'supported', 'EL++ completion rules (ELK-style saturation)')),
  ...[
    'ObjectUnionOf',
    'ObjectComplementOf (beyond disjointness)',
    'ObjectAllValuesFrom',
    'object cardinality restrictions',
    'ObjectInverseOf',
    'FunctionalObjectProperty',
    'InverseFunctionalObjectProperty',
    'SymmetricObjectProperty',
    'AsymmetricObjectProperty',
    'IrreflexiveObjectProperty',
    'InverseObjectProperties',
    'DisjointObjectProperties',
    'HasKey',
    'NegativeObjectPropertyAssertion',
    'NegativeDataPropertyAssertion',
  ].map((c) =>
    row(
      c,
      'unsupported',
      'the axiom is left out whole and reported unsupported (unions and multi-individual ObjectOneOf on the right and complements on the left are kept as opaque concepts); answers stay sound, may be incomplete',
    ),
  ),
  row('DataPropertyDomain', 'unsupported', 'left out and reported unsupported, as in ELK 0.6'),
  row(
    'DataHasValue, DataSomeValuesFrom over EL datatypes',
    'supported',
    'opaque data restrictions with value, datatype and sub-property entailments; unsatisfiable on owl:bottomDataProperty; values other than strings are compared by lexical form and reported unsupported, as are owl:topDataProperty restrictions',
  ),
  row(
    'other data property axioms and restrictions',
    'unsupported',
    'ignored unless a data restriction or assertion uses the property; then reported unsupported',
  ),
  row('DLSafeRule (SWRL)', 'unsupported', 'left out and reported unsupported; classifying tools add a warning when rules exist'),
];

// one row per axiom type, as for the other reasoners: materialization looks its categories up by construct
const KONCLUDE_OWL: readonly CapabilityRow[] = [
  row(
    'OWL 2 DL (SROIQV(D)) axioms and class expressions',
    'supported',
    'Konclude, a complete tableau-saturation reasoner, run as a subprocess over functional syntax',
  ),
  ...[
    'SubClassOf',
    'EquivalentClasses',
    'DisjointClasses',
    'DisjointUnion',
    'SubObjectPropertyOf',
    'SubPropertyChainOf',
    'EquivalentObjectProperties',
    'DisjointObjectProperties',
    'InverseObjectProperties',
    'ObjectPropertyDomain',
    'ObjectPropertyRange',
    'FunctionalObjectProperty',
    'InverseFunctionalObjectProperty',
    'ReflexiveObjectProperty',
    'IrreflexiveObjectProperty',
    'SymmetricObjectProperty',
    'AsymmetricObjectProperty',
    'TransitiveObjectProperty',
    'SubDataPropertyOf',
    'EquivalentDataProperties',
    'DisjointDataProperties',
    'DataPropertyDomain',
    'DataPropertyRange',
    'FunctionalDataProperty',
    'DatatypeDefinition',
    'HasKey',
    'ClassAssertion',
    'ObjectPropertyAssertion',
    'DataPropertyAssertion',
    'NegativeObjectPropertyAssertion',
    'NegativeDataPropertyAssertion',
    'SameIndividual',
    'DifferentIndividuals',
  ].map((c) => row(c, 'supported', 'OWL 2 DL axiom: Konclude reasons with it completely')),
  row('DLSafeRule (SWRL)', 'unsupported', 'not sent to Konclude; classifying tools add a warning when rules exist'),
];

const AUTO_OWL: readonly CapabilityRow[] = [
  ...EL_OWL.filter((r) => r.status === 'supported'),
  row(
    'axioms outside what the EL++ classifier handles',
    'supported',
    'answered by Konclude when it is installed; otherwise by the EL++ classifier, marked complete:false',
  ),
  row('DLSafeRule (SWRL)', 'unsupported', 'ignored; classifying tools add a warning when rules exist'),
];

const BUILT_IN: readonly ReasonerInfo[] = [
  {
    id: 'auto',
    name: `Athene Automatic Reasoner ${VERSION}`,
    version: VERSION,
    codeFiles: [...EL_FILES, 'konclude.js'],
    owl: AUTO_OWL,
    unsupportedHandling:
      'The EL++ classifier answers when it handles every axiom (the EL profile); otherwise Konclude answers when it is installed; otherwise the EL++ classifier answers, marked complete:false, with a note on installing Konclude.',
  },
  {
    id: 'el',
    name: `Athene EL++ Classifier ${VERSION}`,
    version: VERSION,
    codeFiles: EL_FILES,
    owl: EL_OWL,
    unsupportedHandling:
      'Axioms outside EL++ are left out whole (a few constructs are kept as opaque concepts); they are counted and sampled as unsupported and every answer is marked complete:false.',
  },
  {
    id: 'structural',
    name: `Athene Structural Reasoner ${VERSION}`,
    version: VERSION,
    codeFiles: [...EL_FILES, 'structural.js'],
    owl: STRUCTURAL_OWL,
    unsupportedHandling:
      'Only the told named-class hierarchy and asserted types are used; every other logical axiom is reported unsupported and answers are marked complete:false.',
  },
];

/** Where Konclude is looked for and how each run is bounded (the `konclude_*` settings). */
export interface KoncludeSettings {
  readonly konclude_path: string | null;
  readonly konclude_memory_mb: number;
  readonly konclude_timeout_s: number;
}

const KONCLUDE_DEFAULTS: KoncludeSettings = { konclude_path: null, konclude_memory_mb: 4096, konclude_timeout_s: 600 };
let koncludeSettings = KONCLUDE_DEFAULTS;
let koncludeFound: { install: KoncludeInstall; info: ReasonerInfo } | null | undefined;

/** Takes the settings of this thread's server (absent ones keep their defaults); Konclude is looked for again. */
export function configureKonclude(settings: Partial<KoncludeSettings>): void {
  koncludeSettings = {
    konclude_path: settings.konclude_path ?? KONCLUDE_DEFAULTS.konclude_path,
    konclude_memory_mb: settings.konclude_memory_mb ?? KONCLUDE_DEFAULTS.konclude_memory_mb,
    konclude_timeout_s: settings.konclude_timeout_s ?? KONCLUDE_DEFAULTS.konclude_timeout_s,
  };
  koncludeFound = undefined;
}

function koncludeInstall(): { install: KoncludeInstall; info: ReasonerInfo } | null {
  if (koncludeFound === undefined) {
    const install = probeKonclude(koncludeSettings.konclude_path);
    koncludeFound =
      install === null
        ? null
        : {
            install,
            info: {
              id: 'konclude',
              name: `Konclude ${install.version}`,
              version: install.version,
              codeFiles: ['konclude.js'],
              owl: KONCLUDE_OWL,
              unsupportedHandling:
                'Konclude is complete for OWL 2 DL; SWRL rules are not sent to it (answers stay complete for the rest, and tools warn).',
            },
          };
  }
  return koncludeFound;
}

/** How to run Konclude, or null when it is not installed. */
export function koncludeConfig(): KoncludeConfig | null {
  const k = koncludeInstall();
  if (k === null) return null;
  return { path: k.install.path, memoryMb: koncludeSettings.konclude_memory_mb, maxTimeMs: koncludeSettings.konclude_timeout_s * 1000 };
}

/** What a user does to get complete OWL 2 DL answers when Konclude is missing. */
export const KONCLUDE_HINT =
  'For complete OWL 2 DL answers install Konclude (`apt install konclude`) or set `konclude_path` to its executable, then restart the server.';

/** The installed reasoners. */
export function reasoners(): readonly ReasonerInfo[] {
  const k = koncludeInstall();
  return k === null ? BUILT_IN : [...BUILT_IN, k.info];
}

/** The reasoner with this id; Konclude's entry exists only when it is installed. */
export function reasonerById(id: Exclude<ReasonerId, 'konclude'>): ReasonerInfo;
export function reasonerById(id: ReasonerId): ReasonerInfo | undefined;
export function reasonerById(id: ReasonerId): ReasonerInfo | undefined {
  // only Konclude's entry needs the probe (a process spawned on this thread): a window starts without it
  return id === 'konclude' ? (koncludeInstall()?.info ?? undefined) : BUILT_IN.find((r) => r.id === id);
}

/** The reasoners sorted by display name, then id (so same-name reasoners stay separate and ordered). */
export function sortedReasoners(): ReasonerInfo[] {
  return [...reasoners()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export type ReferenceOutcome =
  | { readonly kind: 'match'; readonly reasoner: ReasonerInfo }
  | { readonly kind: 'none' }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly ReasonerInfo[] };

const tokens = (s: string): string[] =>
  s
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t.length > 0);

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
export function resolveReasoner(reference: string, installed: readonly ReasonerInfo[] = reasoners()): ReferenceOutcome {
  const ref = reference.trim().toLowerCase();
  const exact = installed.filter((r) => r.id.toLowerCase() === ref || r.name.toLowerCase() === ref);
  const [pinned, ...others] = exact;
  if (pinned !== undefined) return others.length === 0 ? { kind: 'match', reasoner: pinned } : { kind: 'ambiguous', candidates: exact };
  const wanted = tokens(reference);
  const hits = installed.filter((r) => {
    const nameTokens = tokens(r.name);
    const versionless = nameTokens[nameTokens.length - 1] === r.version.toLowerCase() ? nameTokens.slice(0, -1) : nameTokens;
    return containsRun(versionless, wanted);
  });
  const [hit, ...more] = hits;
  if (hit === undefined) return { kind: 'none' };
  return more.length === 0 ? { kind: 'match', reasoner: hit } : { kind: 'ambiguous', candidates: hits };
}

const implementationDigests = new Map<ReasonerId, string>();

/** SHA-256 over the reasoner's installed code files (their names and contents, in a fixed order). */
export function implementationDigest(r: ReasonerInfo): string {
  let d = implementationDigests.get(r.id);
  if (d === undefined) {
    const h = createHash('sha256');
    for (const f of [...r.codeFiles].sort())
      h.update(f + '\0')
        .update(readFileSync(new URL('./' + f, import.meta.url)))
        .update('\0');
    implementationDigests.set(r.id, (d = 'sha256:' + h.digest('hex')));
  }
  return d;
}
