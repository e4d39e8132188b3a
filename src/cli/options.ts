// The option tables of `athene serve`, `token` and the owner commands, apart from the commands themselves:
// main.ts parses arguments and prints help without importing a command's module (the server, the model).

import { settingFlags, settingsHelp } from '../settings/settings.js';

export const SERVE_OPTIONS = { ...settingFlags().options, home: { type: 'string' } } as const;

export const SERVE_HELP = `usage: athene serve [FILE...] [--home DIR] [flags]
  Runs the MCP server: one window per FILE, else the bundled demo ontology.
  Each setting comes from its flag, else its ATHENE_* variable, else $ATHENE_HOME/settings.json, else its default.

  --home DIR
      the private directory (env ATHENE_HOME, default ~/.athene)
${settingsHelp()}`;

export const TOKEN_OPTIONS = { regenerate: { type: 'boolean' }, home: { type: 'string' } } as const;

export const OWNER_OPTIONS = { home: { type: 'string' }, url: { type: 'string' }, 'print-url': { type: 'boolean' } } as const;
