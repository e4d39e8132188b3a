// export_audit_log (TOOLS.md 3.3): merges the project's audit streams under the project lock and writes one
// JSONL file inside the project's `.athene/`. A dry run checks every source and the target and writes nothing.

import * as v from 'valibot';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { resolvePolicy } from '../../policy/resolve.js';
import { checkLocalPath } from '../../policy/path-rules.js';
import { localDocumentOf } from '../../policy/paths.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { AuditMergeError, exportText, mergeStreams, withProjectLock, type MergedAudit } from '../../audit/merge.js';
import { documentProjectHash, policyProjectHash } from '../../audit/project.js';
import { auditRecorder, ensurePrivateDir } from '../../audit/stream.js';
import { defineTool, ToolFailure, type ToolContext } from '../core/tool.js';
import { sha256Digest } from '../../util/digest.js';

const TOOL = 'export_audit_log';
const DEFAULT_OUTPUT = '.athene/audit-export.jsonl';
const OUTPUT_NAME = /^\.athene\/audit-export[^/\\]*\.jsonl$/;

const Input = v.strictObject({
  dry_run: v.optional(v.boolean(), true),
  output: v.optional(
    v.pipe(v.string(), v.maxLength(255), v.regex(OUTPUT_NAME, 'must be a project-relative path matching .athene/audit-export*.jsonl')),
    DEFAULT_OUTPUT,
  ),
});

/** Which streams and which root: the valid discovered policy's project, or (dry run only) the document's own. */
interface ExportScope {
  readonly projectHash: string;
  readonly root: string;
  readonly resolution: Awaited<ReturnType<typeof resolvePolicy>>;
}

async function scopeOf(ctx: ToolContext, commit: boolean): Promise<ExportScope> {
  const res = await resolvePolicy(ctx);
  if (res.valid && res.file !== null && res.projectRoot !== null) {
    return { projectHash: await policyProjectHash(res.file), root: res.projectRoot, resolution: res };
  }
  if (commit) {
    throw res.loaded
      ? new ToolFailure(
          `${TOOL}: the project policy ${res.file} is invalid; a commit needs a valid discovered policy (get_project_policy lists its errors)`,
          'policy_invalid',
          { exported: false, policy_path: res.file },
        )
      : new ToolFailure(
          `${TOOL}: no project policy governs the active ontology; a commit needs a valid discovered .athene/project.yaml`,
          'policy_required',
          { exported: false },
        );
  }
  // a dry run without a valid policy previews the document-scoped streams beside the document
  const doc = ctx.workspace.hasActive ? localDocumentOf(ctx.workspace.active) : null;
  if (doc === null)
    throw new ToolFailure(`${TOOL}: the active ontology has no local document, so there is no project to export`, 'policy_required', {
      exported: false,
    });
  return { projectHash: await documentProjectHash(doc), root: path.dirname(doc), resolution: res };
}

/** The merged streams, or none when the project never recorded anything; refusals become tool failures. */
async function merged(dir: string, write: (m: MergedAudit) => Promise<void>): Promise<MergedAudit> {
  try {
    await lstat(dir);
  } catch {
    const empty = { events: [], sourceCount: 0 };
    await write(empty);
    return empty;
  }
  try {
    return await withProjectLock(dir, async () => {
      const m = await mergeStreams(dir);
      await write(m);
      return m;
    });
  } catch (err) {
    if (err instanceof AuditMergeError) {
      throw new ToolFailure(`${TOOL}: ${err.message}`, err.code, { exported: false, ...err.context });
    }
    throw err;
  }
}

export const exportAuditLog = defineTool({
  name: TOOL,
  description: 'Merge the project audit streams into one JSONL file; dry_run (default) writes nothing.',
  input: Input,
  output: v.object({
    exported: v.boolean(),
    dry_run: v.boolean(),
    path: v.string(),
    sha256: v.optional(v.string()),
    bytes: v.optional(v.number()),
    event_count: v.optional(v.number()),
    source_count: v.optional(v.number()),
  }),
  capabilities: ['server:admin', 'filesystem:project:read', 'filesystem:project:write'],
  mutating: (args) => !args.dry_run,
  destructive: true,
  summary: (args) => `${TOOL} to ${args.output}`,
  refusalContext: { exported: false },
  handler: async (args, ctx) => {
    const home = ctx.settings.audit_home;
    if (home === undefined)
      throw new ToolFailure(`${TOOL}: this window has no private directory, so it keeps no audit streams`, 'audit_unavailable', {
        exported: false,
      });
    const commit = !args.dry_run;
    const scope = await scopeOf(ctx, commit);
    const target = await checkLocalPath(ctx, TOOL, path.join(scope.root, args.output), commit ? 'write' : 'read', scope.resolution);
    const recorder = auditRecorder(home);
    await recorder.flushed();
    const dir = recorder.streamsDir(scope.projectHash);
    if (!commit) {
      await merged(dir, async () => undefined);
      return { exported: false, dry_run: true, path: target };
    }
    await ensurePrivateDir(dir);
    let text = '';
    const m = await merged(dir, async (found) => {
      text = exportText(found.events);
      await writeFileAtomic(target, text, { mode: 0o600 });
    });
    return {
      exported: true,
      dry_run: false,
      path: target,
      sha256: sha256Digest(text),
      bytes: Buffer.byteLength(text, 'utf8'),
      event_count: m.events.length,
      source_count: m.sourceCount,
    };
  },
});
