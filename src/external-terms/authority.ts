// Whether this call may use a provider, decided afresh on every call, cache hit or fetch (TOOLS.md 3.12):
// a valid version-2 project policy that enables the provider and allow-lists the ontology, the owner's
// binding of its origin alias (and credential), and the network rules of 1.9 with the request's `network`.

import { checkRemote } from '../policy/path-rules.js';
import type { PolicyResolution } from '../policy/resolution.js';
import { resolvePolicy } from '../policy/resolve.js';
import { DomainError, type ErrorCode } from '../util/errors.js';
import type { CallContext } from '../window/call-context.js';
import { BindingError, readBinding, type BoundCredential, type BoundOrigin } from './binding.js';

export interface PolicyProvider {
  readonly id: string;
  readonly origin_alias: string;
  readonly ontologies: readonly string[];
  readonly languages: readonly string[];
  readonly ttl_seconds: number;
  readonly freshness: 'cache_ok' | 'fresh_required';
  readonly max_results: number;
  readonly credential_id?: string;
}

export interface ProviderAccess {
  readonly provider: PolicyProvider;
  readonly origin: BoundOrigin;
  readonly credential: BoundCredential | null;
  readonly resolution: PolicyResolution;
  readonly policyDigest: string;
  readonly bindingGeneration: string;
  /** Configured secrets, for redaction checks (never reported). */
  readonly secrets: readonly string[];
}

const fail = (message: string, code: ErrorCode, context: Record<string, unknown> = {}): never => {
  throw new DomainError(message, code, { effects_prevented: true, ...context });
};

/** The policy's provider `id` (enabled, in a valid v2 policy), or the precise refusal. */
export function policyProvider(res: PolicyResolution, id: string): PolicyProvider {
  if (!res.loaded)
    fail(
      `provider ${id}: external terms need a version-2 project policy with external_terms.providers; none governs this workspace`,
      'provider_not_configured',
      { provider_id: id },
    );
  if (!res.valid || res.policy === null)
    fail(`provider ${id}: the project policy ${res.file} is invalid`, 'policy_invalid', { provider_id: id });
  const policy = res.policy!;
  if (policy.version !== 2)
    fail(`provider ${id}: external_terms needs policy version 2; ${res.file} is version ${policy.version}`, 'provider_not_configured', {
      provider_id: id,
    });
  const p = policy.version === 2 ? policy.external_terms.providers.find((x) => x.id === id) : undefined;
  if (p === undefined)
    fail(`provider ${id} is not declared in the project policy's external_terms.providers`, 'provider_not_configured', { provider_id: id });
  if (!p!.enabled) fail(`provider ${id} is disabled in the project policy`, 'provider_disabled', { provider_id: id });
  return p as PolicyProvider;
}

/** Every check of one provider use; `network` is the request's setting. Nothing is fetched here. */
export async function providerAccess(
  ctx: CallContext,
  tool: string,
  providerId: string,
  policyPath: string | undefined,
  network: 'deny' | 'allow' | undefined,
): Promise<ProviderAccess> {
  const resolution = await resolvePolicy(ctx, policyPath);
  const provider = policyProvider(resolution, providerId);
  let binding;
  try {
    binding = await readBinding(ctx.settings.audit_home);
  } catch (err) {
    if (!(err instanceof BindingError)) throw err;
    return fail(`provider ${providerId}: ${err.message}`, 'provider_origin_unbound', { provider_id: providerId });
  }
  const origin = binding?.origins.get(provider.origin_alias);
  if (binding === null || origin === undefined) {
    fail(
      `provider ${providerId}: origin alias '${provider.origin_alias}' is not bound in the owner's provider binding (providers/config.json in the private directory)`,
      'provider_origin_unbound',
      { provider_id: providerId, origin_alias: provider.origin_alias },
    );
  }
  try {
    checkRemote(ctx, tool, origin!.origin, network, resolution, 'document');
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const deniedBy = (err.context as { denied_by?: unknown }).denied_by;
    if (err.code === 'authorization_denied') throw err;
    fail(
      `provider ${providerId}: network access refused${typeof deniedBy === 'string' ? ` by ${deniedBy}` : ''}`,
      'provider_network_denied',
      { provider_id: providerId, ...(typeof deniedBy === 'string' ? { denied_by: deniedBy } : {}) },
    );
  }
  let credential: BoundCredential | null = null;
  if (provider.credential_id !== undefined) {
    const c = binding!.credentials.get(provider.credential_id);
    if (c === undefined)
      fail(
        `provider ${providerId}: credential '${provider.credential_id}' is not bound in the owner's provider binding`,
        'provider_credential_unbound',
        { provider_id: providerId },
      );
    if (c!.secret === null)
      fail(
        `provider ${providerId}: the secret of credential '${provider.credential_id}' is missing, empty or not owner-only`,
        'provider_credential_missing',
        { provider_id: providerId },
      );
    credential = c!;
  }
  const secrets = [...binding!.credentials.values()].map((c) => c.secret).filter((s): s is string => s !== null);
  return {
    provider,
    origin: origin!,
    credential,
    resolution,
    policyDigest: resolution.digest!,
    bindingGeneration: binding!.generation,
    secrets,
  };
}

/** The ontology, which the provider must allow-list. */
export function allowedOntology(access: ProviderAccess, ontology: string): string {
  if (!access.provider.ontologies.includes(ontology)) {
    fail(
      `provider ${access.provider.id}: ontology '${ontology}' is not in the policy's allow-list (${access.provider.ontologies.join(', ')})`,
      'invalid_argument',
      { argument: 'ontology', provider_id: access.provider.id },
    );
  }
  return ontology;
}

/** The language, which must be one the policy lists for the provider (default: its first). */
export function allowedLanguage(access: ProviderAccess, language: string | undefined): string {
  const langs = access.provider.languages;
  if (language === undefined) return langs[0] ?? 'en';
  if (!langs.includes(language)) {
    fail(
      `provider ${access.provider.id}: language '${language}' is not among the policy's languages (${langs.join(', ')})`,
      'invalid_argument',
      { argument: 'language', provider_id: access.provider.id },
    );
  }
  return language;
}
