// The optional baseline of a release (TOOLS.md run_release_gate `baseline_manifest`): a prior manifest.json
// inside the project root, parsed strictly (manifest.ts), every artifact it records verified (contained in
// the manifest's directory and the project root, a regular file of the recorded size and sha256), then the
// asserted axiom diff of the current root ontology against the baseline serialization, parsed from exactly
// the bytes that were verified (never re-read). Anything wrong is `release.baseline_invalid`, failing the gate.

import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { Ontology } from '../model/ontology.js';
import { readDocument } from '../model/formats/registry.js';
import { diffAxiomSets, scopeAxioms } from '../model/diff.js';
import { axiomLines } from '../model/render/axiom-lines.js';
import { semanticFingerprint } from '../model/fingerprint.js';
import { checkLocalPath } from '../policy/path-rules.js';
import { isInside, realTarget } from '../policy/paths.js';
import type { PolicyResolution } from '../policy/resolution.js';
import { DomainError } from '../util/errors.js';
import type { CallContext } from '../window/call-context.js';
import { sha256Digest } from '../util/digest.js';
import { releaseFinding, type ReleaseFinding } from './finding.js';
import { parseManifest, type Manifest, type ManifestArtifact } from './manifest.js';
import { projectRelative } from './provenance.js';
import { readRegularFile } from '../util/file-read.js';

/** A manifest is small; anything larger is not one of ours. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;
/** Bound on one recorded artifact and on all of them together (they are read into memory to be hashed). */
export const MAX_ARTIFACT_BYTES = 256 * 1024 * 1024;

export interface BaselineDiff {
  /** Canonical functional-syntax lines (full IRIs), sorted. */
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

export type BaselineOutcome =
  | { readonly compared: false; readonly status: 'not_compared' }
  | { readonly compared: false; readonly status: 'invalid'; readonly manifest: string; readonly reason: string }
  | {
      readonly compared: true;
      readonly status: 'compared';
      readonly manifest: string;
      readonly manifest_sha256: string;
      readonly baseline_created_at: string;
      readonly baseline_version_iri: string | null;
      readonly baseline_semantic_fingerprint: string;
      readonly verified_artifacts: number;
      readonly axioms_added: number;
      readonly axioms_removed: number;
      readonly axioms_common: number;
      /** The baseline's own imports: not resolved (the diff compares asserted axioms only). */
      readonly unresolved_imports: readonly string[];
      readonly diff: BaselineDiff;
    };

export const NOT_COMPARED: BaselineOutcome = { compared: false, status: 'not_compared' };

export interface BaselineCheck {
  readonly outcome: BaselineOutcome;
  readonly findings: readonly ReleaseFinding[];
}

/** A refusal on the way, carried to the one place that turns it into the finding. */
class BaselineProblem extends Error {}

/** A recorded path must be relative, `/`-separated, without `.`/`..` segments or a drive. */
function safeRelative(p: string): boolean {
  return (
    p.length > 0 &&
    !p.startsWith('/') &&
    !p.includes('\\') &&
    !p.includes('\u0000') &&
    !/^[A-Za-z]:/.test(p) &&
    p.split('/').every((s) => s !== '' && s !== '.' && s !== '..')
  );
}

/** Reads a regular file inside `dir` and `root` (symlinks resolved) of at most `max` bytes. */
async function readContained(file: string, dir: string, root: string, max: number, what: string): Promise<Buffer> {
  const real = await realTarget(file);
  if (!isInside(dir, real) || !isInside(root, real))
    throw new BaselineProblem(`${what} resolves outside ${isInside(root, real) ? "the manifest's directory" : 'the project root'}`);
  const info = await lstat(real).catch(() => null);
  if (info === null) throw new BaselineProblem(`${what} does not exist`);
  if (!info.isFile()) throw new BaselineProblem(`${what} is not a regular file`);
  if (info.size > max) throw new BaselineProblem(`${what} is larger than ${max} bytes`);
  return readRegularFile(real, 'document');
}

/** Verifies one recorded artifact and returns its bytes. */
async function verifyArtifact(a: ManifestArtifact, dir: string, root: string): Promise<Buffer> {
  if (!safeRelative(a.path)) throw new BaselineProblem(`the recorded artifact path ${JSON.stringify(a.path)} is not a plain relative path`);
  const what = `the recorded artifact ${a.path}`;
  const bytes = await readContained(path.join(dir, ...a.path.split('/')), dir, root, MAX_ARTIFACT_BYTES, what);
  if (bytes.length !== a.bytes) throw new BaselineProblem(`${what} has ${bytes.length} bytes, the manifest records ${a.bytes}`);
  if (sha256Digest(bytes) !== a.sha256) throw new BaselineProblem(`${what} does not match its recorded sha256`);
  return bytes;
}

/** Every recorded artifact verified; the ontology's verified bytes. */
async function verifyArtifacts(m: Manifest, dir: string, root: string): Promise<Buffer> {
  const paths = m.artifacts.map((a) => a.path);
  if (new Set(paths).size !== paths.length) throw new BaselineProblem('the manifest records one path twice');
  const ontologies = m.artifacts.filter((a) => a.role === 'ontology');
  if (ontologies.length !== 1 || ontologies[0]?.path !== m.ontology.path)
    throw new BaselineProblem('the manifest does not record exactly one ontology artifact at ontology.path');
  const total = m.artifacts.reduce((n, a) => n + a.bytes, 0);
  if (total > MAX_ARTIFACT_BYTES) throw new BaselineProblem(`the recorded artifacts total more than ${MAX_ARTIFACT_BYTES} bytes`);
  let ontology: Buffer | null = null;
  for (const a of m.artifacts) {
    const bytes = await verifyArtifact(a, dir, root);
    if (a.role === 'ontology') ontology = bytes;
  }
  return ontology!;
}

const text = (bytes: Buffer, what: string): string => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new BaselineProblem(`${what} is not UTF-8 text`);
  }
};

