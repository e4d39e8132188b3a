// n3's Parser without the rest of the package: n3's index also loads its store, stream classes and
// readable-stream, about 30 ms of CPU more in every thread that reads Turtle (each window, the parse pool).

import parserModule from 'n3/lib/N3Parser.js';

export const Parser = parserModule.default;
