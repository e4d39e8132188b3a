// Test helper: which node kinds a set of model nodes contains (to prove a fixture covers every kind).

import type { Node } from '../../src/model/terms.js';
import { children } from '../../src/model/walk.js';

export function kindsIn(nodes: Iterable<Node>): Set<string> {
  const seen = new Set<string>();
  const visit = (n: Node) => {
    seen.add(n.kind);
    for (const c of children(n)) visit(c);
  };
  for (const n of nodes) visit(n);
  return seen;
}
