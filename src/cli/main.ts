#!/usr/bin/env node
// The `athene` command line.

import { parseArgs } from 'node:util';
import { UsageError } from './args.js';
import { packageVersion } from '../util/package.js';
import { OWNER_OPTIONS, SERVE_HELP, SERVE_OPTIONS, TOKEN_OPTIONS } from './options.js';

const USAGE = `usage:
  athene convert IN OUT [--format F]     convert an ontology document (format from --format or OUT's extension)
  athene stats FILE [--base IRI]         counts per axiom type and signature, as JSON
  athene axioms FILE [--base IRI]        every axiom, one canonical line each, sorted
  athene classify FILE [--base IRI] [--reasoner el|structural|konclude|auto]
                                         the class taxonomy, one sorted line per statement
  athene serve [FILE...] [--home DIR] [flags]
                                         run the MCP server (one window per FILE, else the demo ontology);
                                         'athene serve --help' lists every flag
  athene help                            this text
  athene --version                       the version
  athene token [--regenerate] [--home DIR]  print (or replace) the static bearer token
  athene open [--print-url] [--home DIR] [--url URL]
                                         a single-use owner login URL (signs this browser in as the owner)
  athene consent list|approve ID|deny ID [--home DIR] [--url URL]
                                         OAuth consent requests waiting for the owner
  athene pending list|approve ID|deny ID [--home DIR] [--url URL]
                                         held writes (--confirm-writes) waiting for the owner
  athene clients list|revoke ID [--home DIR] [--url URL]
                                         registered OAuth clients
formats: turtle, ntriples, nquads, trig, rdfxml, jsonld, owlxml, ofn, manchester, obo`;

type Command = (positionals: string[], values: Record<string, string | boolean | undefined>) => Promise<void>;

// Each command's module is imported only when it runs: `athene token` does not load the server, nor
// `athene serve` the CLI's model commands.
const COMMANDS: Record<string, { load: () => Promise<Command>; options: Record<string, { type: 'string' | 'boolean' }>; help?: string }> = {
  convert: {
    load: async () => (await import('./convert.js')).convertCommand,
    options: { format: { type: 'string' }, base: { type: 'string' } },
  },
  stats: { load: async () => (await import('./stats.js')).statsCommand, options: { base: { type: 'string' } } },
  axioms: { load: async () => (await import('./axioms.js')).axiomsCommand, options: { base: { type: 'string' } } },
  classify: {
    load: async () => (await import('./classify.js')).classifyCommand,
    options: { base: { type: 'string' }, reasoner: { type: 'string' } },
  },
  serve: { load: async () => (await import('./serve.js')).serveCommand, options: SERVE_OPTIONS, help: SERVE_HELP },
  token: { load: async () => (await import('./token.js')).tokenCommand, options: TOKEN_OPTIONS },
  open: { load: async () => (await import('./owner.js')).openCommand, options: OWNER_OPTIONS },
  consent: { load: async () => (await import('./owner.js')).consentCommand, options: OWNER_OPTIONS },
  pending: { load: async () => (await import('./owner.js')).pendingCommand, options: OWNER_OPTIONS },
  clients: { load: async () => (await import('./owner.js')).clientsCommand, options: OWNER_OPTIONS },
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE + '\n');
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`athene ${await packageVersion()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`athene: unknown command '${name}'\n${USAGE}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write((command.help ?? USAGE) + '\n');
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
  } catch (err) {
    process.stderr.write(`athene ${name}: ${(err as Error).message}\n`);
    return 2;
  }
  const run = await command.load();
  await run(parsed.positionals, parsed.values as Record<string, string | boolean | undefined>);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: Error) => {
    process.stderr.write(`athene: ${err.message}\n`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  },
);
