// The pair both comparison tools share (TOOLS.md 3.3): a left and a right ontology, loaded or read
// privately from a document with its imports closure, and how their axioms and names are rendered.

import * as v from 'valibot';
import type { Axiom, Entity, IRI } from '../model/terms.js';
import { axiomTypeName } from '../model/terms.js';
import { ontologyIds, type Ontology } from '../model/ontology.js';
import { ontologyLabel } from '../model/workspace.js';
import { displayName } from '../model/display.js';
import { ManchesterRenderer } from '../model/formats/manchester/render.js';
import { LineRenderer } from '../model/render/axiom-lines.js';
import { catalogLocalFile, SiblingCatalogs } from '../model/catalog.js';
import { authorizeLocalPath } from '../policy/authorize.js';
import { classifySource } from '../policy/paths.js';
import { resolvePolicy } from '../policy/resolve.js';
import type { PolicyResolution } from '../policy/resolution.js';
import { DomainError } from '../util/errors.js';
import { readRegularFile } from '../util/file-read.js';
import type { JsonObject } from '../util/json-object.js';
import type { CallContext } from '../window/call-context.js';

/** How a pair reads a document privately; the tool layer supplies it (fetching and off-thread parsing live there). */
export interface DocumentReader {
  /** Fetches and parses `source` after authorizing it as a caller-selected document. */
  fetch(ctx: CallContext, tool: string, source: string, timeoutMs: number, network: Network): Promise<Ontology>;
  /** Parses the text of local file `file` off the calling thread. */
  parse(text: string, file: string, signal: AbortSignal): Promise<Ontology>;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** How long a remote right_document may take (the tools take no timeout argument). */
const RIGHT_DOCUMENT_TIMEOUT_MS = 15_000;

// ---------------------------------------------------------------- arguments

const OntologyRef = v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096));

export const PairArgs = {
  left: v.optional(v.pipe(OntologyRef, v.description('Default: the active ontology.'))),
  right: v.optional(OntologyRef),
  right_document: v.optional(v.pipe(OntologyRef, v.description('Path or URL; read privately, not loaded.'))),
  include_imports: v.optional(v.boolean(), false),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 50),
  network: v.optional(v.pipe(v.picklist(['deny', 'allow']), v.description('deny: no remote fetch in this call.'))),
};

export type Network = 'deny' | 'allow' | undefined;

export interface PairInput {
  left?: string | undefined;
  right?: string | undefined;
  right_document?: string | undefined;
  include_imports: boolean;
  network?: 'deny' | 'allow' | undefined;
}

// ---------------------------------------------------------------- sides

export interface UnresolvedImport {
  readonly import_iri: IRI;
  readonly reason: string;
}

/** One side of a comparison: its root, its whole imports closure (for names and ownership) and what is compared. */
export interface Side {
  readonly label: string;
  readonly root: Ontology;
  readonly closure: readonly Ontology[];
  readonly scope: readonly Ontology[];
  /** Imports of the closure nothing satisfies. */
  readonly missing: readonly UnresolvedImport[];
  /** The document read, for a right_document side. */
  readonly document?: string;
}

function loadedOntology(ctx: CallContext, ref: string, argument: string): Ontology {
  const iri = ref.trim().replace(/^<(.*)>$/, '$1');
  const o = ctx.workspace.find(iri);
  if (o === undefined)
    throw new DomainError(`No loaded ontology matches ${argument}='${ref}'. See list_ontologies.`, 'not_found', {
      argument,
      ontology: ref,
    });
  return o;
}

function loadedSide(ctx: CallContext, o: Ontology, includeImports: boolean): Side {
  const ws = ctx.workspace;
  const closure = ws.importsClosure(o);
  const missing = ws.missingImports(o).map((iri) => ({ import_iri: iri, reason: 'not loaded in the workspace' }));
  return { label: ontologyLabel(o), root: o, closure, scope: includeImports ? closure : [o], missing };
}

