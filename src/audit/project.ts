// Which project an audit event belongs to: `<home>/audit/<project-hash>/`. Under a project policy the hash
// names the policy's anchor directory (symlinks resolved), so every window of the project writes beside the
// others and export_audit_log finds them all. Without a policy each local document is its own project (hash
// of its absolute path); an ontology with no local document falls in one shared `unscoped` bucket.

import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { discoverFrom, policyAnchor } from '../policy/discover.js';

export const AUDIT_DIR = 'audit';

const hash = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);

/** The project hash of a policy file: its anchor directory, symlinks resolved. */
export async function policyProjectHash(policyFile: string): Promise<string> {
  const anchor = policyAnchor(path.resolve(policyFile));
  return hash(`project:${await realpath(anchor).catch(() => anchor)}`);
}

/** The project hash of an active document: its nearest policy's project, else the document itself. */
export async function documentProjectHash(document: string | null): Promise<string> {
  if (document === null) return hash('unscoped');
  const policy = await discoverFrom(path.dirname(document));
  return policy === null ? hash(`document:${path.resolve(document)}`) : policyProjectHash(policy);
}

export function projectStreamsDir(home: string, projectHash: string): string {
  return path.join(home, AUDIT_DIR, projectHash);
}
