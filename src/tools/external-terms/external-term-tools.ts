// External terms (TOOLS.md 3.12): search_external_terms, inspect_external_term, propose_term_reuse,
// accept_reuse_proposal. Providers are named by a version-2 project policy and bound to an origin by the
// owner (src/external-terms/binding.ts); authority is rechecked on every call. Searching and inspecting
// are evidence only; a proposal is an immutable, memory-only record of one intended reuse, and accepting
// it never contacts the provider.

import * as v from 'valibot';
import { addMapping } from '../../mappings/commands.js';
import { readStore } from '../../mappings/store.js';
import { annotationAssertion, annotationProperty, declaration, entity, iriNode, literal, type EntityKind } from '../../model/terms.js';
import { RDFS_LABEL } from '../../model/vocab.js';
import { resolvePolicy } from '../../policy/resolve.js';
import { sha256Digest } from '../../util/digest.js';
import { searchProvider, inspectTerm } from '../../external-terms/acquire.js';
import { allowedLanguage, allowedOntology, providerAccess, type ProviderAccess } from '../../external-terms/authority.js';
import { grantOf, opaqueId, ownerKey, type Proposal } from '../../external-terms/actor-store.js';
import type { ProviderRecord } from '../../external-terms/record.js';
import { ToolFailure, defineTool, always, never, type JsonObject, type ToolContext } from '../core/tool.js';
import { AnyList, AnyObject } from '../core/result-shapes.js';
import type { ErrorCode } from '../../util/errors.js';
import { isAbsoluteIri } from '../../model/iri.js';
import { unreachable } from '../../util/unreachable.js';

const CURSOR_TTL_MS = 5 * 60_000;
const PROPOSAL_TTL_MS = 15 * 60_000;
const MAX_QUERY_CODE_POINTS = 512;

const providerId = v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'a provider id'));
const policyPath = v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(4096)));
const network = v.optional(v.picklist(['deny', 'allow']));
const ontologyId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'an ontology id'));
const language = v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/, 'a language tag')));
const absoluteIri = v.pipe(v.string(), v.minLength(1), v.maxLength(2048), v.check(isAbsoluteIri, 'an absolute IRI'));
const digest = v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, 'a sha256: digest'));

const READ = ['ontology:read', 'filesystem:project:read', 'network:access', 'external-terms:read'] as const;

/** Filesystem identities are bound only as digests. */
const digestOrNull = (s: string | null): string | null => (s === null ? null : sha256Digest(s));

/** NFC, trimmed, inner whitespace collapsed; bounded in code points. */
function normalizedQuery(q: string): string {
  const n = q.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (n === '') throw new ToolFailure('query: must not be empty', 'invalid_argument', { argument: 'query' });
  if ([...n].length > MAX_QUERY_CODE_POINTS)
    throw new ToolFailure(`query: at most ${MAX_QUERY_CODE_POINTS} code points`, 'invalid_argument', { argument: 'query' });
  return n;
}

// ---------------------------------------------------------------- search

/** A page of provider records; a continuation cursor while more remain. */
const SearchOutput = v.object({
  provider_id: v.string(),
  profile: v.string(),
  items: AnyList,
  total: v.number(),
  returned: v.number(),
  fetched_at: v.string(),
  retries: v.number(),
  cache_hit: v.boolean(),
  next_cursor: v.optional(v.string()),
  cursor_expires_in_seconds: v.optional(v.number()),
});

