// The name resolver of a workspace: turns the name tokens of tool arguments and Manchester expressions into
// IRIs over the active ontology and its imports closure, and tells which names would mint a new entity.
//
// Accepted tokens: `<IRI>`, an absolute IRI, a CURIE of the active ontology's prefix map (or a standard or
// well-known prefix such as skos: or obo:), or a display name: an exact rdfs:label (any language) or the local name of an unlabelled IRI
// (whose display name it is, TOOLS.md 1.4), then any IRI local name, each first case-sensitively and then
// case-insensitively. A name shared by several IRIs, own or imported, is ambiguous (NameError listing
// them). A bare name matching nothing resolves to the IRI it would mint.
//
// The lookup tables are built once per workspace revision and kept current incrementally for axiom edits,
// so resolving stays cheap while an agent edits a large ontology.
//
// Minted IRIs (TOOLS.md 1.7): a bare name becomes `<namespace><name>`, or, with `newEntityIds: 'generated'`,
// `<namespace>id-<random UUID>` (e.g. `…#id-3b0c…-…`), unique without consulting the closure. The name is then
// kept only as the entity's label, which the write adds (see operands/builder.ts), so every mention of the
// same name within one tool call (`inCall`) must reach the same generated IRI.

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

import type { Axiom, Entity, EntityKind, IRI } from './terms.js';
import { declaration, entity as makeEntity } from './terms.js';
import type { Ontology } from './ontology.js';
import type { NameResolver, ResolvedName } from './names.js';
import { NameError } from './names.js';
import type { Workspace, ChangeEvent } from './workspace.js';
import { signature } from './walk.js';
import { localName } from './display.js';
import {
  RDFS_LABEL,
  STANDARD_PREFIXES,
  WELL_KNOWN_PREFIXES,
  BUILT_IN_DATATYPES,
  BUILT_IN_ANNOTATION_PROPERTIES,
  OWL_THING,
  OWL_NOTHING,
  OWL_TOP_OBJECT_PROPERTY,
  OWL_BOTTOM_OBJECT_PROPERTY,
  OWL_TOP_DATA_PROPERTY,
  OWL_BOTTOM_DATA_PROPERTY,
} from './vocab.js';

export interface ResolverOptions {
  /** Namespace of minted entities; default: the active ontology IRI + '#' (settings `new_entity_namespace`). */
  readonly newEntityNamespace?: string | undefined;
  /** How a bare name becomes a minted local part (settings `new_entity_ids`); default `name`. */
  readonly newEntityIds?: 'name' | 'generated' | undefined;
}

/** The generated IRIs one tool call minted, by namespace + name, and the name of each. */
interface MintScope {
  readonly iris: Map<string, IRI>;
  readonly names: Map<IRI, string>;
}

/** The local part of a generated IRI: a letter first, so it also reads as a CURIE local name. */
export function generatedLocalName(): string {
  return 'id-' + randomUUID();
}

export interface EntityResolution {
  readonly entity: Entity;
  /** True when no entity of this kind exists in the imports closure, so using it introduces one. */
  readonly minted: boolean;
}

const NO_KINDS: ReadonlySet<EntityKind> = new Set();

const BUILT_IN_KINDS = new Map<IRI, ReadonlySet<EntityKind>>([
  [OWL_THING, new Set(['Class'])],
  [OWL_NOTHING, new Set(['Class'])],
  [OWL_TOP_OBJECT_PROPERTY, new Set(['ObjectProperty'])],
  [OWL_BOTTOM_OBJECT_PROPERTY, new Set(['ObjectProperty'])],
  [OWL_TOP_DATA_PROPERTY, new Set(['DataProperty'])],
  [OWL_BOTTOM_DATA_PROPERTY, new Set(['DataProperty'])],
  ...[...BUILT_IN_DATATYPES].map((iri) => [iri, new Set<EntityKind>(['Datatype'])] as const),
  ...[...BUILT_IN_ANNOTATION_PROPERTIES].map((iri) => [iri, new Set<EntityKind>(['AnnotationProperty'])] as const),
]);

/** True for an entity of the OWL 2 vocabulary, which exists without being declared. */
export function isBuiltIn(e: Entity): boolean {
  return BUILT_IN_KINDS.get(e.iri)?.has(e.kind) ?? false;
}

/** Multimap key → IRI with counts, so removing one of two identical labels keeps the other. */
class CountingIndex {
  private readonly map = new Map<string, Map<IRI, number>>();

  add(key: string, iri: IRI): void {
    let m = this.map.get(key);
    if (m === undefined) this.map.set(key, (m = new Map()));
    m.set(iri, (m.get(iri) ?? 0) + 1);
  }

