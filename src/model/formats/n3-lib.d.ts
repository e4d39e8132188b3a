// n3's Parser module on its own (CommonJS: the class is its `default` export), typed as the package types it.

declare module 'n3/lib/N3Parser.js' {
  import type { Parser } from 'n3';

  const parserModule: { readonly default: typeof Parser };
  export default parserModule;
}