export const searchExternalTerms = defineTool({
  name: 'search_external_terms',
  description: 'Search an external-term provider of the policy; evidence only.',
  input: v.strictObject({
    provider_id: v.optional(providerId),
    query: v.optional(v.pipe(v.string(), v.maxLength(4 * MAX_QUERY_CODE_POINTS))),
    ontologies: v.optional(v.pipe(v.array(ontologyId), v.minLength(1), v.maxLength(16))),
    language,
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
    cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(128))),
    policy_path: policyPath,
    network,
  }),
  output: SearchOutput,
  capabilities: [...READ],
  mutating: never,
  handler: async (args, ctx) => {
    const store = ctx.window.externalTerms;
    const now = Date.now();
    store.sweep(now);
    if (args.cursor !== undefined) {
      if (
        args.provider_id !== undefined ||
        args.query !== undefined ||
        args.ontologies !== undefined ||
        args.language !== undefined ||
        args.limit !== undefined
      ) {
        throw new ToolFailure('cursor: a continuation takes the cursor alone (with policy_path and network)', 'invalid_argument', {
          argument: 'cursor',
        });
      }
      const c = store.cursors.get(args.cursor);
      if (c === undefined || c.owner !== ownerKey(ctx))
        throw new ToolFailure('cursor: unknown or expired', 'cursor_invalid', { argument: 'cursor' });
      const access = await providerAccess(ctx, 'search_external_terms', c.providerId, args.policy_path, args.network);
      if (access.policyDigest !== c.policyDigest)
        throw new ToolFailure(
          `provider ${c.providerId}: the project policy changed since this search began; start a new search`,
          'provider_policy_changed',
          { provider_id: c.providerId },
        );
      if (access.bindingGeneration !== c.bindingGeneration)
        throw new ToolFailure(
          `provider ${c.providerId}: the provider binding changed since this search began; start a new search`,
          'provider_authority_changed',
          { provider_id: c.providerId },
        );
      if (access.provider.freshness === 'fresh_required' && now - c.acquiredAt > access.provider.ttl_seconds * 1000) {
        throw new ToolFailure(
          `provider ${c.providerId}: the search's first page is older than the policy's ttl_seconds under freshness fresh_required; start a new search`,
          'provider_acquisition_stale',
          { provider_id: c.providerId },
        );
      }
      store.cursors.delete(args.cursor);
      return searchPage(ctx, access, c.query, c.ontologies, c.language, c.limit, c.start, c.acquiredAt);
    }
    if (args.provider_id === undefined || args.query === undefined) {
      throw new ToolFailure('provider_id and query are required for a new search (or pass cursor alone)', 'invalid_argument', {
        argument: args.provider_id === undefined ? 'provider_id' : 'query',
      });
    }
    const query = normalizedQuery(args.query);
    const access = await providerAccess(ctx, 'search_external_terms', args.provider_id, args.policy_path, args.network);
    const allowList = access.provider.ontologies;
    if (args.ontologies === undefined && allowList.length > 16) {
      throw new ToolFailure(
        `ontologies: the policy allow-lists ${allowList.length} ontologies for ${args.provider_id}; name at most 16`,
        'invalid_argument',
        { argument: 'ontologies' },
      );
    }
    const ontologies = [...new Set(args.ontologies ?? allowList)].map((o) => allowedOntology(access, o));
    const lang = allowedLanguage(access, args.language);
    const limit = Math.min(args.limit ?? access.provider.max_results, access.provider.max_results);
    return searchPage(ctx, access, query, ontologies, lang, limit, 0, now);
  },
});

async function searchPage(
  ctx: ToolContext,
  access: ProviderAccess,
  query: string,
  ontologies: readonly string[],
  lang: string,
  limit: number,
  start: number,
  acquiredAt: number,
): Promise<v.InferOutput<typeof SearchOutput>> {
  const got = await searchProvider(ctx, access, { query, ontologies, language: lang, limit, start });
  const out: v.InferOutput<typeof SearchOutput> = {
    provider_id: access.provider.id,
    profile: 'ols4',
    items: got.records,
    total: got.total,
    returned: got.records.length,
    fetched_at: got.fetchedAt,
    retries: got.retries,
    cache_hit: got.cacheHit,
  };
  const next = start + got.records.length;
  if (got.records.length > 0 && next < got.total) {
    const id = opaqueId();
    ctx.window.externalTerms.cursors.set(id, {
      owner: ownerKey(ctx),
      grantId: grantOf(ctx),
      providerId: access.provider.id,
      query,
      ontologies,
      language: lang,
      limit,
      start: next,
      expires: Date.now() + CURSOR_TTL_MS,
      policyDigest: access.policyDigest,
      bindingGeneration: access.bindingGeneration,
      acquiredAt,
    });
    out.next_cursor = id;
    out.cursor_expires_in_seconds = CURSOR_TTL_MS / 1000;
  }
  return out;
}

