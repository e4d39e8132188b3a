// Triple tables as comparable text: two readers of one document must give the same lines.

import { type TripleTable, termText } from '../../src/model/rdf/rdf-graph-reader.js';
import { at } from './at.js';

/** N-Triples lines of a table in table order, blank nodes renamed by first appearance so two tables compare. */
export function tripleLines(table: TripleTable): string[] {
  const names = new Map<number, string>();
  const term = (id: number) => {
    const v = at(table.terms, id);
    if (typeof v !== 'string' || !v.startsWith('_:')) return termText(v);
    if (!names.has(id)) names.set(id, '_:b' + names.size);
    return names.get(id)!;
  };
  const out: string[] = [];
  for (let i = 0; i < table.size; i++) out.push(`${term(at(table.s, i))} ${term(at(table.p, i))} ${term(at(table.o, i))}`);
  return out;
}