  remove(key: string, iri: IRI): void {
    const m = this.map.get(key);
    const n = m?.get(iri);
    if (m === undefined || n === undefined) return;
    if (n > 1) m.set(iri, n - 1);
    else if (m.delete(iri) && m.size === 0) this.map.delete(key);
  }

  get(key: string): IRI[] {
    const m = this.map.get(key);
    return m === undefined ? [] : [...m.keys()];
  }
}

/** The IRIs a display name names: the labelled ones, then the local names of unlabelled IRIs, each once. */
function displays(t: ClosureIndex, labelled: IRI[], locals: IRI[]): IRI[] {
  const unlabelled = locals.filter((iri) => !t.isLabelled(iri));
  return unlabelled.length === 0 ? labelled : [...new Set([...labelled, ...unlabelled])];
}

/** The one IRI found; null when none was; an ambiguous name is refused with its sorted candidates. */
function onlyOne(name: string, found: IRI[]): IRI | null {
  const [only] = found;
  if (only === undefined) return null;
  if (found.length === 1) return only;
  const candidates = found.sort();
  throw new NameError(`Ambiguous name '${name}': ${candidates.map((c) => '<' + c + '>').join(', ')}`, candidates);
}

/** Lookup tables over one imports closure. */
class ClosureIndex {
  /** Entity kinds per IRI in the signature of the closure. */
  readonly kinds = new Map<IRI, Set<EntityKind>>();
  readonly labels = new CountingIndex();
  readonly labelsLower = new CountingIndex();
  readonly locals = new CountingIndex();
  readonly localsLower = new CountingIndex();
  /** How many rdfs:label assertions each IRI has in the closure. */
  private readonly labelCount = new Map<IRI, number>();

  constructor(readonly closure: readonly Ontology[]) {
    for (const o of closure) {
      for (const key of o.index.referencing.keys()) if (key.kind !== 'AnonymousIndividual') this.entityAdded(key);
      for (const a of o.axiomsOfKind('AnnotationAssertion')) this.annotationChanged(a, true);
    }
  }

  /** Keeps the tables current after an axiom was added to or removed from a closure member. */
  axiomChanged(a: Axiom, added: boolean): void {
    if (a.kind === 'AnnotationAssertion') this.annotationChanged(a, added);
    for (const e of signature(a)) {
      const referenced = this.closure.some((o) => o.index.referencing.has(e));
      const known = this.kinds.get(e.iri)?.has(e.kind) ?? false;
      if (referenced && !known) this.entityAdded(e);
      else if (!referenced && known) this.entityRemoved(e);
    }
  }

  private entityAdded(e: Entity): void {
    let m = this.kinds.get(e.iri);
    if (m === undefined) {
      this.kinds.set(e.iri, (m = new Set()));
      const local = localName(e.iri);
      this.locals.add(local, e.iri);
      this.localsLower.add(local.toLowerCase(), e.iri);
    }
    m.add(e.kind);
  }

  private entityRemoved(e: Entity): void {
    const m = this.kinds.get(e.iri);
    if (m === undefined) return;
    m.delete(e.kind);
    if (m.size > 0) return;
    this.kinds.delete(e.iri);
    const local = localName(e.iri);
    this.locals.remove(local, e.iri);
    this.localsLower.remove(local.toLowerCase(), e.iri);
  }

  /** True when the IRI has an rdfs:label, so its display name is a label, not its short form. */
  isLabelled(iri: IRI): boolean {
    return this.labelCount.has(iri);
  }

  private annotationChanged(a: Extract<Axiom, { kind: 'AnnotationAssertion' }>, added: boolean): void {
    if (a.property.iri !== RDFS_LABEL || a.subject.kind !== 'IRI' || a.value.kind !== 'Literal') return;
    const lex = a.value.lex;
    const iri = a.subject.iri;
    const n = (this.labelCount.get(iri) ?? 0) + (added ? 1 : -1);
    if (n > 0) this.labelCount.set(iri, n);
    else this.labelCount.delete(iri);
    if (added) {
      this.labels.add(lex, iri);
      this.labelsLower.add(lex.toLowerCase(), iri);
    } else {
      this.labels.remove(lex, iri);
      this.labelsLower.remove(lex.toLowerCase(), iri);
    }
  }
}

/** URI schemes read as absolute IRIs even though they look like a `prefix:local` CURIE. */
const IRI_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'urn', 'file', 'ftp', 'mailto', 'tag', 'data', 'info', 'doi']);

