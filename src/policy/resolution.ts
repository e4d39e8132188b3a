// What discovering a project policy yields (TOOLS.md 1.9): which file governs (if any), the project root it
// anchors, the path mode it puts callers in, and the effective policy when it is valid. Every path, network
// and lock decision reads one of these, so they all agree on which policy applies.

import type { EffectivePolicy } from './schema.js';

export type Discovery = 'explicit' | 'discovered' | 'none';

export type PathMode = 'policy_confined' | 'legacy_local_admin_unrestricted' | 'policy_required';

export interface PolicyIssue {
  readonly severity: 'error' | 'warn';
  readonly code: string;
  /** Where in the policy (dotted path, e.g. `imports.lockfile`), if the issue has a place. */
  readonly path?: string;
  readonly message: string;
}

export interface PolicyResolution {
  readonly discovery: Discovery;
  readonly pathMode: PathMode;
  /** Absolute path of the policy file, when one was found. */
  readonly file: string | null;
  /** Real path (symlinks resolved) of the project root, when a policy was found and its root resolves. */
  readonly projectRoot: string | null;
  /** A policy file was found and read (it may still be invalid). */
  readonly loaded: boolean;
  readonly valid: boolean;
  /** The effective policy (defaults filled in); only when valid. */
  readonly policy: EffectivePolicy | null;
  /** `sha256:` digest of the canonical effective data (comments and key order irrelevant); only when valid. */
  readonly digest: string | null;
  readonly errors: readonly PolicyIssue[];
  readonly warnings: readonly PolicyIssue[];
}
