// Writer of OWL 2 Functional-Style Syntax documents. The output is deterministic: prefixes sorted by
// name, imports and ontology annotations sorted, axioms grouped by kind (in AXIOM_KINDS order) and sorted
// by their text within a kind, anonymous individuals labelled from the content around them.

import type { AxiomKind } from '../../terms.js';
import { AXIOM_KINDS } from '../../terms.js';
import type { Ontology } from '../../ontology.js';
import { STANDARD_PREFIXES } from '../../vocab.js';
import { anonymousLabels } from '../../render/anonymous-labels.js';
import { FunctionalRenderer, isPrefixName } from './renderer.js';

const KIND_ORDER = new Map<AxiomKind, number>(AXIOM_KINDS.map((k, i) => [k, i]));

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The ontology as a complete functional-syntax document. */
export function writeFunctional(o: Ontology): string {
  const prefixes = new Map<string, string>(STANDARD_PREFIXES);
  for (const [name, ns] of o.prefixes) if (isPrefixName(name) && name !== '_:') prefixes.set(name, ns);
  const labels = anonymousLabels(o, '_:a');
  const r = new FunctionalRenderer(prefixes, (a) => labels.get(a)!);

  const out: string[] = [];
  for (const name of [...prefixes.keys()].sort()) out.push('Prefix(' + name + '=<' + prefixes.get(name) + '>)');
  out.push('');
  const { iri, versionIri } = o.id;
  out.push('Ontology(' + (iri === null ? '' : '<' + iri + '>' + (versionIri === null ? '' : ' <' + versionIri + '>')));
  for (const imp of [...o.imports].sort()) out.push('Import(<' + imp + '>)');
  out.push(...[...o.annotations].map((a) => r.annotation(a)).sort());
  out.push('');

  const rows: { kind: number; text: string }[] = [];
  for (const a of o.axioms()) rows.push({ kind: KIND_ORDER.get(a.kind)!, text: r.axiom(a) });
  rows.sort((x, y) => x.kind - y.kind || compareText(x.text, y.text));
  for (const row of rows) out.push(row.text);
  out.push(')');
  return out.join('\n') + '\n';
}
