// The parts of shacl-engine (untyped JavaScript) that the validation thread uses.

declare module 'shacl-engine' {
  import type * as RDF from '@rdfjs/types';

  export interface PathStep {
    readonly quantifier: 'one' | 'oneOrMore' | 'zeroOrMore' | 'zeroOrOne';
    readonly start: 'subject' | 'object';
    readonly end: 'subject' | 'object';
    readonly predicates: readonly RDF.Term[];
  }

  /** A grapoi pointer: the terms it points at. */
  export interface Pointer {
    readonly term?: RDF.Term;
    readonly terms: readonly RDF.Term[];
  }

  export interface ValidationResult {
    readonly focusNode: Pointer;
    readonly path: readonly PathStep[] | null | undefined;
    readonly value: Pointer | undefined;
    readonly severity: RDF.Term;
    readonly constraintComponent: RDF.Term;
    readonly shape: { readonly ptr: Pointer };
    readonly message: readonly RDF.Literal[];
  }

  export interface ValidationReport {
    readonly conforms: boolean;
    readonly results: readonly ValidationResult[];
  }

  export interface ValidatorOptions {
    readonly factory: RDF.DataFactory & { dataset(): RDF.DatasetCore };
    readonly validations?: unknown;
    readonly targetResolvers?: unknown;
  }

  export class Validator {
    constructor(shapes: RDF.DatasetCore, options: ValidatorOptions);
    readonly shapes: { readonly size: number };
    validate(data: { dataset: RDF.DatasetCore }): Promise<ValidationReport>;
  }
}

declare module 'shacl-engine/sparql.js' {
  export const validations: unknown;
  export const targetResolvers: unknown;
}
