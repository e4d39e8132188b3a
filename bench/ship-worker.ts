// A bench/reasoner thread that takes a snapshot the way a reasoning thread once did (functional-syntax
// text, parsed) or does now (the binary encoding, decoded), and answers with the number of axioms.

import { parentPort } from 'node:worker_threads';
import { decodeAxioms, type EncodedAxioms } from '../src/model/transfer.js';
import { readSnapshotAxioms } from '../src/reasoner/snapshot.js';

export type ShipMessage = { readonly text: string } | { readonly encoded: EncodedAxioms };

parentPort?.once('message', (m: ShipMessage) => {
  const axioms = 'text' in m ? readSnapshotAxioms(m.text) : decodeAxioms(m.encoded);
  parentPort?.postMessage(axioms.length);
});
