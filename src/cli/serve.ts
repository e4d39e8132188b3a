// athene serve [FILE…] [--home DIR] [setting flags…]: the flags come from the settings table.

import { startServer } from '../http/server.js';
import { defaultHome, flagSettings } from '../settings/settings.js';
import { log } from '../util/log.js';
import { optionalString } from './args.js';
import { unsavedJournalDocuments } from '../journal/file-store.js';

/** How to connect: commands and files that read the token when used, never the token itself. */
export function connectHelp(url: string, home: string, defaultHomeDir: string): string {
  const tokenCommand = home === defaultHomeDir ? 'npx athene token' : `npx athene token --home ${home}`;
  const vscode = JSON.stringify({
    inputs: [{ id: 'athene-token', type: 'promptString', description: `Athene bearer token (${tokenCommand})`, password: true }],
    servers: { athene: { type: 'http', url, headers: { Authorization: 'Bearer ${input:athene-token}' } } },
  });
  const cursor = JSON.stringify({ mcpServers: { athene: { url, headers: { Authorization: 'Bearer ${env:ATHENE_TOKEN}' } } } });
  return (
    [
      'Connect (the token is read when the client starts; it is never printed here):',
      `  Claude Code:  claude mcp add --transport http athene ${url} --header "Authorization: Bearer $(${tokenCommand})"`,
      `  VS Code, .vscode/mcp.json:  ${vscode}`,
      `  Cursor, ~/.cursor/mcp.json:  ${cursor}   (start Cursor with ATHENE_TOKEN="$(${tokenCommand})")`,
      `  OAuth, no header:  claude mcp add --transport http athene ${url}   (the client registers; approve it in the browser page it opens)`,
    ].join('\n') + '\n'
  );
}

export async function serveCommand(positionals: string[], values: Record<string, string | boolean | undefined>): Promise<void> {
  const server = await startServer({ files: positionals, home: optionalString(values.home), flags: flagSettings(values) });
  const out = process.stdout;
  const role = server.role;
  if (role.kind === 'standalone' && role.reason !== null) out.write(`Standalone: ${role.reason}.\n`);
  if (server.fellBack) out.write(`Port ${server.settings.port} is in use; bound an ephemeral port instead.\n`);
  if (role.kind === 'broker') out.write(`Shared broker: other athene processes on ${server.home} register their windows here.\n`);
  if (role.kind === 'registered')
    out.write(`Registered with the broker (pid ${role.link.broker.pid}); windows served from loopback port ${role.backend.port}.\n`);
  const t = server.transport;
  out.write(`HTTP transport: ${t.kind === 'uws' ? 'uWebSockets.js' : 'node:http'}${t.fallback !== null ? ` (${t.fallback})` : ''}\n`);
  out.write(`Athene MCP server listening on ${server.url}\n`);
  out.write(`Windows: ${server.registry.all.map((w) => w.label).join('; ')}\n`);
  out.write(`Bearer token file: ${server.tokenFile} (print it with: npx athene token)\n`);
  if (server.settings.read_only) out.write('Read-only mode: every mutating tool is refused.\n');
  if (server.settings.confirm_each_write)
    out.write('Confirm each write: writes wait for the owner (athene pending list|approve ID|deny ID).\n');
  out.write(`Owner login to the server view (single use, 10 minutes; later ones: athene open): ${server.ownerLoginUrl()}\n`);
  out.write(connectHelp(server.url, server.home, defaultHome()));
  log.info({ url: server.url, transport: t.kind, role: role.kind, windows: server.registry.all.length }, 'serving');
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      // a second signal meets the default handler and ends the process at once
      out.write(
        `${signal}: finishing in-flight calls (at most ${server.settings.shutdown_grace_s} s) and stopping; signal again to quit at once\n`,
      );
      if (server.willLinger()) {
        out.write(
          `Other processes' windows are registered: staying up as broker until none has been for ${server.settings.broker_idle_linger_s} s\n`,
        );
      }
      void server.close(server.settings.shutdown_grace_s * 1000).then(async () => {
        const unsaved = server.settings.journal_enabled ? await unsavedJournalDocuments(server.home) : [];
        if (unsaved.length > 0)
          out.write(`Unsaved changes are kept in the change journal and replayed at the next start: ${unsaved.join(', ')}\n`);
        resolve();
      });
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