// ---------------------------------------------------------------- inspect

export const inspectExternalTerm = defineTool({
  name: 'inspect_external_term',
  description: "An external term's labels, synonyms, status and term_fingerprint.",
  input: v.strictObject({
    provider_id: providerId,
    ontology: ontologyId,
    iri: absoluteIri,
    language,
    fresh: v.optional(v.boolean(), false),
    policy_path: policyPath,
    network,
  }),
  output: v.object({ result: AnyObject, cache_hit: v.boolean() }),
  capabilities: [...READ],
  mutating: never,
  handler: async (args, ctx) => {
    const access = await providerAccess(ctx, 'inspect_external_term', args.provider_id, args.policy_path, args.network);
    const got = await inspectTerm(ctx, access, {
      ontology: allowedOntology(access, args.ontology),
      iri: args.iri,
      language: allowedLanguage(access, args.language),
      fresh: args.fresh,
    });
    return { result: got.record, cache_hit: got.cacheHit };
  },
});

// ---------------------------------------------------------------- propose

const ENTITY_TYPES: Readonly<Record<string, EntityKind>> = {
  class: 'Class',
  object_property: 'ObjectProperty',
  data_property: 'DataProperty',
  annotation_property: 'AnnotationProperty',
  named_individual: 'NamedIndividual',
  datatype: 'Datatype',
};

const MappingRow = v.pipe(
  v.record(
    v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'an SSSOM column name')),
    v.pipe(
      v.string(),
      v.check((cell) => Buffer.byteLength(cell, 'utf8') <= 65_536, 'a cell of at most 64 KiB'),
    ),
  ),
  v.check((r) => Object.keys(r).length <= 128, 'at most 128 columns'),
  v.check((r) => Buffer.byteLength(JSON.stringify(r), 'utf8') <= 256 * 1024, 'at most 256 KiB in all'),
  v.description('One SSSOM row; one endpoint is the external IRI.'),
);

const LocalEntity = v.strictObject({
  iri: absoluteIri,
  type: v.picklist(Object.keys(ENTITY_TYPES) as [string, ...string[]]),
  labels: v.pipe(
    v.array(
      v.strictObject({
        value: v.pipe(v.string(), v.minLength(1), v.maxLength(4096)),
        language: v.pipe(v.string(), v.regex(/^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/, 'a language tag')),
      }),
    ),
    v.minLength(1),
    v.maxLength(16),
  ),
});

type Action = 'reuse_iri' | 'add_mapping' | 'mint_local_with_mapping';

/** An endpoint as an IRI: absolute, or a CURIE of the active ontology's prefixes. */
function endpointIri(ctx: ToolContext, value: string | undefined, column: string): string {
  if (value === undefined) throw new ToolFailure(`mapping.${column}: required`, 'invalid_argument', { argument: 'mapping' });
  if (value === 'sssom:NoTermFound' || value.startsWith('"'))
    throw new ToolFailure(`mapping.${column}: literal and sssom:NoTermFound endpoints cannot be proposed`, 'invalid_argument', {
      argument: 'mapping',
    });
  const iri = ctx.resolver.asIri(value);
  if (iri === null || !isAbsoluteIri(iri))
    throw new ToolFailure(`mapping.${column}: '${value}' is not an IRI or a CURIE of the active ontology`, 'invalid_argument', {
      argument: 'mapping',
    });
  return iri;
}

