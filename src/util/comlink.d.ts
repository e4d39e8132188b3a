// comlink ships its ES module builds as .mjs beside .d.ts files written for them; NodeNext resolution looks
// for .d.mts, so these declarations point the .mjs entry points at the package's own types.

declare module 'comlink/dist/esm/comlink.mjs' {
  export * from 'comlink/dist/esm/comlink.js';
}

declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink/dist/esm/protocol.js';
  import type { NodeEndpoint } from 'comlink/dist/esm/node-adapter.js';
  export default function nodeEndpoint(nep: NodeEndpoint): Endpoint;
}
