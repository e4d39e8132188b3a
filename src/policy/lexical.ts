// The lexical policy of search_entities (TOOLS.md 3.1): which annotation properties are preferred names and
// which synonyms, and how a literal's language moves its score. A valid project policy's `entity_search`
// block replaces the defaults; without one, or when the policy is invalid, the defaults apply and the
// result says why.

import { DEFAULT_PREFERRED_PROPERTIES, DEFAULT_SYNONYM_PROPERTIES } from './schema.js';
import { expandTerm, WELL_KNOWN_PREFIXES } from './curie.js';
import type { PolicyResolution } from './resolution.js';

export interface LexicalPolicy {
  readonly source: 'policy' | 'default';
  readonly preferredProperties: readonly string[];
  readonly synonymProperties: readonly string[];
  readonly preferredLanguages: readonly string[];
  readonly fallbackLanguages: readonly string[];
  /** Why the defaults apply although a policy was found. */
  readonly fallbackReason: string | null;
}

/** The language of an untagged literal in the language lists. */
export const UNTAGGED = 'und';

const expandAll = (terms: readonly string[], prefixes: Readonly<Record<string, string>>) =>
  terms.map((t) => expandTerm(t, prefixes)).filter((x): x is string => x !== null);

/** The lexical policy in force: the policy's block when it is valid, else the defaults (`labelLanguage` first). */
export function lexicalPolicy(res: PolicyResolution, labelLanguage: string): LexicalPolicy {
  if (res.valid && res.policy !== null) {
    const block = res.policy.entity_search;
    return {
      source: 'policy',
      preferredProperties: expandAll(block.preferred_properties, res.policy.prefixes),
      synonymProperties: expandAll(block.synonym_properties, res.policy.prefixes),
      preferredLanguages: block.preferred_languages.map((l) => l.toLowerCase()),
      fallbackLanguages: block.fallback_languages.map((l) => l.toLowerCase()),
      fallbackReason: null,
    };
  }
  return {
    source: 'default',
    preferredProperties: expandAll(DEFAULT_PREFERRED_PROPERTIES, WELL_KNOWN_PREFIXES),
    synonymProperties: expandAll(DEFAULT_SYNONYM_PROPERTIES, WELL_KNOWN_PREFIXES),
    preferredLanguages: [labelLanguage.toLowerCase()],
    fallbackLanguages: labelLanguage.toLowerCase() === UNTAGGED ? [] : [UNTAGGED],
    fallbackReason: res.loaded ? `the project policy ${res.file} is invalid, so its entity_search block is not used` : null,
  };
}

/**
 * Score adjustment for a literal's language: +9…+6 by position among the preferred languages, +4…+1 among
 * the fallback ones, −9 when unlisted. `null` is an untagged literal (`und`).
 */
export function languageAdjustment(policy: LexicalPolicy, language: string | null): number {
  const lang = (language ?? UNTAGGED).toLowerCase();
  const preferred = policy.preferredLanguages.indexOf(lang);
  if (preferred >= 0) return 9 - preferred;
  const fallback = policy.fallbackLanguages.indexOf(lang);
  if (fallback >= 0) return 4 - fallback;
  return -9;
}