function isScheme(s: string): boolean {
  if (s === '' || !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(s)) return false;
  return IRI_SCHEMES.has(s.toLowerCase());
}

/** Characters that cannot appear in an IRI (RFC 3987): no minting from a name containing them. */
function isIriSafe(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (
      c <= 0x20 ||
      c === 0x3c ||
      c === 0x3e ||
      c === 0x22 ||
      c === 0x7b ||
      c === 0x7d ||
      c === 0x7c ||
      c === 0x5e ||
      c === 0x60 ||
      c === 0x5c
    )
      return false;
  }
  return true;
}

export class WorkspaceResolver implements NameResolver {
  private index: ClosureIndex | null = null;
  private indexRevision = -1;
  private readonly unsubscribe: () => void;
  private readonly mintScope = new AsyncLocalStorage<MintScope>();

  constructor(
    private readonly workspace: Workspace,
    private readonly options: ResolverOptions = {},
  ) {
    this.unsubscribe = workspace.onChange((e) => this.onChange(e));
  }

  /** Stops following the workspace's changes. */
  dispose(): void {
    this.unsubscribe();
    this.index = null;
  }

  /** The active ontology followed by its loaded imports. */
  get closure(): readonly Ontology[] {
    return this.tables().closure;
  }

  resolve(token: string): ResolvedName {
    const iri = this.resolveIri(token);
    return { iri, kinds: this.kindsOf(iri) };
  }

  /** The entity kinds `iri` has in the imports closure (built-in vocabulary included). */
  kindsOf(iri: IRI): ReadonlySet<EntityKind> {
    const m = this.tables().kinds.get(iri);
    if (m !== undefined) return new Set(m);
    return BUILT_IN_KINDS.get(iri) ?? NO_KINDS;
  }

  /** True when the entity exists in the imports closure with its kind, or is built in. */
  knows(e: Entity): boolean {
    return (this.tables().kinds.get(e.iri)?.has(e.kind) ?? false) || isBuiltIn(e);
  }

  /** True when some member of the imports closure declares the entity (built-ins need no declaration). */
  isDeclared(e: Entity): boolean {
    if (isBuiltIn(e)) return true;
    const plain = declaration(e);
    for (const o of this.tables().closure) {
      if (o.has(plain)) return true;
      for (const a of o.index.referencing.get(e) ?? []) if (a.kind === 'Declaration' && a.entity === e) return true;
    }
    return false;
  }

  /**
   * Resolves a token as an entity of `kind`. `minted` is true when the closure has no such entity;
   * with `strict` that is a NameError instead.
   */
  resolveEntity(token: string, kind: EntityKind, opts: { strict?: boolean } = {}): EntityResolution {
    const e = makeEntity(kind, this.resolveIri(token));
    const minted = !this.knows(e);
    if (minted && opts.strict) throw new NameError(`Unknown ${kind} '${token}' (strict: not minting <${e.iri}>)`);
    return { entity: e, minted };
  }

  /** True when resolving the token as `kind` would introduce a new entity. */
  wouldMint(token: string, kind: EntityKind): boolean {
    return this.resolveEntity(token, kind).minted;
  }

  /** The namespace bare names are minted in. */
  newEntityNamespace(): string {
    if (this.options.newEntityNamespace !== undefined) return this.options.newEntityNamespace;
    const iri = this.workspace.active.id.iri;
    if (iri === null) {
      const ns = this.workspace.active.prefixes.get(':');
      if (ns !== undefined) return ns;
      throw new NameError('The active ontology is anonymous and has no default prefix: give new entities a full IRI');
    }
    return iri.endsWith('#') || iri.endsWith('/') ? iri : iri + '#';
  }

  /** True when bare names mint generated ids labelled with the name (settings `new_entity_ids: generated`). */
  get generatesIds(): boolean {
    return this.options.newEntityIds === 'generated';
  }

  /**
   * Runs one tool call. With generated ids, every mention of a bare name inside `f` (across awaits too)
   * mints the same IRI, and `generatedName` knows the names; outside a call each mention mints anew.
   */
  inCall<T>(f: () => T): T {
    return this.generatesIds ? this.mintScope.run({ iris: new Map(), names: new Map() }, f) : f();
  }

  /** The IRI a bare name mints: the new-entity namespace followed by the name or by a generated id. */
  mintIri(name: string): IRI {
    const namespace = this.newEntityNamespace();
    if (!this.generatesIds) return namespace + name;
    const scope = this.mintScope.getStore();
    const key = namespace + name;
    let iri = scope?.iris.get(key);
    if (iri === undefined) {
      iri = namespace + generatedLocalName();
      scope?.iris.set(key, iri);
      scope?.names.set(iri, name);
    }
    return iri;
  }