/** Checks the proposal's inputs before anything is fetched. */
function checkedInputs(
  ctx: ToolContext,
  action: Action,
  externalIri: string,
  mapping: Record<string, string> | undefined,
  local: v.InferOutput<typeof LocalEntity> | undefined,
): void {
  const bad = (message: string, argument: string): never => {
    throw new ToolFailure(message, 'invalid_argument', { argument });
  };
  if (action === 'reuse_iri' && mapping !== undefined) bad('mapping: not allowed with action reuse_iri', 'mapping');
  if (action !== 'reuse_iri' && mapping === undefined) bad(`mapping: required with action ${action}`, 'mapping');
  if (action === 'mint_local_with_mapping' && local === undefined)
    bad('local_entity: required with action mint_local_with_mapping', 'local_entity');
  if (action !== 'mint_local_with_mapping' && local !== undefined)
    bad('local_entity: only with action mint_local_with_mapping', 'local_entity');
  if (local !== undefined && ctx.resolver.kindsOf(local.iri).size > 0)
    bad(`local_entity.iri: ${local.iri} already exists in the loaded ontology; propose reuse_iri or add_mapping instead`, 'local_entity');
  if (mapping === undefined) return;
  for (const column of ['subject_id', 'predicate_id', 'object_id']) if (!mapping[column]) bad(`mapping.${column}: required`, 'mapping');
  const subject = endpointIri(ctx, mapping.subject_id, 'subject_id');
  const object = endpointIri(ctx, mapping.object_id, 'object_id');
  if (subject === object) bad('mapping: subject_id and object_id must differ', 'mapping');
  if (subject !== externalIri && object !== externalIri) bad(`mapping: one endpoint must be the external term ${externalIri}`, 'mapping');
  const localEnd = subject === externalIri ? object : subject;
  const known = ctx.resolver.kindsOf(localEnd).size > 0;
  if (action === 'add_mapping' && !known) bad(`mapping: the local endpoint ${localEnd} is not an entity of the loaded ontology`, 'mapping');
  if (action === 'mint_local_with_mapping' && localEnd !== local!.iri)
    bad(`mapping: the local endpoint must be local_entity.iri (${local!.iri})`, 'mapping');
}

export const proposeTermReuse = defineTool({
  name: 'propose_term_reuse',
  description: 'Propose reusing an external term; accept_reuse_proposal carries it out.',
  input: v.strictObject({
    provider_id: providerId,
    ontology: ontologyId,
    iri: absoluteIri,
    term_fingerprint: v.pipe(digest, v.description('From inspect_external_term.')),
    action: v.picklist(['reuse_iri', 'add_mapping', 'mint_local_with_mapping']),
    mapping: v.optional(MappingRow),
    local_entity: v.optional(LocalEntity),
    language,
    policy_path: policyPath,
    network,
  }),
  output: v.object({ proposal_id: v.string(), expires_in_seconds: v.number(), proposal: AnyObject }),
  capabilities: [...READ],
  mutating: never,
  handler: async (args, ctx) => {
    checkedInputs(ctx, args.action, args.iri, args.mapping, args.local_entity);
    const access = await providerAccess(ctx, 'propose_term_reuse', args.provider_id, args.policy_path, args.network);
    const ontology = allowedOntology(access, args.ontology);
    const lang = allowedLanguage(access, args.language);
    const mappingStore = args.action === 'reuse_iri' ? null : await readStore(ctx, 'propose_term_reuse', { policyPath: args.policy_path });
    const { record } = await inspectTerm(ctx, access, { ontology, iri: args.iri, language: lang, fresh: true });
    if (record.term_fingerprint !== args.term_fingerprint) {
      throw new ToolFailure(
        `term_fingerprint: the term as the provider describes it now (${record.term_fingerprint}) differs from the one given; inspect it again with fresh=true`,
        'term_fingerprint_mismatch',
        { argument: 'term_fingerprint', current_term_fingerprint: record.term_fingerprint },
      );
    }
    const res = access.resolution;
    const inputIdentity = {
      model_revision: ctx.workspace.revision,
      workspace_id: ctx.workspace.id,
      mapping_revision: mappingStore?.state.revision ?? null,
      mapping_target_digest: digestOrNull(mappingStore?.state.path ?? null),
      mapping_target_exists: mappingStore?.state.exists ?? null,
      policy_digest: access.policyDigest,
      policy_source_digest: digestOrNull(res.file),
      project_root_digest: digestOrNull(res.projectRoot),
      principal_digest: ownerKey(ctx),
    };
    const operations = suggestedOperations(args.action, record, args.mapping, args.local_entity);
    const body = { provider_result: record, input_identity: inputIdentity, action: args.action, suggested_operations: operations };
    const fingerprint = sha256Digest(JSON.stringify(body));
    const store = ctx.window.externalTerms;
    store.sweep(Date.now());
    const id = opaqueId();
    store.proposals.set(id, {
      id,
      owner: ownerKey(ctx),
      grantId: grantOf(ctx),
      fingerprint,
      body: { ...body, policy_path: args.policy_path ?? null, mapping: args.mapping ?? null, local_entity: args.local_entity ?? null },
      expires: Date.now() + PROPOSAL_TTL_MS,
      claimed: false,
      minted: null,
    });
    return { proposal_id: id, expires_in_seconds: PROPOSAL_TTL_MS / 1000, proposal: { ...body, proposal_fingerprint: fingerprint } };
  },
});

