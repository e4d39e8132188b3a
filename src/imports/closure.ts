// The import graph of one root ontology as plain coordinates: which ontologies the closure holds (with depth
// and role), every owl:imports declaration edge (resolved or missing), cycles and identity conflicts. Built
// from a lookup function, so the live workspace and a not-yet-attached load plan are described the same way.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IRI } from '../model/terms.js';
import type { Ontology } from '../model/ontology.js';
import { ontologyLabel } from '../model/workspace.js';
import { stronglyConnectedComponents } from '../util/strongly-connected.js';

export type SourceType = 'local' | 'remote' | 'memory';

export interface ClosureNode {
  readonly ontology: Ontology;
  readonly ref: string;
  readonly ontology_iri: string | null;
  readonly version_iri: string | null;
  /** Where the document came from (absolute path or URL) or null for an in-memory ontology. */
  readonly document_iri: string | null;
  /** The local file of the document, when it is one. */
  readonly file: string | null;
  readonly source_type: SourceType;
  /** Shortest import distance from the root (0 for the root). */
  readonly depth: number;
  readonly role: 'root' | 'direct' | 'transitive';
}

export interface ImportEdge {
  readonly source: ClosureNode;
  readonly import_iri: IRI;
  readonly target: ClosureNode | null;
  /** Depth of the imported ontology along this edge (the importer's depth + 1). */
  readonly depth: number;
  /** Declared by the root itself. */
  readonly direct: boolean;
}

export interface ImportGraph {
  readonly root: ClosureNode;
  /** Every ontology of the closure, root first, then by depth and ref. */
  readonly nodes: readonly ClosureNode[];
  /** Every declaration edge, ordered by source ref, then import IRI. */
  readonly edges: readonly ImportEdge[];
}

export interface ImportCycle {
  readonly ontologies: readonly string[];
  readonly size: number;
  readonly self_loop: boolean;
}

export type ConflictType = 'multiple_versions' | 'version_iri_collision' | 'document_iri_collision';

export interface ImportConflict {
  readonly type: ConflictType;
  readonly field: 'ontology_iri' | 'version_iri' | 'document_iri';
  readonly value: string;
  readonly ontologies: readonly string[];
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The local file behind a document IRI (absolute path or `file:` URL), else null. */
export function localFileOf(documentIri: string | null): string | null {
  if (documentIri === null) return null;
  if (documentIri.startsWith('file:')) return fileURLToPath(documentIri);
  return path.isAbsolute(documentIri) ? documentIri : null;
}

function sourceType(documentIri: string | null): SourceType {
  if (documentIri === null) return 'memory';
  return localFileOf(documentIri) === null ? 'remote' : 'local';
}

/**
 * The closure of `root` where `find` says which ontology satisfies an import IRI (undefined: missing).
 * Breadth first, so each ontology gets its shortest depth; an ontology the root imports directly is `direct`.
 */
export function importGraph(root: Ontology, find: (iri: IRI) => Ontology | undefined): ImportGraph {
  const nodes = new Map<Ontology, ClosureNode>();
  const node = (o: Ontology, depth: number, role: ClosureNode['role']): ClosureNode => {
    const n: ClosureNode = {
      ontology: o,
      ref: ontologyLabel(o),
      ontology_iri: o.id.iri,
      version_iri: o.id.versionIri,
      document_iri: o.documentIri,
      file: localFileOf(o.documentIri),
      source_type: sourceType(o.documentIri),
      depth,
      role,
    };
    nodes.set(o, n);
    return n;
  };
  const rootNode = node(root, 0, 'root');
  const edges: ImportEdge[] = [];
  const queue = [rootNode];
  // a breadth-first walk: for…of visits the nodes pushed while it runs
  for (const source of queue) {
    for (const iri of [...source.ontology.imports].sort()) {
      const o = find(iri);
      let target: ClosureNode | null = null;
      if (o !== undefined) {
        target = nodes.get(o) ?? null;
        if (target === null) {
          target = node(o, source.depth + 1, source === rootNode ? 'direct' : 'transitive');
          queue.push(target);
        }
      }
      edges.push({ source, import_iri: iri, target, depth: source.depth + 1, direct: source === rootNode });
    }
  }
  const ordered = [...nodes.values()].sort((a, b) => a.depth - b.depth || cmp(a.ref, b.ref));
  edges.sort((a, b) => cmp(a.source.ref, b.source.ref) || cmp(a.import_iri, b.import_iri));
  return { root: rootNode, nodes: ordered, edges };
}

/** The imported ontologies (every node but the root; a cycle back to the root does not import it again). */
export const importedNodes = (g: ImportGraph): ClosureNode[] => g.nodes.filter((n) => n !== g.root);

export const missingEdges = (g: ImportGraph): ImportEdge[] => g.edges.filter((e) => e.target === null);

/** Strongly connected import cycles (Tarjan), each listed by sorted refs; sorted by their first ref. */
export function importCycles(g: ImportGraph): ImportCycle[] {
  const successors = new Map<ClosureNode, ClosureNode[]>(g.nodes.map((n) => [n, []]));
  const selfLoops = new Set<ClosureNode>();
  for (const e of g.edges) {
    if (e.target === null) continue;
    successors.get(e.source)!.push(e.target);
    if (e.target === e.source) selfLoops.add(e.source);
  }
  return stronglyConnectedComponents(g.nodes, (n) => successors.get(n)!)
    .filter((c) => c.length > 1 || c.some((n) => selfLoops.has(n)))
    .map((c) => {
      const refs = c.map((n) => n.ref).sort(cmp);
      return { ontologies: refs, size: refs.length, self_loop: c.length === 1 };
    })
    .sort((a, b) => cmp(a.ontologies[0] ?? '', b.ontologies[0] ?? ''));
}

/**
 * Identity conflicts among the closure's ontologies: one ontology IRI with several versions, a version IRI
 * claimed by several ontologies, or one document read as several ontologies. Sorted by type, then value.
 */
export function importConflicts(g: ImportGraph): ImportConflict[] {
  const groups = (key: (n: ClosureNode) => string | null) => {
    const by = new Map<string, ClosureNode[]>();
    for (const n of g.nodes) {
      const k = key(n);
      if (k !== null) by.set(k, [...(by.get(k) ?? []), n]);
    }
    return by;
  };
  const out: ImportConflict[] = [];
  for (const [value, ns] of groups((n) => n.ontology_iri)) {
    if (new Set(ns.map((n) => n.version_iri)).size > 1)
      out.push({ type: 'multiple_versions', field: 'ontology_iri', value, ontologies: ns.map((n) => n.ref).sort(cmp) });
  }
  for (const [value, ns] of groups((n) => n.version_iri)) {
    if (ns.length > 1) out.push({ type: 'version_iri_collision', field: 'version_iri', value, ontologies: ns.map((n) => n.ref).sort(cmp) });
  }
  for (const [value, ns] of groups((n) => n.file ?? n.document_iri)) {
    if (ns.length > 1)
      out.push({ type: 'document_iri_collision', field: 'document_iri', value, ontologies: ns.map((n) => n.ref).sort(cmp) });
  }
  return out.sort((a, b) => cmp(a.type, b.type) || cmp(a.value, b.value));
}