/**
 * The imports closure of a privately read document, offline: an import is satisfied by the document itself,
 * a loaded ontology, or the local file a catalog-v001.xml beside the importing (else the root) document maps
 * it to, read only when the caller may read it. Breadth first; every other import is reported with its reason.
 */
async function privateClosure(
  ctx: CallContext,
  root: Ontology,
  rootFile: string | null,
  policy: PolicyResolution,
  reader: DocumentReader,
): Promise<{ closure: Ontology[]; missing: UnresolvedImport[] }> {
  const closure = [root];
  const byId = new Map<IRI, Ontology>(ontologyIds(root).map((iri) => [iri, root]));
  const files = new Map<Ontology, string | null>([[root, rootFile]]);
  const missing: UnresolvedImport[] = [];
  const reasons = new Set<IRI>();
  const catalogs = new SiblingCatalogs();
  const add = (o: Ontology, file: string | null) => {
    if (closure.includes(o)) return;
    closure.push(o);
    files.set(o, file);
    for (const iri of ontologyIds(o)) byId.set(iri, o);
  };
  const unresolved = (iri: IRI, reason: string) => {
    reasons.add(iri);
    missing.push({ import_iri: iri, reason });
  };
  // for…of visits the ontologies `add` appends while it runs
  for (const importer of closure) {
    for (const iri of [...importer.imports].sort(cmp)) {
      if (byId.has(iri) || reasons.has(iri)) continue;
      const loaded = ctx.workspace.find(iri);
      if (loaded !== undefined) {
        add(loaded, null);
        continue;
      }
      const file = files.get(importer) ?? null;
      const own = file === null ? null : await catalogs.of(file);
      const fallback = rootFile === null ? null : await catalogs.of(rootFile);
      const broken = [own, fallback].find((c): c is Error => c instanceof Error);
      const mapped =
        [own, fallback].map((c) => (c === null || c instanceof Error ? null : catalogLocalFile(c, iri))).find((f) => f !== null) ?? null;
      if (mapped === null) {
        unresolved(
          iri,
          broken !== undefined
            ? `the import catalog is malformed: ${broken.message}`
            : rootFile === null
              ? 'not loaded; a remote document resolves no imports'
              : 'not loaded and not mapped to a local file by a catalog-v001.xml',
        );
        continue;
      }
      let text: string;
      try {
        await authorizeLocalPath(ctx, 'right_document', mapped, 'read', { resolution: policy });
        text = await readRegularFile(mapped, 'document', 'utf8');
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        unresolved(iri, `the catalog maps it to ${mapped}, which cannot be read: ${(err as Error).message}`);
        continue;
      }
      let parsed: Ontology;
      try {
        parsed = await reader.parse(text, mapped, ctx.signal);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        unresolved(iri, `the catalog maps it to ${mapped}, which does not parse: ${(err as Error).message}`);
        continue;
      }
      parsed.documentIri = mapped;
      if (!ontologyIds(parsed).includes(iri)) {
        unresolved(iri, `the catalog maps it to ${mapped}, which holds ${ontologyLabel(parsed)}`);
        continue;
      }
      add(parsed, mapped);
    }
  }
  return { closure, missing: missing.sort((a, b) => cmp(a.import_iri, b.import_iri)) };
}

/** Reads `source` privately (authorized as a caller-selected path or URL) with its imports closure. */
async function documentSide(
  ctx: CallContext,
  tool: string,
  source: string,
  network: Network,
  includeImports: boolean,
  reader: DocumentReader,
): Promise<Side> {
  const root = await reader.fetch(ctx, tool, source, RIGHT_DOCUMENT_TIMEOUT_MS, network);
  const src = classifySource(source);
  // the imports are read under the same policy fetchDocument authorized the document with
  const { closure, missing } = await privateClosure(ctx, root, src.remote ? null : root.documentIri, await resolvePolicy(ctx), reader);
  return {
    label: ontologyLabel(root),
    root,
    closure,
    scope: includeImports ? closure : [root],
    missing,
    document: root.documentIri ?? source,
  };
}