function suggestedOperations(
  action: Action,
  record: ProviderRecord,
  mapping: Record<string, string> | undefined,
  local: v.InferOutput<typeof LocalEntity> | undefined,
): JsonObject[] {
  switch (action) {
    case 'reuse_iri':
      return [
        {
          operation: 'use_iri',
          iri: record.entity_iri,
          entity_type: record.entity_type,
          note: 'refer to the external IRI in your axioms; no import is added',
        },
      ];
    case 'add_mapping':
      return [{ operation: 'add_mapping', mapping: mapping! }];
    case 'mint_local_with_mapping':
      return [
        { operation: 'declare', iri: local!.iri, entity_type: local!.type },
        { operation: 'add_labels', iri: local!.iri, labels: local!.labels },
        { operation: 'add_mapping', mapping: mapping! },
      ];
    default:
      return unreachable(action);
  }
}

// ---------------------------------------------------------------- accept

function unknownProposal(): never {
  throw new ToolFailure("proposal_id: unknown, expired, or not this principal's", 'unknown_proposal', {
    argument: 'proposal_id',
    committed: false,
  });
}

/** What an accepted proposal did: a receipt (reuse_iri), a mapping commit, a mint's receipt, or a mint whose mapping failed. */
const AcceptOutput = v.object({
  proposal_id: v.string(),
  proposal_fingerprint: v.string(),
  action: v.string(),
  interactive_confirmation: v.boolean(),
  status: v.picklist(['accepted', 'partial']),
  committed: v.boolean(),
  receipt: v.optional(AnyObject),
  mapping: v.optional(AnyObject),
  mint_receipt: v.optional(AnyObject),
  mapping_error: v.optional(AnyObject),
  continuation: v.optional(AnyObject),
});

export const acceptReuseProposal = defineTool({
  name: 'accept_reuse_proposal',
  description: 'Accept a reuse proposal: reuse the IRI, add a mapping, or mint with one.',
  input: v.strictObject({
    proposal_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'a proposal id')),
    proposal_fingerprint: digest,
    confirm: v.literal(true),
    policy_path: policyPath,
    mapping_set_id: v.optional(v.pipe(absoluteIri, v.description('Needed if this creates the store.'))),
    license: v.optional(v.pipe(absoluteIri, v.description('Needed if this creates the store.'))),
  }),
  output: AcceptOutput,
  capabilities: ['ontology:curate', 'filesystem:project:read', 'filesystem:project:write'],
  mutating: always,
  refusalContext: { committed: false },
  handler: async (args, ctx) => {
    const store = ctx.window.externalTerms;
    store.sweep(Date.now());
    const p = store.proposals.get(args.proposal_id);
    if (p === undefined || p.owner !== ownerKey(ctx) || p.expires <= Date.now()) unknownProposal();
    if (p!.fingerprint !== args.proposal_fingerprint) {
      throw new ToolFailure('proposal_fingerprint: does not match the proposal', 'proposal_fingerprint_mismatch', {
        argument: 'proposal_fingerprint',
        committed: false,
      });
    }
    if (p!.claimed)
      throw new ToolFailure('the proposal is being accepted by another call', 'proposal_in_progress', {
        committed: false,
        retryable: true,
      });
    p!.claimed = true;
    try {
      return await accept(ctx, p!, args);
    } finally {
      p!.claimed = false;
    }
  },
});

