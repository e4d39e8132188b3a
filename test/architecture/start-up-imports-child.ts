// The server start-up-imports.test inspects: the demo ontology (Turtle) in a fresh private directory. Prints
// `ready` once startServer resolved; stops when its stdin closes.

import { startServer } from '../../src/http/server.js';

const home = process.argv[2];
if (home === undefined) throw new Error('usage: start-up-imports-child HOME');
const server = await startServer({ home, flags: { port: '0' }, env: {} });
process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.on('end', () => void server.close(1000).then(() => process.exit(0)));
