// Import provenance of a release (TOOLS.md run_release_gate): which document backs every member of the
// root's imports closure. Under `network=deny` each must be an authorized local file (policy path rules,
// symlinks resolved), else `imports.remote_backed`; under `network=allow` a remote member the policy's
// import network rules admit is kept and recorded in `network_caveat` (the request never overrides a policy
// deny). Nothing is fetched: the check reads only what the workspace already holds and the file system.

import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { IRI } from '../model/terms.js';
import type { Ontology } from '../model/ontology.js';
import { importGraph, type ClosureNode, type SourceType } from '../imports/closure.js';
import { checkLocalPath, checkRemote } from '../policy/path-rules.js';
import { isInside } from '../policy/paths.js';
import type { PolicyResolution } from '../policy/resolution.js';
import { DomainError } from '../util/errors.js';
import type { CallContext } from '../window/call-context.js';
import { releaseFinding, type ReleaseFinding } from './finding.js';
import { unreachable } from '../util/unreachable.js';

export type NetworkMode = 'deny' | 'allow';

export type BackedBy = 'local_file' | 'remote' | 'memory' | 'unauthorized_local_file' | 'missing_local_file' | 'unresolved';

/** One imported ontology of the closure as a release records it (root excluded: the release writes it). */
export interface ResolvedImport {
  readonly ontology_iri: string | null;
  readonly version_iri: string | null;
  /** Project-relative (POSIX) for a local file inside the project root, else the document IRI as loaded. */
  readonly document: string | null;
  readonly source_type: SourceType | null;
  readonly backed_by: BackedBy;
}

export interface NetworkCaveat {
  readonly remote_imports: readonly string[];
  readonly note: string;
}

export interface Provenance {
  readonly resolved_imports: readonly ResolvedImport[];
  readonly network_caveat: NetworkCaveat | null;
  readonly findings: readonly ReleaseFinding[];
}

/** `p` relative to `root` with `/` separators when it lies inside, else unchanged. */
export function projectRelative(root: string | null, p: string): string {
  if (root === null || !path.isAbsolute(p) || !isInside(root, p)) return p;
  return path.relative(root, p).split(path.sep).join('/') || '.';
}

const isFile = (p: string) =>
  stat(p).then(
    (s) => s.isFile(),
    () => false,
  );

/** The refusal's reason, for the finding (authorization failures are expected outcomes here, not errors). */
function refusal(err: unknown): string {
  if (err instanceof DomainError) return err.message;
  throw err;
}

interface Backing {
  readonly backed_by: BackedBy;
  readonly kept_remote: boolean;
  readonly why: string | null;
}

async function localBacking(ctx: CallContext, tool: string, node: ClosureNode, res: PolicyResolution): Promise<Backing> {
  let real: string;
  try {
    real = await checkLocalPath(ctx, tool, node.file!, 'read', res);
  } catch (err) {
    return { backed_by: 'unauthorized_local_file', kept_remote: false, why: refusal(err) };
  }
  return (await isFile(real))
    ? { backed_by: 'local_file', kept_remote: false, why: null }
    : { backed_by: 'missing_local_file', kept_remote: false, why: `its document ${node.file} is no longer a readable file` };
}

function remoteBacking(ctx: CallContext, tool: string, node: ClosureNode, res: PolicyResolution, network: NetworkMode): Backing {
  if (network === 'deny')
    return { backed_by: 'remote', kept_remote: false, why: `it was fetched from ${node.document_iri} and the request says network=deny` };
  try {
    checkRemote(ctx, tool, node.document_iri!, 'allow', res, 'import');
  } catch (err) {
    return { backed_by: 'remote', kept_remote: false, why: refusal(err) };
  }
  return { backed_by: 'remote', kept_remote: true, why: null };
}

async function backing(ctx: CallContext, tool: string, node: ClosureNode, res: PolicyResolution, network: NetworkMode): Promise<Backing> {
  switch (node.source_type) {
    case 'local':
      return localBacking(ctx, tool, node, res);
    case 'remote':
      return remoteBacking(ctx, tool, node, res, network);
    case 'memory':
      return { backed_by: 'memory', kept_remote: false, why: 'it exists only in memory (no document backs it)' };
    default:
      return unreachable(node.source_type);
  }
}

/** Checks every member of `root`'s imports closure (`find` resolves an import IRI in the workspace). */
export async function checkProvenance(
  ctx: CallContext,
  tool: string,
  root: Ontology,
  find: (iri: IRI) => Ontology | undefined,
  res: PolicyResolution,
  network: NetworkMode,
): Promise<Provenance> {
  const graph = importGraph(root, find);
  const rows: ResolvedImport[] = [];
  const findings: ReleaseFinding[] = [];
  const kept: string[] = [];
  const focus = root.id.iri;
  for (const node of graph.nodes) {
    if (node === graph.root) continue;
    const b = await backing(ctx, tool, node, res, network);
    const document = node.file !== null ? projectRelative(res.projectRoot, node.file) : node.document_iri;
    rows.push({
      ontology_iri: node.ontology_iri,
      version_iri: node.version_iri,
      document,
      source_type: node.source_type,
      backed_by: b.backed_by,
    });
    if (b.kept_remote) kept.push(node.document_iri!);
    if (b.why !== null) {
      findings.push(
        releaseFinding(
          'imports.remote_backed',
          'error',
          `The import ${node.ref} is not backed by an authorized local file: ${b.why}`,
          focus,
          node.ref,
          { ontology: node.ref, backed_by: b.backed_by, document },
        ),
      );
    }
  }
  const missing = new Set<string>();
  for (const edge of graph.edges) {
    if (edge.target !== null || missing.has(edge.import_iri)) continue;
    missing.add(edge.import_iri);
    rows.push({ ontology_iri: edge.import_iri, version_iri: null, document: null, source_type: null, backed_by: 'unresolved' });
    findings.push(
      releaseFinding(
        'imports.remote_backed',
        'error',
        `The import ${edge.import_iri} (declared by ${edge.source.ref}) is not loaded, so no local file backs it`,
        focus,
        edge.import_iri,
        { ontology: edge.import_iri, backed_by: 'unresolved', declared_by: edge.source.ref },
      ),
    );
  }
  kept.sort();
  return {
    resolved_imports: rows,
    network_caveat:
      kept.length === 0
        ? null
        : {
            remote_imports: kept,
            note: `network=allow kept ${kept.length} remote-backed import(s) the project policy admits: the release depends on those documents staying as they were fetched`,
          },
    findings,
  };
}
