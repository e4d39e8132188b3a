// The reasoner reference rule (TOOLS.md 1.10) as tools report it: one installed reasoner, or the failure
// listing what is installed (none matches) or each candidate as `name [id]` (several match).

import { resolveReasoner, sortedReasoners, type ReasonerInfo } from './registry.js';
import { DomainError } from '../util/errors.js';

export const reasonerLabel = (r: ReasonerInfo): string => `${r.name} [${r.id}]`;

/** Every installed reasoner as `name [id]`, comma-separated. */
export function installedReasoners(): string {
  return sortedReasoners().map(reasonerLabel).join(', ');
}

/** The reasoner `reference` names, or `unknown_reasoner` / `ambiguous_reference`. */
export function referencedReasoner(reference: string): ReasonerInfo {
  const found = resolveReasoner(reference);
  if (found.kind === 'none') {
    throw new DomainError(`No installed reasoner matches '${reference}'. Installed: ${installedReasoners()}.`, 'unknown_reasoner', {
      installed: sortedReasoners().map((r) => ({ name: r.name, id: r.id })),
    });
  }
  if (found.kind === 'ambiguous') {
    const names = found.candidates.map(reasonerLabel);
    throw new DomainError(
      `'${reference}' matches several reasoners: ${names.join(', ')}. Give an id or a full name.`,
      'ambiguous_reference',
      { candidates: names },
    );
  }
  return found.reasoner;
}
