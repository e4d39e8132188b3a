// The vocabulary a query author needs (`sparql_schema`, TOOLS.md 3.9), from the asserted model: named
// classes, properties with their named domains and ranges, individuals with their named asserted types,
// datatypes, the prefixes every query gets, and example queries built from the ontology's own terms.

import type { EntityKind, IRI } from '../model/terms.js';
import type { Ontology } from '../model/ontology.js';
import { displayName } from '../model/display.js';
import { isBuiltIn } from '../model/resolver.js';
import type { PrefixTable } from './query-form.js';

export interface TermRow {
  curie?: string;
  iri: IRI;
  display: string;
}

export interface SchemaOptions {
  readonly keyword: string | undefined;
  readonly limit: number;
  readonly includeIndividuals: boolean;
  readonly includeExamples: boolean;
  readonly labelLanguage: string;
}

const LISTS = [
  ['classes', 'Class'],
  ['object_properties', 'ObjectProperty'],
  ['data_properties', 'DataProperty'],
  ['individuals', 'NamedIndividual'],
  ['datatypes', 'Datatype'],
] as const satisfies readonly (readonly [string, EntityKind])[];

type ListName = (typeof LISTS)[number][0];

const LOCAL = /^[\p{L}\p{N}_](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}_-])?$/u;

/** `name:local` for the longest namespace in the table whose remainder is a plain local name. */
export function curieOf(iri: IRI, prefixes: PrefixTable): string | undefined {
  let best: [string, string] | null = null;
  for (const [name, ns] of prefixes) {
    if (iri.startsWith(ns) && LOCAL.test(iri.slice(ns.length)) && (best === null || ns.length > best[1].length)) best = [name, ns];
  }
  return best === null ? undefined : `${best[0]}:${iri.slice(best[1].length)}`;
}

