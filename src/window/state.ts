// What one window owns, in one object: its workspace and the state every tool call of the window shares.
// A window actor makes it when the window starts and disposes of it when the window closes (shutdown, or
// the actor's end); the tool context carries it to every call. Parts that cost a thread or a directory
// (the SPARQL engine, the job store) are made on first use; the rest are small in-memory stores.

import type { Workspace } from '../model/workspace.js';
import type { WorkspaceResolver } from '../model/resolver.js';
import type { ChangeRecorder } from '../journal/recorder.js';
import { ReasoningSession } from '../reasoner/pool.js';
import { JobManager } from '../jobs/manager.js';
import { artifactsParent } from '../jobs/artifacts.js';
import { ExternalTermStore } from '../external-terms/actor-store.js';
import { PolicyResolutionCache } from '../policy/resolution-cache.js';
import { ArtifactStore } from '../materialization/store.js';
import type { MaterializationPayload } from '../materialization/preview.js';
import { ChangeSetStore } from '../qc/change-set-store.js';
import { SparqlEngine } from '../sparql/engine.js';
import { ApprovalQueue } from './approvals.js';
import { UndoJournal } from './undo-journal.js';

export interface WindowStateOptions {
  readonly workspace: Workspace;
  readonly resolver: WorkspaceResolver;
  /** The window's change journal, when it is on. */
  readonly changes?: ChangeRecorder | null;
  /** Names the window in approval entries. */
  readonly windowId: string;
  /** Hears when the pending approvals change. */
  readonly onApprovalsChanged?: () => void;
  /** The private directory (`$ATHENE_HOME`) where job artifacts go; null: the system temp directory. */
  readonly home?: string | null;
  /** Names the window's artifact directory (see artifactsDir); the window actor removes it if the worker dies. */
  readonly artifactsId?: string;
}

export class WindowState {
  readonly workspace: Workspace;
  readonly resolver: WorkspaceResolver;
  /** What each undo/redo unit changed, for `undo_change peek`. */
  readonly undo: UndoJournal;
  readonly changes: ChangeRecorder | null;
  /** Mutating calls waiting for the owner's decision (confirm each write). */
  readonly approvals: ApprovalQueue;
  /** Reasoner selection, current run and last result, the reasoner thread and the reasoning snapshot. */
  readonly reasoning: ReasoningSession;
  /** Provider cache, search cursors and reuse proposals of external terms. */
  readonly externalTerms = new ExternalTermStore();
  /** The last valid discovered project policy. */
  readonly policy = new PolicyResolutionCache();
  /** Materialization previews awaiting commit. */
  readonly materializations = new ArtifactStore<MaterializationPayload>();
  /** Previewed change sets; their payload type is the tool layer's (tools/edit/change-sets.ts reads it). */
  readonly changeSets = new ChangeSetStore<unknown>();
  private engine: SparqlEngine | null = null;
  private jobStore: JobManager | null = null;
  private readonly home: string | null;
  private readonly artifactsId: string | undefined;
  private disposed: Promise<void> | null = null;

  constructor(options: WindowStateOptions) {
    this.workspace = options.workspace;
    this.resolver = options.resolver;
    this.changes = options.changes ?? null;
    this.home = options.home ?? null;
    this.artifactsId = options.artifactsId;
    this.undo = new UndoJournal(options.workspace);
    this.approvals = new ApprovalQueue(options.windowId, options.onApprovalsChanged);
    this.reasoning = new ReasoningSession(options.workspace);
  }

  /** The SPARQL engine: its thread holds a snapshot of the active closure (started by the first query). */
  get sparql(): SparqlEngine {
    return (this.engine ??= new SparqlEngine(this.workspace));
  }

  /** The job store; its artifacts go under the private directory. */
  get jobs(): JobManager {
    return (this.jobStore ??= new JobManager({ artifactsParent: artifactsParent(this.home), artifactsId: this.artifactsId }));
  }

  /** Whether the job store was made (a window that never ran a job has none to close). */
  get hasJobs(): boolean {
    return this.jobStore !== null;
  }

  /** Whether the SPARQL engine was made. */
  get hasSparql(): boolean {
    return this.engine !== null;
  }

  /** Grants were revoked: their unfinished jobs stop, their cursors and proposals are erased. */
  revoke(grantIds: ReadonlySet<string>): void {
    this.jobStore?.cancelGrants(grantIds);
    this.externalTerms.revoke(grantIds);
  }

  /**
   * The window is closing: undecided writes are declined, jobs cancelled and their artifacts deleted, the
   * reasoner and SPARQL threads ended, and the in-memory stores emptied. Runs once; later calls wait for it.
   */
  dispose(): Promise<void> {
    return (this.disposed ??= this.release());
  }

  private async release(): Promise<void> {
    this.approvals.declineAll();
    // jobs first: their private artifacts must go even if the thread is ended before the rest finishes
    const jobs = this.jobStore?.close();
    this.externalTerms.clear();
    this.policy.clear();
    this.materializations.clear();
    this.changeSets.clear();
    await Promise.all([jobs, this.reasoning.close(), this.engine?.close()]);
  }
}
