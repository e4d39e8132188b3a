// Helpers for the tests that watch real Konclude processes: a long subclass chain to keep Konclude busy, the
// Konclude processes below this test process, and polling for what they should come to.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { KoncludeConfig } from '../../src/reasoner/konclude.js';
import { koncludeConfig, KONCLUDE_HINT } from '../../src/reasoner/registry.js';
import { at } from '../support/at.js';

export const CHAIN_NS = 'http://example.org/chain#';

/** A subclass chain C0 ⊑ C1 ⊑ … ⊑ Cn: Konclude's time grows about quadratically with n (5,000 take it ~15 s). */
export function chain(n: number): string {
  const lines = [`Prefix(:=<${CHAIN_NS}>)`, 'Ontology(<http://example.org/chain>'];
  for (let i = 0; i < n; i++) lines.push(`SubClassOf(:C${i} :C${i + 1})`);
  return lines.join('\n') + '\n)\n';
}

/**
 * The installed Konclude, or a failure at once that says how to install it: these tests wait minutes for a
 * Konclude process, and without Konclude they would wait out their limits instead.
 */
export function requireKonclude(): KoncludeConfig {
  const config = koncludeConfig();
  if (config === null) throw new Error(`these tests need Konclude. ${KONCLUDE_HINT}`);
  return config;
}

export interface KoncludeRun {
  readonly pid: number;
  /** The run's private directory (where its request file is). */
  readonly dir: string;
  /** Lines of the ontology it was given (gone once the directory is removed). */
  readonly lines: number;
}

/** The Konclude processes descended from this test process (the server's threads spawn them). */
export function koncludeRuns(): KoncludeRun[] {
  const parent = new Map<number, number>();
  const konclude: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const close = stat.lastIndexOf(')');
    parent.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    if (stat.slice(stat.indexOf('(') + 1, close) === 'Konclude') konclude.push(Number(entry));
  }
  const ours = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  const runs: KoncludeRun[] = [];
  for (const pid of konclude.filter(ours)) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const dir = path.dirname(at(args, args.indexOf('-i') + 1, 'the -i argument'));
      runs.push({ pid, dir, lines: readFileSync(path.join(dir, 'ontology.ofn'), 'utf8').split('\n').length });
    } catch {
      continue; // the run ended meanwhile
    }
  }
  return runs;
}

/** Polls `probe` every 50 ms until it answers; fails naming `what` after `limitMs`. */
export async function until<T>(what: string, limitMs: number, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`not within ${limitMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
