// Reading a private secret file (the static token, the directory secret): its trimmed content, or null
// when it is missing or empty; its mode is tightened to 0600 on every read.

import { chmod, readFile } from 'node:fs/promises';

export async function readSecretFile(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const token = text.trim();
  if (token === '') return null;
  await chmod(file, 0o600);
  return token;
}
