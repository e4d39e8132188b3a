// Triple tables as comparable text: two readers of one document must give the same lines.

import { type TripleTable, termText } from '../../src/model/rdf/rdf-graph-reader.js';

/** N-Triples lines of a table in table order, blank nodes renamed by first appearance so two tables compare. */
export function tripleLines(table: TripleTable): string[] {
  const names = new Map<number, string>();
  const term = (id: number) => {
    const v = table.terms[id];
    if (typeof v !== 'string' || !v.startsWith('_:')) return termText(v);
    if (!names.has(id)) names.set(id, '_:b' + names.size);
    return names.get(id)!;
  };
  const out: string[] = [];
  for (let i = 0; i < table.size; i++) out.push(`${term(table.s[i])} ${term(table.p[i])} ${term(table.o[i])}`);
  return out;
}
