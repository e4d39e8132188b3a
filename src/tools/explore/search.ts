// search_entities (TOOLS.md 3.1): ranked, synonym-aware lookup across the loaded ontologies.
// Tiers exact → prefix → substring → fuzzy over display text, IRI / local name, preferred labels and
// synonyms, after folding case, whitespace and diacritics. A `*` makes the query a wildcard pattern. Which
// properties are names and synonyms, and the language priorities, come from the lexical policy.

import * as v from 'valibot';
import { declaration, type Entity, type EntityKind, type IRI } from '../../model/terms.js';
import { ontologyLabel } from '../../model/workspace.js';
import type { Ontology } from '../../model/ontology.js';
import { RDF_LANG_STRING } from '../../model/vocab.js';
import { displayName, localName } from '../../model/display.js';
import { defineTool, never, type ToolContext } from '../core/tool.js';
import { ENTITY_TYPE_INPUT, AnyList, AnyObject } from '../core/result-shapes.js';
import { languageAdjustment, lexicalPolicy, type LexicalPolicy } from '../../policy/lexical.js';
import { scopeSignature } from './ontology-context.js';

const TIER_SCORE = { exact: 100, prefix: 80, substring: 60, wildcard: 60, fuzzy: 30 } as const;
type MatchKind = keyof typeof TIER_SCORE;
type MatchSource = 'iri' | 'local_name' | 'display' | 'preferred_label' | 'synonym';
const SOURCE_PENALTY: Readonly<Record<MatchSource, number>> = { iri: 0, display: 0, local_name: 1, preferred_label: 0, synonym: 5 };

/** Folds case, diacritics and runs of whitespace / separators. */
export function normalize(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s_]+/g, ' ')
    .trim();
}

/** Levenshtein distance, bounded: returns max+1 as soon as it must exceed max. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  // rows of the distance table; a row's cells are read back only at indexes it has already filled
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    let left = i;
    for (let j = 1; j <= b.length; j++) {
      const d = Math.min(prev[j]! + 1, left + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(d);
      left = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

interface Candidate {
  value: string;
  source: MatchSource;
  property: IRI | null;
  language: string | null;
}

interface Hit {
  entity: Entity;
  display: string;
  kind: MatchKind;
  candidate: Candidate;
  score: number;
  /** An exact match on a name the entity goes by (IRI, display, local name, preferred label), whichever candidate scored best. */
  grounds: boolean;
}

/** The query as matched: folded, as a wildcard pattern, and as the IRI it spells (`<…>`, absolute, CURIE). */
interface Query {
  folded: string;
  wildcard: RegExp | null;
  iri: IRI | null;
}

function wildcardRegex(query: string): RegExp {
  const body = normalize(query)
    .split('*')
    .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp('^' + body + '$');
}

function classify(query: string, value: string, wildcard: RegExp | null): MatchKind | null {
  if (wildcard !== null) return wildcard.test(value) ? 'wildcard' : null;
  if (value === query) return 'exact';
  if (value.startsWith(query)) return 'prefix';
  if (value.includes(query)) return 'substring';
  if (query.length >= 4 && editDistance(query, value, query.length >= 8 ? 2 : 1) <= (query.length >= 8 ? 2 : 1)) return 'fuzzy';
  return null;
}

/** IRIs are case-sensitive: only the IRI itself (or a CURIE / `<…>` spelling it) is an exact IRI match. */
function classifyCandidate(q: Query, c: Candidate): MatchKind | null {
  if (c.source !== 'iri') return classify(q.folded, normalize(c.value), q.wildcard);
  if (q.wildcard === null && q.iri === c.value) return 'exact';
  const kind = classify(q.folded, normalize(c.value), q.wildcard);
  return kind === 'exact' ? 'substring' : kind;
}

function candidatesOf(iri: IRI, display: string, closure: readonly Ontology[], lexical: LexicalPolicy): Candidate[] {
  const out: Candidate[] = [
    { value: display, source: 'display', property: null, language: null },
    { value: localName(iri), source: 'local_name', property: null, language: null },
    { value: iri, source: 'iri', property: null, language: null },
  ];
  for (const o of closure) {
    for (const a of o.index.annotationsBySubject.get(iri) ?? []) {
      if (a.value.kind !== 'Literal') continue;
      const preferred = lexical.preferredProperties.includes(a.property.iri);
      if (!preferred && !lexical.synonymProperties.includes(a.property.iri)) continue;
      out.push({
        value: a.value.lex,
        source: preferred ? 'preferred_label' : 'synonym',
        property: a.property.iri,
        language: a.value.datatype === RDF_LANG_STRING ? a.value.lang : null,
      });
    }
  }
  return out;
}

