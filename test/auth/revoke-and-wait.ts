// Child process of the SIGKILL test: starts the revocation actor on a home whose registry cannot be saved
// (so the journal alone holds what follows), revokes a token, prints "acked" once the revocation is
// acknowledged, then waits to be killed. Without arguments (as when a test runner picks it up) it does nothing.

import { startRevocationActor } from '../../src/auth/revocation/actor.js';

const [home, token] = process.argv.slice(2);
if (home !== undefined && token !== undefined) {
  const actor = await startRevocationActor({ home, faults: { failPersist: true } });
  const result = await actor.revokeToken(token);
  process.stdout.write(result.ok && result.grant_ids.length === 1 ? 'acked\n' : `failed ${JSON.stringify(result)}\n`);
  setInterval(() => undefined, 60_000);
}