interface AcceptArgs {
  readonly proposal_id: string;
  readonly proposal_fingerprint: string;
  readonly policy_path?: string | undefined;
  readonly mapping_set_id?: string | undefined;
  readonly license?: string | undefined;
}

async function accept(ctx: ToolContext, p: Proposal, args: AcceptArgs): Promise<v.InferOutput<typeof AcceptOutput>> {
  const body = p.body as {
    provider_result: ProviderRecord;
    action: Action;
    policy_path: string | null;
    mapping: Record<string, string> | null;
    local_entity: v.InferOutput<typeof LocalEntity> | null;
    input_identity: {
      model_revision: number;
      mapping_revision: string | null;
      mapping_target_digest: string | null;
      mapping_target_exists: boolean | null;
      policy_digest: string;
      policy_source_digest: string | null;
      project_root_digest: string | null;
    };
  };
  const stale = (message: string, code: ErrorCode): never => {
    throw new ToolFailure(message, code, { committed: false, effects_prevented: true });
  };
  if ((args.policy_path ?? null) !== body.policy_path) stale('policy_path: must be the one given when proposing', 'invalid_argument');
  const res = await resolvePolicy(ctx, args.policy_path);
  if (res.digest !== body.input_identity.policy_digest)
    stale('the project policy changed since the proposal; propose again', 'provider_policy_changed');
  if (
    digestOrNull(res.file) !== body.input_identity.policy_source_digest ||
    digestOrNull(res.projectRoot) !== body.input_identity.project_root_digest
  ) {
    stale('the project (policy file or project root) changed since the proposal; propose again', 'provider_policy_changed');
  }
  if (p.minted === null && ctx.workspace.revision !== body.input_identity.model_revision) {
    stale(
      `the model changed since the proposal (revision ${body.input_identity.model_revision} → ${ctx.workspace.revision}); propose again`,
      'stale_model_revision',
    );
  }
  const base = {
    proposal_id: p.id,
    proposal_fingerprint: p.fingerprint,
    action: body.action,
    interactive_confirmation: ctx.settings.confirm_each_write,
  };
  const record = body.provider_result;
  if (body.action === 'reuse_iri') {
    ctx.window.externalTerms.proposals.delete(p.id);
    return {
      ...base,
      status: 'accepted' as const,
      committed: false,
      receipt: {
        provider_id: record.provider_id,
        source_ontology: record.source_ontology,
        entity_iri: record.entity_iri,
        term_fingerprint: record.term_fingerprint,
        model_revision: ctx.workspace.revision,
        mapping_revision: body.input_identity.mapping_revision,
        policy_digest: res.digest,
        target_fingerprint: record.result_fingerprint,
      },
    };
  }
  const mappingState = await readStore(ctx, 'accept_reuse_proposal', { policyPath: args.policy_path });
  if (sha256Digest(mappingState.state.path) !== body.input_identity.mapping_target_digest)
    stale('the mapping store is another file than when proposed; propose again', 'stale_mapping_revision');
  if (
    p.minted === null &&
    (mappingState.state.revision !== body.input_identity.mapping_revision ||
      mappingState.state.exists !== body.input_identity.mapping_target_exists)
  ) {
    stale('the mapping store changed since the proposal; propose again', 'stale_mapping_revision');
  }
  const newMapping = { cells: body.mapping!, mapping_set_id: args.mapping_set_id, license: args.license };
  if (body.action === 'add_mapping') {
    const commit = await addMapping(
      ctx,
      'accept_reuse_proposal',
      { policyPath: args.policy_path },
      body.input_identity.mapping_revision!,
      newMapping,
    );
    ctx.window.externalTerms.proposals.delete(p.id);
    return { ...base, status: 'accepted' as const, committed: true, mapping: commit };
  }
  let mint = p.minted;
  const mintsNow = mint === null;
  if (mint === null) {
    const local = body.local_entity!;
    const e = entity(ENTITY_TYPES[local.type]!, local.iri); // the schema's picklist holds ENTITY_TYPES' keys
    const label = annotationProperty(RDFS_LABEL);
    const axioms = [
      declaration(e),
      ...local.labels.map((l) => annotationAssertion(label, iriNode(local.iri), literal(l.value, undefined, l.language))),
    ];
    const baseRevision = ctx.workspace.revision;
    const active = ctx.workspace.active;
    const changes = axioms.filter((a) => !active.has(a)).map((axiom) => ({ kind: 'AddAxiom' as const, ontology: active, axiom }));
    if (changes.length > 0) applyMint(ctx, p, changes, local.iri, baseRevision);
    const receipt = {
      proposal_fingerprint: p.fingerprint,
      entity_iri: local.iri,
      base_revision: baseRevision,
      minted_revision: ctx.workspace.revision,
      ...(args.mapping_set_id === undefined ? {} : { mapping_set_id: args.mapping_set_id }),
      ...(args.license === undefined ? {} : { mapping_set_license: args.license }),
      ...(args.policy_path === undefined ? {} : { configured_policy_path: args.policy_path }),
    };
    mint = { ...receipt, receipt_fingerprint: sha256Digest(JSON.stringify(receipt)) };
  }
  try {
    const commit = await addMapping(
      ctx,
      'accept_reuse_proposal',
      { policyPath: args.policy_path },
      mappingState.state.revision,
      newMapping,
    );
    ctx.window.externalTerms.proposals.delete(p.id);
    return { ...base, status: 'accepted' as const, committed: true, mint_receipt: mint, mapping: commit };
  } catch (err) {
    if (!(err instanceof ToolFailure)) throw err;
    // The mint stays; the proposal gets one renewed window (on the mint, not on each retry) so the same call can finish the mapping step.
    if (mintsNow) {
      p.minted = mint;
      p.expires = Date.now() + PROPOSAL_TTL_MS;
    }
    return {
      ...base,
      status: 'partial' as const,
      committed: true,
      mint_receipt: mint,
      mapping_error: {
        code: err.code ?? 'mapping_failed',
        message: err.message,
        retryable: err.code === 'mapping_revision_conflict' || err.context.retryable === true,
        details: err.context,
      },
      continuation: {
        retry: { tool: 'accept_reuse_proposal', arguments: { ...args, confirm: true }, note: 'never mints again' },
        manual_recovery: {
          tool: 'add_mapping',
          arguments: {
            expected_mapping_revision: mappingState.state.revision,
            mapping: body.mapping,
            confirm: true,
            ...(args.policy_path === undefined ? {} : { policy_path: args.policy_path }),
          },
          note: 'expected_mapping_revision is the stale revision seen at accept time: replace it with the current one after review',
        },
      },
    };
  }
}

/**
 * The mint's one undoable change. The workspace applies a batch atomically, so a refusal with the revision
 * unchanged is `mint_commit_reverted`; any other outcome cannot be vouched for. Either way the proposal is spent.
 */
function applyMint(
  ctx: ToolContext,
  p: Proposal,
  changes: Parameters<ToolContext['workspace']['apply']>[0],
  entityIri: string,
  baseRevision: number,
): void {
  try {
    ctx.workspace.apply(changes);
  } catch (err) {
    ctx.window.externalTerms.proposals.delete(p.id);
    const cause = (err as Error).message;
    if (ctx.workspace.revision === baseRevision) {
      throw new ToolFailure(
        `the mint was refused and nothing changed (${cause}); the proposal is invalidated: propose again`,
        'mint_commit_reverted',
        { committed: false, effects_prevented: true, entity_iri: entityIri },
      );
    }
    throw new ToolFailure(
      `the mint of ${entityIri} failed part-way (${cause}); check the model, clean up by hand, and propose again`,
      'mint_commit_incomplete',
      { outcome_unknown: true, manual_cleanup_required: true, entity_iri: entityIri, new_proposal_required: true },
    );
  }
}
