// How syntaxes that use names (Manchester, the tools' operands) turn a name token into an IRI.

import type { EntityKind, IRI } from './terms.js';
import { DomainError } from '../util/errors.js';

/** A name token resolved to an IRI, with the entity kinds already known for that IRI (empty: not yet known). */
export interface ResolvedName {
  readonly iri: IRI;
  readonly kinds: ReadonlySet<EntityKind>;
}

/**
 * Resolves the name tokens of a syntax: `<full IRI>`, a CURIE (`pizza:Margherita`, `:Local`), a full IRI,
 * or a display name / short name. Throws a NameError for an unknown prefix or an ambiguous display name.
 * A name with no known entity still resolves (to the IRI it would mint) with an empty `kinds` set, so the
 * caller decides the kind from the syntactic position.
 */
export interface NameResolver {
  resolve(token: string): ResolvedName;
}

/** An unknown or malformed name, or (with candidates) one that several entities answer to. */
export class NameError extends DomainError {
  constructor(
    message: string,
    readonly candidates: readonly string[] = [],
  ) {
    super(
      message,
      candidates.length > 0 ? 'ambiguous_reference' : 'invalid_argument',
      candidates.length > 0 ? { candidates: [...candidates] } : {},
    );
    this.name = 'NameError';
  }

  /** The same error said of `where` (an argument, an atom): the message names it first. */
  at(where: string): NameError {
    return new NameError(`${where}: ${this.message}`, this.candidates);
  }
}