/** Only annotation literals carry a language; display text, IRI and local name are not adjusted. */
const adjustment = (c: Candidate, lexical: LexicalPolicy) => (c.property === null ? 0 : languageAdjustment(lexical, c.language));

function bestHit(e: Entity, q: Query, ctx: ToolContext, lexical: LexicalPolicy): Hit | null {
  const display = displayName(e, ctx.resolver.closure, ctx.settings.label_language);
  let best: Hit | null = null;
  let grounds = false;
  for (const c of candidatesOf(e.iri, display, ctx.workspace.ontologies, lexical)) {
    const kind = classifyCandidate(q, c);
    if (kind === null) continue;
    if (kind === 'exact' && c.source !== 'synonym') grounds = true;
    const score = TIER_SCORE[kind] - SOURCE_PENALTY[c.source] + adjustment(c, lexical);
    if (best === null || score > best.score) best = { entity: e, display, kind, candidate: c, score, grounds: false };
  }
  return best === null ? null : { ...best, grounds };
}

/** Every entity of the loaded ontologies (or only the active one's own signature), of the wanted kinds. */
function universe(ontologies: readonly Ontology[], kinds: ReadonlySet<EntityKind>): Entity[] {
  const seen = new Set<Entity>();
  for (const o of ontologies) for (const kind of kinds) for (const e of o.entities(kind)) seen.add(e);
  return [...seen];
}

/** The loaded ontology an entity comes from: the first (active first) that declares it, else the first that uses it. */
function sourceOntology(e: Entity, ctx: ToolContext): string | null {
  const ws = ctx.workspace;
  const order = ws.hasActive ? [ws.active, ...ws.ontologies.filter((o) => o !== ws.active)] : ws.ontologies;
  const plain = declaration(e);
  const found = order.find((o) => o.has(plain)) ?? order.find((o) => o.index.referencing.has(e));
  return found === undefined ? null : ontologyLabel(found);
}

