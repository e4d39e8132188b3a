// athene serve [FILE…] [--port N] [--bind ADDR] [--read-only] [--confirm-writes] [--no-share] [--linger S] [--home DIR]
//   [--new-entity-namespace IRI] [--new-entity-ids name|generated] [--no-unrestricted-paths]

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
  'no-share': { type: 'boolean' },
  linger: { type: 'string' },
  'new-entity-namespace': { type: 'string' },
  'new-entity-ids': { type: 'string' },
  'no-unrestricted-paths': { type: 'boolean' },
} as const;

function flagsOf(values: Record<string, string | boolean | undefined>): RawSettings {
  const flags: RawSettings = {};
  if (values.port !== undefined) flags.port = String(values.port);
  if (values.bind !== undefined) flags.bind_address = String(values.bind);
  if (values['read-only'] === true) flags.read_only = true;
  if (values['confirm-writes'] === true) flags.confirm_each_write = true;
  if (values['no-share'] === true) flags.share_endpoint = false;
  if (values.linger !== undefined) flags.broker_idle_linger_s = String(values.linger);
  if (values['new-entity-namespace'] !== undefined) flags.new_entity_namespace = String(values['new-entity-namespace']);
  if (values['new-entity-ids'] !== undefined) flags.new_entity_ids = String(values['new-entity-ids']);
  if (values['no-unrestricted-paths'] === true) flags.allow_unrestricted_paths_without_policy = false;
  return flags;
}

export async function serveCommand(positionals: string[], values: Record<string, string | boolean | undefined>): Promise<void> {
  const server = await startServer({ files: positionals, home: optionalString(values.home), flags: flagsOf(values) });
  const token = (await readFile(server.tokenFile, 'utf8')).trim();
  const out = process.stdout;
  const role = server.role;
  if (role.kind === 'standalone' && role.reason !== null) out.write(`Standalone: ${role.reason}.\n`);
  if (server.fellBack) out.write(`Port ${server.settings.port} is in use; bound an ephemeral port instead.\n`);
  if (role.kind === 'broker') out.write(`Shared broker: other athene processes on ${server.home} register their windows here.\n`);
  if (role.kind === 'registered') out.write(`Registered with the broker (pid ${role.link.broker.pid}); windows served from loopback port ${role.backend.port}.\n`);
  out.write(`Athene MCP server listening on ${server.url}\n`);
  out.write(`Windows: ${server.registry.all.map((w) => w.label).join('; ')}\n`);
  out.write(`Bearer token file: ${server.tokenFile}\n`);
  if (server.settings.read_only) out.write('Read-only mode: every mutating tool is refused.\n');
  if (server.settings.confirm_each_write) out.write('Confirm each write: writes wait for the owner (athene pending list|approve ID|deny ID).\n');
  out.write(`Owner login (single use, 10 minutes; later ones: athene open): ${server.ownerLoginUrl()}\n`);
  out.write(`Connect Claude Code with:\n  claude mcp add --transport http athene ${server.url} --header "Authorization: Bearer ${token}"\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      out.write(`${signal}: finishing in-flight calls and stopping\n`);
      if (server.willLinger()) {
        out.write(`Other processes' windows are registered: staying up as broker until none has been for ${server.settings.broker_idle_linger_s} s\n`);
      }
      void server.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    void server.closed.then(() => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    });
  });
}
