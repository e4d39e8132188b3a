// The private snapshot every QC stage of one gate run reads (finding.ts QcSnapshot): the active ontology
// copied (its sets, not its interned axioms), a delta applied to the copy, and the imports closure as the
// copy now declares it. Nothing live is modified; the revision is the one captured.

import { applyBatch, type Change } from '../model/changes.js';
import { Ontology } from '../model/ontology.js';
import type { Workspace } from '../model/workspace.js';
import type { WindowState } from '../window/state.js';
import type { QcSnapshot } from './finding.js';

/** A copy of `o` sharing its interned axioms and annotations; its indexes are built when first read. */
function copyOntology(o: Ontology): Ontology {
  const c = new Ontology();
  c.id = o.id;
  for (const iri of o.imports) c.imports.add(iri);
  for (const a of o.annotations) c.annotations.add(a);
  for (const [p, ns] of o.prefixes) c.prefixes.set(p, ns);
  c.format = o.format;
  c.documentIri = o.documentIri;
  c.unmapped = o.unmapped;
  for (const a of o.axioms()) c.add(a);
  return c;
}

/** The change with its target replaced by the copy standing in for it. */
function retarget(change: Change, copies: ReadonlyMap<Ontology, Ontology>): Change {
  const copy = copies.get(change.ontology);
  return copy === undefined ? change : ({ ...change, ontology: copy } as Change);
}

/** `root` then every ontology reachable through imports, resolved in the workspace with `copies` standing in. */
function closureOf(root: Ontology, ws: Workspace, copies: ReadonlyMap<Ontology, Ontology>): Ontology[] {
  const out = [root];
  const seen = new Set<Ontology>([root]);
  // breadth-first: for…of visits the members pushed while it runs
  for (const o of out) {
    for (const iri of o.imports) {
      const found = ws.find(iri);
      if (found === undefined) continue;
      const member = copies.get(found) ?? found;
      if (!seen.has(member)) {
        seen.add(member);
        out.push(member);
      }
    }
  }
  return out;
}

/**
 * Which window a snapshot came from: the reasoner stage shares that workspace's incremental reasoner,
 * the SPARQL stages its engine thread.
 */
const origins = new WeakMap<QcSnapshot, WindowState>();

export function snapshotWorkspaceId(s: QcSnapshot): string | undefined {
  return origins.get(s)?.workspace.id;
}

export function snapshotWindow(s: QcSnapshot): WindowState | undefined {
  return origins.get(s);
}

/**
 * Captures the active ontology with `delta` applied to a private copy (and to copies of any other loaded
 * ontology the delta targets). Throws the ChangeError of a malformed change, having changed nothing.
 */
export function captureSnapshot(window: WindowState, delta: readonly Change[], labelLanguage: string): QcSnapshot {
  const ws = window.workspace;
  const active = ws.active;
  const copies = new Map<Ontology, Ontology>([[active, copyOntology(active)]]);
  for (const c of delta) if (!copies.has(c.ontology)) copies.set(c.ontology, copyOntology(c.ontology));
  applyBatch(delta.map((c) => retarget(c, copies)));
  const ontology = copies.get(active)!;
  const snapshot: QcSnapshot = { ontology, closure: closureOf(ontology, ws, copies), revision: ws.revision, labelLanguage };
  origins.set(snapshot, window);
  return snapshot;
}