/** The asserted axiom diff of `current` against `baseline` (root ontologies only). */
export function assertedDiff(baseline: Ontology, current: Ontology): { diff: BaselineDiff; common: number } {
  const d = diffAxiomSets(scopeAxioms([baseline], false), scopeAxioms([current], false));
  return { diff: { added: axiomLines(d.onlyInRight), removed: axiomLines(d.onlyInLeft) }, common: d.common };
}

async function compare(ctx: CallContext, tool: string, file: string, res: PolicyResolution, current: Ontology): Promise<BaselineOutcome> {
  const root = res.projectRoot!;
  let real: string;
  try {
    // a relative baseline is project-relative, like every asset path of the policy
    real = await checkLocalPath(ctx, tool, path.resolve(root, file), 'read', res);
  } catch (err) {
    if (err instanceof DomainError) throw new BaselineProblem(`it may not be read: ${err.message}`);
    throw err;
  }
  if (!isInside(root, real)) throw new BaselineProblem(`it lies outside the project root ${root}`);
  const bytes = await readContained(real, root, root, MAX_MANIFEST_BYTES, 'the manifest');
  const parsed = parseManifest(text(bytes, 'the manifest'));
  if (!parsed.ok) throw new BaselineProblem(parsed.reason);
  const m = parsed.manifest;
  const dir = path.dirname(real);
  const ontologyBytes = await verifyArtifacts(m, dir, root);
  let baseline: Ontology;
  try {
    baseline = (
      await readDocument(text(ontologyBytes, 'the baseline ontology'), {
        format: m.ontology.format,
        ...(m.ontology.iri === null ? {} : { base: m.ontology.iri }),
      })
    ).ontology;
  } catch (e) {
    throw new BaselineProblem(`the baseline ontology ${m.ontology.path} does not parse as ${m.ontology.format}: ${(e as Error).message}`);
  }
  const { diff, common } = assertedDiff(baseline, current);
  return {
    compared: true,
    status: 'compared',
    manifest: projectRelative(root, real),
    manifest_sha256: sha256Digest(bytes),
    baseline_created_at: m.created_at,
    baseline_version_iri: baseline.id.versionIri,
    baseline_semantic_fingerprint: semanticFingerprint(baseline),
    verified_artifacts: m.artifacts.length,
    axioms_added: diff.added.length,
    axioms_removed: diff.removed.length,
    axioms_common: common,
    unresolved_imports: [...baseline.imports].sort(),
    diff,
  };
}

/** Verifies the baseline manifest `file` and diffs `current` against it; without one, `not_compared`. */
export async function checkBaseline(
  ctx: CallContext,
  tool: string,
  file: string | undefined,
  res: PolicyResolution,
  current: Ontology,
): Promise<BaselineCheck> {
  if (file === undefined) return { outcome: NOT_COMPARED, findings: [] };
  try {
    return { outcome: await compare(ctx, tool, file, res, current), findings: [] };
  } catch (err) {
    if (!(err instanceof BaselineProblem)) throw err;
    const shown = projectRelative(res.projectRoot, res.projectRoot === null ? file : path.resolve(res.projectRoot, file));
    return {
      outcome: { compared: false, status: 'invalid', manifest: shown, reason: err.message },
      findings: [
        releaseFinding(
          'release.baseline_invalid',
          'error',
          `The baseline manifest ${shown} cannot be used: ${err.message}`,
          current.id.iri,
          shown,
          { manifest: shown },
        ),
      ],
    };
  }
}

/** The outcome as results and reports show it: the diff's counts, not its lines (those go to diff.json). */
export function baselineSummary(b: BaselineOutcome): Record<string, unknown> {
  if (b.status !== 'compared') return { ...b };
  const { diff: _lines, ...rest } = b;
  return rest;
}
