// The `lock_mode` rule of TOOLS.md 1.8, shared by every tool that takes it (load_ontology, the QC gate, …):
// which lockfile applies (the policy's `imports.lockfile` when it resolves, else `imports.lock.json` beside the
// document), when verification runs (`verify`, `required`, or always under policy `imports.mode: locked`),
// what an absent lockfile means (skipped, or the error finding `imports.lock_missing`), and a mismatch as
// the error finding `imports.lock_mismatch`. Tools report the result as `import_lock_verification`.

import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Finding } from '../qc/finding.js';
import type { PolicyResolution } from '../policy/resolution.js';
import type { ImportGraph } from './closure.js';
import { isBelow } from './lock-documents.js';
import { LOCKFILE_NAME } from './lockfile.js';
import { verifyLock, type LockVerification } from './verify.js';

export type LockMode = 'ignore' | 'verify' | 'required';

export type LockfileSource = 'policy_declared' | 'beside_document';

/** The part of a valid project policy the lock rule reads. */
export interface LockPolicy {
  /** `imports.lockfile`, relative to the project root, when declared. */
  readonly lockfile: string | undefined;
  readonly mode: 'locked' | 'unlocked';
  /** Real path of the project root. */
  readonly projectRoot: string;
}

/** The lock-relevant part of a valid policy; null without one (no policy, or a loaded but invalid one). */
export function lockPolicyOf(res: PolicyResolution): LockPolicy | null {
  if (!res.valid || res.policy === null || res.projectRoot === null) return null;
  return { lockfile: res.policy.imports.lockfile, mode: res.policy.imports.mode, projectRoot: res.projectRoot };
}

export interface LockTarget {
  /** Absolute path of the lockfile to read, or null when there is neither a policy lockfile nor a local document. */
  readonly path: string | null;
  readonly source: LockfileSource;
  /** The policy declared a lockfile that does not resolve to a file inside the project root. */
  readonly declaredUnresolved: string | null;
}

export const BESIDE_DOCUMENT_NOTE =
  'A lockfile beside the document is accident-safety, not tamper-evidence: whoever can change the imported documents can change the lock beside them. Declare imports.lockfile in the project policy to pin it.';

/** The declared lockfile as an absolute path, when it is a regular file whose real path lies inside the root. */
export async function resolveDeclaredLockfile(policy: LockPolicy): Promise<string | null> {
  if (policy.lockfile === undefined) return null;
  const file = path.resolve(policy.projectRoot, policy.lockfile);
  try {
    const real = await realpath(file);
    return isBelow(policy.projectRoot, real) && (await stat(real)).isFile() ? file : null;
  } catch {
    return null;
  }
}

/**
 * Which lockfile applies: the policy's when it declares one that resolves and `usePolicyLockfile` (a load
 * uses it only for the project's root artifact), else `imports.lock.json` beside `document` (a local file).
 */
export async function resolveLockTarget(policy: LockPolicy | null, document: string | null, usePolicyLockfile = true): Promise<LockTarget> {
  const declared = policy !== null && usePolicyLockfile ? await resolveDeclaredLockfile(policy) : null;
  if (declared !== null) return { path: declared, source: 'policy_declared', declaredUnresolved: null };
  const unresolved =
    policy !== null && usePolicyLockfile && policy.lockfile !== undefined ? path.resolve(policy.projectRoot, policy.lockfile) : null;
  return {
    path: document === null ? null : path.join(path.dirname(document), LOCKFILE_NAME),
    source: 'beside_document',
    declaredUnresolved: unresolved,
  };
}

export interface ImportLockVerification {
  /** The mode applied: the requested one, raised to `verify` by policy `imports.mode: locked`. */
  readonly mode: 'verify' | 'required';
  readonly requested_mode: LockMode;
  readonly forced_by_policy: boolean;
  /** A lockfile was read and compared with the closure. */
  readonly verified: boolean;
  readonly skipped?: true;
  readonly path: string | null;
  readonly lockfile_source: LockfileSource;
  readonly lockfile_note?: string;
  readonly note?: string;
  readonly valid?: boolean;
  readonly entry_count?: number;
  readonly sha256?: string | null;
  readonly errors?: readonly string[];
  readonly missing_entries?: LockVerification['missing_entries'];
  readonly extra_entries?: LockVerification['extra_entries'];
  readonly mismatched_entries?: LockVerification['mismatched_entries'];
  /** `imports.lock_missing` or `imports.lock_mismatch` (severity error), else empty. */
  readonly findings: readonly Finding[];
  /** The verification gates: a tool refuses, a QC gate fails. */
  readonly blocking: boolean;
}

function finding(
  ruleId: 'imports.lock_missing' | 'imports.lock_mismatch',
  message: string,
  focus: string | null,
  lockPath: string | null,
  details: Record<string, unknown>,
): Finding {
  return {
    id: ruleId,
    source: 'interoperability',
    severity: 'error',
    message,
    focus_iri: focus,
    axiom: null,
    path: lockPath,
    rule_id: ruleId,
    waiver: null,
    details,
  };
}

const exists = (p: string) =>
  stat(p).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * Applies the lock rule to the closure `graph` (root first) with the lockfile `target`; null when nothing is
 * to be verified (`ignore` without a locked policy). An absent lockfile skips under `verify` (so a locked
 * project can be loaded to write its first lock) and is the finding `imports.lock_missing` under `required`.
 */
export async function checkImportLock(
  requested: LockMode,
  policy: LockPolicy | null,
  target: LockTarget,
  graph: ImportGraph,
): Promise<ImportLockVerification | null> {
  const forced = policy?.mode === 'locked' && requested === 'ignore';
  if (requested === 'ignore' && !forced) return null;
  const mode = requested === 'required' ? 'required' : 'verify';
  const base = {
    mode,
    requested_mode: requested,
    forced_by_policy: forced,
    path: target.path,
    lockfile_source: target.source,
    ...(target.source === 'beside_document' ? { lockfile_note: BESIDE_DOCUMENT_NOTE } : {}),
  } as const;
  const focus = graph.root.ontology_iri;
  if (target.path === null || !(await exists(target.path))) {
    const where = target.path === null ? 'there is no local document to place imports.lock.json beside' : `no lockfile at ${target.path}`;
    const declared =
      target.declaredUnresolved === null
        ? ''
        : `; the policy's imports.lockfile ${target.declaredUnresolved} does not resolve to a file in the project root`;
    if (mode === 'verify')
      return {
        ...base,
        verified: false,
        skipped: true,
        note: `Import lock not verified: ${where}${declared}.`,
        findings: [],
        blocking: false,
      };
    const message = `Import lock missing: ${where}${declared}`;
    return {
      ...base,
      verified: false,
      note: message,
      findings: [finding('imports.lock_missing', message, focus, target.path, { lockfile_source: target.source })],
      blocking: true,
    };
  }
  const result = await verifyLock(target.path, graph);
  const findings = result.valid
    ? []
    : [
        finding('imports.lock_mismatch', `The loaded imports closure does not match the lockfile ${target.path}`, focus, target.path, {
          errors: result.errors.length,
          missing_entries: result.missing_entries.length,
          extra_entries: result.extra_entries.length,
          mismatched_entries: result.mismatched_entries.length,
        }),
      ];
  return { ...base, verified: true, ...result, findings, blocking: !result.valid };
}
