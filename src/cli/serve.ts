// athene serve [FILE…] [--port N] [--bind ADDR] [--read-only] [--confirm-writes] [--home DIR]

import { readFile } from 'node:fs/promises';
import { startServer } from '../http/server.js';
import type { RawSettings } from '../settings/settings.js';
import { optionalString } from './args.js';

export const SERVE_OPTIONS = {
  port: { type: 'string' },
  bind: { type: 'string' },
  'read-only': { type: 'boolean' },
  'confirm-writes': { type: 'boolean' },
  home: { type: 'string' },
} as const;

function flagsOf(values: Record<string, string | boolean | undefined>): RawSettings {
  const flags: RawSettings = {};
  if (values.port !== undefined) flags.port = String(values.port);
  if (values.bind !== undefined) flags.bind_address = String(values.bind);
  if (values['read-only'] === true) flags.read_only = true;
  if (values['confirm-writes'] === true) flags.confirm_each_write = true;
  return flags;
}

export async function serveCommand(positionals: string[], values: Record<string, string | boolean | undefined>): Promise<void> {
  const server = await startServer({ files: positionals, home: optionalString(values.home), flags: flagsOf(values) });
  const token = (await readFile(server.tokenFile, 'utf8')).trim();
  const out = process.stdout;
  if (server.fellBack) out.write(`Port ${server.settings.port} is in use; bound an ephemeral port instead.\n`);
  out.write(`Athene MCP server listening on ${server.url}\n`);
  out.write(`Windows: ${server.registry.all.map((w) => w.label).join('; ')}\n`);
  out.write(`Bearer token file: ${server.tokenFile}\n`);
  if (server.settings.read_only) out.write('Read-only mode: every mutating tool is refused.\n');
  if (server.settings.confirm_each_write) out.write('Confirm each write: writes wait for approval at /admin/api/pending.\n');
  out.write(`Connect Claude Code with:\n  claude mcp add --transport http athene ${server.url} --header "Authorization: Bearer ${token}"\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      out.write(`${signal}: finishing in-flight calls and stopping\n`);
      void server.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
