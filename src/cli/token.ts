// athene token [--regenerate] [--home DIR]: print the static bearer token (creating it on first use), or
// replace it; a running server stops accepting the old token within a second.

import { defaultHome, ensureHome } from '../settings/settings.js';
import { ensureToken, regenerateToken } from '../auth/static-token.js';
import { optionalString } from './args.js';

export async function tokenCommand(_positionals: string[], values: Record<string, string | boolean | undefined>): Promise<void> {
  const home = optionalString(values.home) ?? defaultHome();
  await ensureHome(home);
  const token = values.regenerate === true ? await regenerateToken(home) : await ensureToken(home);
  process.stdout.write(token + '\n');
}