/** A single plain name: not blank, a wildcard, several words, an IRI / CURIE or a Manchester expression. */
function isMintCandidate(query: string, asIri: IRI | null): boolean {
  const t = query.trim();
  if (asIri !== null || normalize(t) === '' || /[\s*()<>{}[\],'"]/.test(t)) return false;
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(t) && !t.startsWith('urn:');
}

/** Beyond this many matches a search (not a listing) keeps only the best ranked ones. */
const MAX_LEXICAL_CANDIDATES = 1000;

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const TYPES = ['all', 'class', 'object_property', 'data_property', 'annotation_property', 'individual', 'datatype'] as const;

export const searchEntities = defineTool({
  name: 'search_entities',
  description: 'Ranked entity search (`*` wildcard) with best_match and would_mint; search before minting.',
  input: v.strictObject({
    query: v.pipe(v.string(), v.description('Substring or * pattern; empty lists every entity.')),
    type: v.optional(v.picklist(TYPES), 'all'),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 50),
    offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  }),
  output: v.object({
    count: v.number(),
    offset: v.number(),
    returned: v.number(),
    items: AnyList,
    would_mint: v.boolean(),
    best_match: v.nullable(v.string()),
    mint_blocked_by_collision: v.boolean(),
    reuse_candidate: v.nullable(AnyObject),
    collisions: AnyList,
    lexical_policy: AnyObject,
    query: v.string(),
    type: v.string(),
    next_offset: v.optional(v.number()),
    lexical_match_count: v.optional(v.number()),
    lexical_candidates_truncated: v.optional(v.number()),
  }),
  capabilities: ['ontology:read'],
  mutating: never,
  handler: async (args, ctx) => {
    const lexical = lexicalPolicy(await ctx.window.policy.resolve(ctx), ctx.settings.label_language);
    const kinds = new Set<EntityKind>(args.type === 'all' ? Object.values(ENTITY_TYPE_INPUT) : [ENTITY_TYPE_INPUT[args.type]]);
    const q = normalize(args.query);
    const wildcardOnly = q.replace(/\*/g, '').trim() === '';
    const asIri = ctx.resolver.asIri(args.query);
    const hits: Hit[] = [];
    if (wildcardOnly) {
      const active = ctx.workspace.active;
      // type=all lists the own signature as summarize_ontology counts it: the datatypes plain literals carry
      // implicitly (xsd:string, rdf:langString) only where named; type=datatype lists them too
      const own = args.type === 'all' ? scopeSignature([active]) : null;
      for (const e of universe([active], kinds)) {
        if (own !== null && e.kind === 'Datatype' && !own.has(e)) continue;
        const display = displayName(e, ctx.resolver.closure, ctx.settings.label_language);
        hits.push({
          entity: e,
          display,
          kind: 'wildcard',
          candidate: { value: display, source: 'display', property: null, language: null },
          score: TIER_SCORE.wildcard,
          grounds: false,
        });
      }
    } else {
      const query: Query = { folded: q, wildcard: q.includes('*') ? wildcardRegex(args.query) : null, iri: asIri };
      for (const e of universe(ctx.workspace.ontologies, kinds)) {
        const h = bestHit(e, query, ctx, lexical);
        if (h !== null) hits.push(h);
      }
    }
    hits.sort(
      (a, b) => b.score - a.score || cmp(a.display, b.display) || cmp(a.entity.iri, b.entity.iri) || cmp(a.entity.kind, b.entity.kind),
    );

    // Grounding over every match: exact hits on a name the entity goes by (never a synonym) pick a winner, or collide.
    const exactIris = [...new Set(hits.filter((h) => h.grounds).map((h) => h.entity.iri))].sort();
    const collision = exactIris.length > 1;
    const mintable = isMintCandidate(args.query, asIri);
    const reuse = exactIris.length === 0 ? (hits.find((h) => h.kind === 'fuzzy' || h.candidate.source === 'synonym') ?? null) : null;
    // a search keeps its best MAX_LEXICAL_CANDIDATES matches; a listing of the signature keeps everything
    const omitted = wildcardOnly ? 0 : Math.max(0, hits.length - MAX_LEXICAL_CANDIDATES);
    const matchCount = hits.length;
    if (omitted > 0) hits.length = MAX_LEXICAL_CANDIDATES;
    const page = hits.slice(args.offset, args.offset + args.limit);
    const items = page.map((h) => ({
      iri: h.entity.iri,
      display: h.display,
      type: h.entity.kind,
      ontology: sourceOntology(h.entity, ctx),
      score: h.score,
      match_kind: h.kind,
      match_source: h.candidate.source,
      matched_value: h.candidate.value,
      matched_property: h.candidate.property,
      language: h.candidate.language,
      normalization: 'nfkd-casefold-whitespace',
      score_explanation: `${h.kind} match on ${h.candidate.source}${h.candidate.language === null ? '' : ' @' + h.candidate.language} (score ${h.score})`,
      collision: collision && exactIris.includes(h.entity.iri),
      ...(collision && exactIris.includes(h.entity.iri) ? { collision_iris: exactIris } : {}),
      needs_review: h.kind === 'fuzzy' || h.candidate.source === 'synonym',
    }));
    const next = args.offset + page.length;
    return {
      count: hits.length,
      offset: args.offset,
      returned: items.length,
      items,
      ...(next < hits.length ? { next_offset: next } : {}),
      ...(omitted > 0 ? { lexical_match_count: matchCount, lexical_candidates_truncated: omitted } : {}),
      would_mint: mintable && exactIris.length === 0,
      best_match: exactIris.length === 1 ? (exactIris[0] ?? null) : null,
      mint_blocked_by_collision: collision,
      reuse_candidate:
        reuse === null
          ? null
          : {
              iri: reuse.entity.iri,
              display: reuse.display,
              type: reuse.entity.kind,
              match_kind: reuse.kind,
              matched_value: reuse.candidate.value,
            },
      collisions: collision ? [{ name: args.query, iris: exactIris }] : [],
      lexical_policy: {
        source: lexical.source,
        preferred_properties: lexical.preferredProperties,
        synonym_properties: lexical.synonymProperties,
        preferred_languages: lexical.preferredLanguages,
        fallback_languages: lexical.fallbackLanguages,
        ...(lexical.fallbackReason === null ? {} : { fallback_reason: lexical.fallbackReason }),
      },
      query: args.query,
      type: args.type,
    };
  },
});
