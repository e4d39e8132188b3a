// What thread-link.test.ts and its worker share: the API and a domain error with a kind.

export class KindedError extends Error {
  constructor(
    message: string,
    readonly kind: 'shapes' | 'data',
  ) {
    super(message);
    this.name = 'KindedError';
  }
}

export interface FixtureApi {
  add(a: number, b: number): Promise<number>;
  fail(how: 'kinded' | 'unregistered' | 'bare'): Promise<never>;
  /** Never answers. */
  hold(): Promise<never>;
  byteLength(buffer: ArrayBuffer): Promise<number>;
}
