// A job's owner from the caller: the actor's workspace and the exact principal, client and grant, each kept
// only as a domain-separated digest, so descriptors identify the owner without naming it.

import type { Principal } from '../auth/principal.js';
import { sha256Digest } from '../util/digest.js';
import type { JobOwner } from './job.js';

const digestOf = (domain: string, parts: readonly unknown[]): string =>
  sha256Digest(JSON.stringify(['athene-job-owner', domain, ...parts]));

export function jobOwner(workspaceId: string, principal: Principal): JobOwner {
  const capabilities = [...principal.capabilities].sort();
  const principalFingerprint = digestOf('principal', [principal.type, principal.client_id, principal.grant_id, capabilities]);
  const clientFingerprint = digestOf('client', [principal.type, principal.client_id]);
  const grantFingerprint = digestOf('grant', [principal.type, principal.client_id, principal.grant_id]);
  return {
    workspaceId,
    principalFingerprint,
    clientFingerprint,
    grantFingerprint,
    grantId: principal.type === 'oauth' ? principal.grant_id : null,
    ownerFingerprint: digestOf('owner', [workspaceId, principalFingerprint, clientFingerprint, grantFingerprint]),
  };
}
