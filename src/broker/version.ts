// Which of two athene releases is newer, for the version takeover: a newer `athene` finding an older live
// broker asks it for the port. A release is its broker protocol and its package version; the protocol
// counts first. Tests stand in for another release with ATHENE_PROTOCOL_VERSION_OVERRIDE, read only here.

import { BROKER_PROTOCOL } from './wire.js';

export interface Release {
  readonly protocol: number;
  /** The package version (`major.minor.patch`, as in package.json). */
  readonly version: string;
}

export const PROTOCOL_OVERRIDE_ENV = 'ATHENE_PROTOCOL_VERSION_OVERRIDE';

/** This process's release: the package version and the broker protocol, or the override's protocol. */
export function ownRelease(version: string, env: NodeJS.ProcessEnv): Release {
  const override = env[PROTOCOL_OVERRIDE_ENV];
  if (override === undefined || override === '') return { protocol: BROKER_PROTOCOL, version };
  const n = Number(override);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${PROTOCOL_OVERRIDE_ENV} must be a positive integer, not '${override}'`);
  return { protocol: n, version };
}

/** Numeric `major.minor.patch` parts; a missing or non-numeric part counts as 0. */
function parts(version: string): number[] {
  const [core = ''] = version.split(/[-+]/);
  const numbers = core.split('.');
  return [0, 1, 2].map((i) => {
    const n = Number(numbers[i]);
    return Number.isInteger(n) && n >= 0 ? n : 0;
  });
}

/** Negative when `a` is older than `b`, positive when newer, 0 when the same release. */
export function compareReleases(a: Release, b: Release): number {
  if (a.protocol !== b.protocol) return a.protocol - b.protocol;
  const pa = parts(a.version);
  const pb = parts(b.version);
  for (const [i, n] of pa.entries()) {
    const m = pb[i] ?? 0;
    if (n !== m) return n - m;
  }
  return 0;
}

export function describeRelease(r: Release): string {
  return `athene ${r.version}, broker protocol ${r.protocol}`;
}