/** Exactly one of right / right_document, else `invalid_argument`. */
export function requireOneRightForm(args: Pick<PairInput, 'right' | 'right_document'>): void {
  if (args.right !== undefined && args.right_document !== undefined) {
    throw new DomainError('Give right (a loaded ontology) or right_document (a document), not both', 'invalid_argument');
  }
  if (args.right === undefined && args.right_document === undefined) {
    throw new DomainError('Give right (a loaded ontology) or right_document (a path or URL) to compare with', 'invalid_argument');
  }
}

/** Both sides of a pair: the right one first (it may load), then the left one as the workspace is now. */
export async function resolvePair(
  ctx: CallContext,
  tool: string,
  args: PairInput,
  reader: DocumentReader,
): Promise<{ left: Side; right: Side }> {
  requireOneRightForm(args);
  const leftOf = () => (args.left === undefined ? ctx.workspace.active : loadedOntology(ctx, args.left, 'left'));
  // refuse an unknown reference before anything is read
  leftOf();
  const right =
    args.right !== undefined
      ? loadedSide(ctx, loadedOntology(ctx, args.right, 'right'), args.include_imports)
      : await documentSide(ctx, tool, args.right_document!, args.network, args.include_imports, reader);
  return { left: loadedSide(ctx, leftOf(), args.include_imports), right };
}

/** The pair-form fields shared by both tools. */
export function pairFields(left: Side, right: Side, includeImports: boolean): JsonObject {
  const missing = left.missing.length + right.missing.length;
  return {
    left: left.label,
    right: right.label,
    ...(right.document === undefined ? {} : { right_document: right.document, right_document_unresolved_imports: right.missing }),
    ...(includeImports && missing > 0
      ? {
          caveat: `The imports closure is truncated: ${missing} import${missing === 1 ? '' : 's'} could not be resolved (left: ${left.missing.map((m) => m.import_iri).join(', ') || 'none'}; right: ${right.missing.map((m) => m.import_iri).join(', ') || 'none'}), so axioms they hold are not compared.`,
        }
      : {}),
  };
}

// ---------------------------------------------------------------- rendering

/** Display names and renderings over given ontologies (a side's closure), each name computed once. */
export class Renderings {
  private readonly names = new Map<IRI, string>();
  private readonly manchester: ManchesterRenderer;
  private readonly lines = new LineRenderer(() => '_:?');

  constructor(
    private readonly ontologies: readonly Ontology[],
    private readonly lang: string,
  ) {
    this.manchester = new ManchesterRenderer((e) => this.display(e));
  }

  display(e: Entity | IRI): string {
    const iri = typeof e === 'string' ? e : e.iri;
    let name = this.names.get(iri);
    if (name === undefined) this.names.set(iri, (name = displayName(iri, this.ontologies, this.lang)));
    return name;
  }

  rendering(a: Axiom): string {
    return this.manchester.axiom(a);
  }

  /** Axiom rows `{axiom_type, rendering}` ordered by rendering, then canonical functional syntax (a total order). */
  sortedRows(axioms: readonly Axiom[]): { axiom_type: string; rendering: string }[] {
    return axioms
      .map((a) => ({ axiom_type: axiomTypeName(a), rendering: this.rendering(a), line: this.lines.axiom(a) }))
      .sort((x, y) => cmp(x.rendering, y.rendering) || cmp(x.line, y.line))
      .map(({ axiom_type, rendering }) => ({ axiom_type, rendering }));
  }
}

/** The policy for module attribution and asset search; a refused or unreadable one is reported in those fields. */
export async function impactPolicy(ctx: CallContext, policyPath: string | undefined): Promise<PolicyResolution | Error> {
  try {
    return await resolvePolicy(ctx, policyPath);
  } catch (err) {
    // an explicit policy_path the caller may not read is the caller's error, not a missing analysis
    if (policyPath !== undefined || ctx.signal.aborted) throw err;
    return err as Error;
  }
}
