// Tells the user, on stderr, what a parser read but could not map to OWL (it is not in any output).

import type { Ontology } from '../model/ontology.js';

const SHOWN = 5;

export function reportUnmapped(ontology: Ontology, file: string): void {
  const items = ontology.unmapped;
  if (items.length === 0) return;
  const lines = items.slice(0, SHOWN).map((u) => `  ${u.text}  (${u.reason})`);
  if (items.length > SHOWN) lines.push(`  … and ${items.length - SHOWN} more`);
  process.stderr.write(`athene: ${file}: ${items.length} item(s) could not be mapped to OWL and are left out:\n${lines.join('\n')}\n`);
}