function termRow(iri: IRI, scope: readonly Ontology[], prefixes: PrefixTable, lang: string): TermRow {
  const curie = curieOf(iri, prefixes);
  const display = displayName(iri, scope, lang);
  return curie === undefined ? { iri, display } : { curie, iri, display };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Case-insensitive display order, then exact display and IRI, so the order is total. */
const byDisplay = (a: TermRow, b: TermRow): number =>
  cmp(a.display.toLowerCase(), b.display.toLowerCase()) || cmp(a.display, b.display) || cmp(a.iri, b.iri);

/** Named domains, ranges and types, keyed by the IRI they describe. */
function namedLinks(scope: readonly Ontology[]): { domains: Map<IRI, Set<IRI>>; ranges: Map<IRI, Set<IRI>>; types: Map<IRI, Set<IRI>> } {
  const domains = new Map<IRI, Set<IRI>>();
  const ranges = new Map<IRI, Set<IRI>>();
  const types = new Map<IRI, Set<IRI>>();
  const add = (m: Map<IRI, Set<IRI>>, key: IRI, value: IRI): void => {
    let s = m.get(key);
    if (s === undefined) m.set(key, (s = new Set()));
    s.add(value);
  };
  for (const o of scope) {
    for (const a of o.axiomsOfKind('ObjectPropertyDomain'))
      if (a.property.kind === 'ObjectProperty' && a.domain.kind === 'Class') add(domains, a.property.iri, a.domain.iri);
    for (const a of o.axiomsOfKind('ObjectPropertyRange'))
      if (a.property.kind === 'ObjectProperty' && a.range.kind === 'Class') add(ranges, a.property.iri, a.range.iri);
    for (const a of o.axiomsOfKind('DataPropertyDomain')) if (a.domain.kind === 'Class') add(domains, a.property.iri, a.domain.iri);
    for (const a of o.axiomsOfKind('DataPropertyRange')) if (a.range.kind === 'Datatype') add(ranges, a.property.iri, a.range.iri);
    for (const a of o.axiomsOfKind('ClassAssertion'))
      if (a.cls.kind === 'Class' && a.individual.kind === 'NamedIndividual') add(types, a.individual.iri, a.cls.iri);
  }
  return { domains, ranges, types };
}

function ref(row: TermRow): string {
  return row.curie ?? `<${row.iri}>`;
}

function examples(lists: Readonly<Record<ListName, readonly TermRow[]>>): { title: string; query: string }[] {
  const out = [
    {
      title: 'Named classes with their labels',
      query: 'SELECT ?class ?label WHERE {\n  ?class a owl:Class .\n  OPTIONAL { ?class rdfs:label ?label }\n}\nORDER BY ?class\nLIMIT 50',
    },
  ];
  const cls = lists.classes[0];
  if (cls !== undefined) {
    out.push({
      title: `Direct subclasses of ${cls.display}`,
      query: `SELECT ?sub WHERE {\n  ?sub rdfs:subClassOf ${ref(cls)} .\n}\nORDER BY ?sub`,
    });
    out.push({
      title: `Instances of ${cls.display} (asserted; pass include_inferred=true for inferred types)`,
      query: `SELECT ?x WHERE {\n  ?x a ${ref(cls)} .\n}\nORDER BY ?x\nLIMIT 50`,
    });
  }
  const op = lists.object_properties[0];
  if (op !== undefined)
    out.push({ title: `Pairs related by ${op.display}`, query: `SELECT ?s ?o WHERE {\n  ?s ${ref(op)} ?o .\n}\nLIMIT 50` });
  const dp = lists.data_properties[0];
  if (dp !== undefined)
    out.push({ title: `Values of ${dp.display}`, query: `SELECT ?s ?value WHERE {\n  ?s ${ref(dp)} ?value .\n}\nLIMIT 50` });
  return out;
}

/** The schema lists, counts and examples for `scope` (the active ontology first). */
export function describeSchema(scope: readonly Ontology[], prefixes: PrefixTable, options: SchemaOptions): Record<string, unknown> {
  const keyword = options.keyword?.toLowerCase();
  const links = namedLinks(scope);
  const counts: Record<string, number> = {};
  const matched: Record<string, number> = {};
  const truncated: Record<string, number> = {};
  const lists = {} as Record<ListName, TermRow[]>;
  for (const [name, kind] of LISTS) {
    const iris = new Set<IRI>();
    for (const o of scope) for (const e of o.index.entitiesOfKind(kind)) if (!isBuiltIn(e)) iris.add(e.iri);
    const rows = [...iris].map((iri) => termRow(iri, scope, prefixes, options.labelLanguage)).sort(byDisplay);
    counts[name] = rows.length;
    const hits =
      keyword === undefined
        ? rows
        : rows.filter(
            (r) =>
              r.display.toLowerCase().includes(keyword) ||
              r.iri.toLowerCase().includes(keyword) ||
              (r.curie?.toLowerCase().includes(keyword) ?? false),
          );
    matched[name] = hits.length;
    const shown = name === 'individuals' && !options.includeIndividuals ? [] : hits.slice(0, options.limit);
    if (shown.length < hits.length && (name !== 'individuals' || options.includeIndividuals)) truncated[name] = hits.length - shown.length;
    lists[name] = shown;
  }
  const rowsOf = (iris: Set<IRI> | undefined): TermRow[] =>
    [...(iris ?? [])].map((iri) => termRow(iri, scope, prefixes, options.labelLanguage)).sort(byDisplay);
  const withLinks = (rows: TermRow[]) =>
    rows.map((r) => ({ ...r, domains: rowsOf(links.domains.get(r.iri)), ranges: rowsOf(links.ranges.get(r.iri)) }));
  return {
    counts,
    ...(keyword !== undefined ? { matched } : {}),
    classes: lists.classes,
    object_properties: withLinks(lists.object_properties),
    data_properties: withLinks(lists.data_properties),
    individuals: lists.individuals.map((r) => ({ ...r, types: rowsOf(links.types.get(r.iri)) })),
    datatypes: lists.datatypes,
    examples: options.includeExamples ? examples(lists) : [],
    ...(Object.keys(truncated).length > 0 ? { truncated } : {}),
  };
}
