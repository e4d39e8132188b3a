// A classification slow enough to watch while it runs, and polling the window's reasoner status, for the
// tests that act on a running classification.

import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call } from './support.js';

/**
 * A chain with a transitive role: quadratic saturation, slow enough to observe a running classification
 * (n = 2000: about 12 s of CPU on a 2-core CI machine; n = 1000: about 3 s). `name` tells ontologies apart.
 */
export function slowOntology(n: number, name = 'big'): string {
  const lines = [`Prefix(:=<http://example.org/${name}#>)`, `Ontology(<http://example.org/${name}>`, 'TransitiveObjectProperty(:r)'];
  for (let i = 0; i < n; i++) {
    lines.push(`SubClassOf(:A${i} ObjectSomeValuesFrom(:r :A${i + 1}))`, `EquivalentClasses(:B${i} ObjectSomeValuesFrom(:r :A${i}))`);
  }
  lines.push(')');
  return lines.join('\n') + '\n';
}

/** Polls list_reasoners until the status is no longer `classifying`. */
export async function settledStatus(client: Client): Promise<string> {
  for (;;) {
    const status = (await call(client, 'list_reasoners')).body.status as string;
    if (status !== 'classifying') return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls list_reasoners until a classification is running (fails after 200 polls). */
export async function untilClassifying(client: Client): Promise<void> {
  let status = '';
  for (let i = 0; i < 200 && status !== 'classifying'; i++) status = (await call(client, 'list_reasoners')).body.status as string;
  assert.equal(status, 'classifying');
}
