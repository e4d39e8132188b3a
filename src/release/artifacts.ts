// The files of a release (TOOLS.md prepare_release), as a pure function of the gate result and `created_at`:
// the verified serialization, reports/qc.{json,md,xml,sarif}, reports/diff.json with a baseline, the
// RO-Crate metadata describing them, and manifest.json recording every other file's sha256 and size
// (written last). Also the containment-enforcing writer: every target is checked inside the output directory
// (symlinks resolved) before anything is written, then each file is replaced atomically.

import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { isInside, realTarget } from '../policy/paths.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { sha256Digest } from '../util/digest.js';
import { buildManifest, MANIFEST_FILE, serializeManifest, type ArtifactRole, type Manifest, type ManifestArtifact } from './manifest.js';
import type { ReleaseGateResult } from './result.js';
import { qcJsonText } from './reports/qc-json.js';
import { qcMarkdown } from './reports/markdown.js';
import { qcJunit } from './reports/junit.js';
import { qcSarifText } from './reports/sarif.js';
import { diffJsonText } from './reports/diff-json.js';
import { RO_CRATE_FILE, roCrate, type CrateFile } from './reports/ro-crate.js';

export interface ReleaseFile {
  /** Relative to the output directory, `/`-separated. */
  readonly path: string;
  readonly role: ArtifactRole | 'manifest';
  readonly media_type: string;
  readonly text: string;
  readonly sha256: string;
  readonly bytes: number;
}

export interface ReleaseBundle {
  /** Every file, the manifest last. */
  readonly files: readonly ReleaseFile[];
  readonly manifest: Manifest;
  readonly roCrate: Record<string, unknown>;
}

function file(p: string, role: ReleaseFile['role'], mediaType: string, text: string): ReleaseFile {
  const bytes = Buffer.byteLength(text, 'utf8');
  return { path: p, role, media_type: mediaType, text, sha256: sha256Digest(text), bytes };
}

const FILE_NAMES: Readonly<Record<ArtifactRole, string>> = {
  ontology: 'the released ontology',
  qc_json: 'QC report (JSON)',
  qc_markdown: 'QC report (Markdown)',
  qc_junit: 'QC report (JUnit XML)',
  qc_sarif: 'QC report (SARIF 2.1.0)',
  diff: 'asserted axiom diff against the baseline release',
  ro_crate: 'RO-Crate metadata',
};

const toArtifact = (f: ReleaseFile): ManifestArtifact => ({
  path: f.path,
  role: f.role as ArtifactRole,
  media_type: f.media_type,
  sha256: f.sha256,
  bytes: f.bytes,
});

/** The release files of a gate result without a manifest blocker; throws otherwise (a caller bug). */
export function buildRelease(g: ReleaseGateResult, createdAt: string): ReleaseBundle {
  if (g.serialization === null || g.manifest_blocker !== null)
    throw new Error(`no release for this gate result: ${g.manifest_blocker ?? 'no serialization'}`);
  const diff = diffJsonText(g, createdAt);
  const parts = [
    file(g.serialization.path, 'ontology', g.serialization.media_type, g.serialization.text),
    file('reports/qc.json', 'qc_json', 'application/json', qcJsonText(g, createdAt)),
    file('reports/qc.md', 'qc_markdown', 'text/markdown', qcMarkdown(g, createdAt)),
    file('reports/qc.xml', 'qc_junit', 'application/xml', qcJunit(g, createdAt)),
    file('reports/qc.sarif', 'qc_sarif', 'application/sarif+json', qcSarifText(g, createdAt)),
    ...(diff === null ? [] : [file('reports/diff.json', 'diff', 'application/json', diff)]),
  ];
  const described: CrateFile[] = parts.map((f) => ({
    path: f.path,
    name: FILE_NAMES[f.role as ArtifactRole],
    media_type: f.media_type,
    sha256: f.sha256,
    bytes: f.bytes,
  }));
  const crate = roCrate(g, createdAt, described);
  const crateFile = file(RO_CRATE_FILE, 'ro_crate', 'application/ld+json', JSON.stringify(crate, null, 2) + '\n');
  const recorded = [...parts, crateFile];
  const manifest = buildManifest(g, createdAt, recorded.map(toArtifact));
  return {
    files: [...recorded, file(MANIFEST_FILE, 'manifest', 'application/json', serializeManifest(manifest))],
    manifest,
    roCrate: crate,
  };
}

/** A target the writer refuses (outside the output directory once symlinks are resolved, or not a file). */
export class ContainmentError extends Error {
  constructor(
    message: string,
    readonly target: string,
  ) {
    super(message);
    this.name = 'ContainmentError';
  }
}

/** The absolute target of `f` inside `outputDir` (a real path), checked before any write. */
async function containedTarget(outputDir: string, f: ReleaseFile): Promise<string> {
  const target = path.join(outputDir, ...f.path.split('/'));
  const real = await realTarget(target);
  if (!isInside(outputDir, real) || real === outputDir)
    throw new ContainmentError(`${f.path} resolves outside the output directory ${outputDir}`, target);
  const existing = await lstat(real).catch(() => null);
  if (existing !== null && !existing.isFile()) throw new ContainmentError(`${f.path} exists and is not a regular file`, target);
  return real;
}

/** Writes every file of the bundle under `outputDir` (a real path), each atomically, the manifest last. */
export async function writeRelease(outputDir: string, files: readonly ReleaseFile[]): Promise<string[]> {
  const targets: { file: ReleaseFile; target: string }[] = [];
  for (const file of files) targets.push({ file, target: await containedTarget(outputDir, file) });
  for (const { file, target } of targets) await writeFileAtomic(target, file.text);
  return targets.map((t) => t.target);
}