  /** The bare name a generated IRI was minted for in the current tool call; undefined for any other IRI. */
  generatedName(iri: IRI): string | undefined {
    return this.generatesIds ? this.mintScope.getStore()?.names.get(iri) : undefined;
  }

  /**
   * The IRI a token spells in IRI form (`<IRI>`, an absolute IRI, a CURIE of a known prefix), looked up
   * nowhere; null for a name, an unknown prefix or an empty `<>`.
   */
  asIri(raw: string): IRI | null {
    const iri = this.iriForm(raw.trim());
    return iri === '' ? null : iri;
  }

  /** As asIri, but '' for an empty `<>`. */
  private iriForm(token: string): IRI | null {
    if (token.startsWith('<') && token.endsWith('>')) return token.slice(1, -1).trim();
    const colon = token.indexOf(':');
    if (colon < 0) return null;
    const ns = this.namespaceOf(token.slice(0, colon + 1));
    if (ns !== undefined) return ns + token.slice(colon + 1);
    return isScheme(token.slice(0, colon)) && isIriSafe(token) ? token : null;
  }

  private resolveIri(raw: string): IRI {
    let token = raw.trim();
    // Manchester quotes names that are not plain tokens: 'has topping'
    if (token.length >= 2 && token.startsWith("'") && token.endsWith("'")) token = token.slice(1, -1).trim();
    if (token === '') throw new NameError('Empty name');
    const iri = this.iriForm(token);
    if (iri === '') throw new NameError('Empty IRI <>');
    if (iri !== null) return iri;
    const named = this.byDisplayName(token);
    if (named !== null) return named;
    const colon = token.indexOf(':');
    if (colon >= 0) throw new NameError(`Unknown prefix '${token.slice(0, colon + 1)}' in '${token}'`);
    if (!isIriSafe(token)) throw new NameError(`Unknown name '${token}'`);
    return this.mintIri(token);
  }

  private namespaceOf(prefix: string): string | undefined {
    const ns = this.workspace.active.prefixes.get(prefix);
    if (ns !== undefined) return ns;
    for (const [p, standard] of STANDARD_PREFIXES) if (p === prefix) return standard;
    const name = prefix.slice(0, -1);
    return Object.hasOwn(WELL_KNOWN_PREFIXES, name) ? WELL_KNOWN_PREFIXES[name] : undefined;
  }

  /**
   * Display names (labels, and the local names of unlabelled IRIs), then any local name; case-sensitive
   * before case-insensitive; null when nothing matches.
   */
  private byDisplayName(name: string): IRI | null {
    const t = this.tables();
    // a stage is looked up only when the ones before it found nothing: most names are found by the first
    const exact = onlyOne(name, displays(t, t.labels.get(name), t.locals.get(name))) ?? onlyOne(name, t.locals.get(name));
    if (exact !== null) return exact;
    const lower = name.toLowerCase();
    return onlyOne(name, displays(t, t.labelsLower.get(lower), t.localsLower.get(lower))) ?? onlyOne(name, t.localsLower.get(lower));
  }

  private tables(): ClosureIndex {
    if (this.index === null || this.indexRevision !== this.workspace.revision) {
      this.index = new ClosureIndex(this.workspace.importsClosure(this.workspace.active));
      this.indexRevision = this.workspace.revision;
    }
    return this.index;
  }

  /** Follows axiom edits incrementally; anything else (imports, ids, missed revisions) forces a rebuild. */
  private onChange(event: ChangeEvent): void {
    const index = this.index;
    if (index === null) return;
    const incremental =
      this.indexRevision === event.revision - 1 &&
      event.changes.every(
        (r) =>
          !r.effective ||
          r.change.kind === 'AddAxiom' ||
          r.change.kind === 'RemoveAxiom' ||
          r.change.kind === 'AddOntologyAnnotation' ||
          r.change.kind === 'RemoveOntologyAnnotation' ||
          r.change.kind === 'SetPrefix' ||
          r.change.kind === 'RemovePrefix',
      );
    if (!incremental) {
      this.index = null;
      return;
    }
    for (const r of event.changes) {
      const c = r.change;
      if (!r.effective || (c.kind !== 'AddAxiom' && c.kind !== 'RemoveAxiom') || !index.closure.includes(c.ontology)) continue;
      index.axiomChanged(c.axiom, c.kind === 'AddAxiom');
    }
    this.indexRevision = event.revision;
  }
}
