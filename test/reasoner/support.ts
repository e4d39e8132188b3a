// Helpers shared by the reasoner tests.

import type { ElResult } from '../../src/reasoner/el-reasoner.js';

/** Whether the taxonomy has `sub` below (or equal to) `sup`. */
export function subsumes(res: ElResult, sub: string, sup: string): boolean {
  const target = res.taxonomy.nodeOf(sup);
  const stack = [res.taxonomy.nodeOf(sub)];
  while (stack.length) {
    const n = stack.pop();
    if (n === undefined) continue;
    if (n === target) return true;
    stack.push(...n.parents);
  }
  return false;
}
