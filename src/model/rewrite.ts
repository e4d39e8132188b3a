// Rewriting one IRI to another inside model nodes: every entity of that IRI (all punned kinds), IRIs used as
// annotation subjects or values (nested annotations included), annotation-property domains and ranges, and
// the datatype of literals. Rule variables, built-in atom IRIs and facets are not entities and stay as they are.
// Nodes are interned, so a rewritten node equal to an existing one is that node (a rename onto an existing IRI
// merges the two entities).

import * as t from './terms.js';
import { ANY_NODE, otherKinds, type Axiom, type IRI, type Node } from './terms.js';
import type { Ontology } from './ontology.js';
import { forEachChild } from './walk.js';

/** True when the node mentions `iri` anywhere a rename rewrites it. */
export function mentionsIri(n: Node, iri: IRI): boolean {
  switch (n.kind) {
    case 'Class':
    case 'ObjectProperty':
    case 'DataProperty':
    case 'AnnotationProperty':
    case 'NamedIndividual':
    case 'Datatype':
    case 'IRI':
      return n.iri === iri;
    case 'Literal':
      return n.datatype === iri;
    case 'AnnotationPropertyDomain':
      if (n.domain === iri) return true;
      break;
    case 'AnnotationPropertyRange':
      if (n.range === iri) return true;
      break;
    default:
      otherKinds(n, ANY_NODE);
  }
  let found = false;
  forEachChild(n, (c) => {
    if (!found && mentionsIri(c, iri)) found = true;
  });
  return found;
}

/**
 * The axioms of an ontology that mention `iri`. The reference index answers for entities; an IRI can
 * otherwise hide only in annotation assertions, annotation-property axioms and axiom annotations.
 */
export function axiomsMentioning(o: Ontology, iri: IRI): Axiom[] {
  const referencing = new Set<Axiom>();
  for (const kind of t.ENTITY_KINDS) for (const a of o.index.referencing.get(t.entity(kind, iri)) ?? []) referencing.add(a);
  const out: Axiom[] = [];
  for (const a of o.axioms()) {
    if (referencing.has(a)) out.push(a);
    else if (mayHideIri(a) && mentionsIri(a, iri)) out.push(a);
  }
  return out;
}

function mayHideIri(a: Axiom): boolean {
  return (
    a.annotations.length > 0 ||
    a.kind === 'AnnotationAssertion' ||
    a.kind === 'AnnotationPropertyDomain' ||
    a.kind === 'AnnotationPropertyRange'
  );
}

/** The node with every mention of `from` replaced by `to`; the node itself when it does not mention `from`. */
export function renameIri<N extends Node>(n: N, from: IRI, to: IRI): N {
  return new IriRenamer(from, to).node(n);
}

/** One rename, memoized per node (shared subexpressions are rewritten once). */
class IriRenamer {
  private readonly memo = new Map<Node, Node>();

  constructor(
    private readonly from: IRI,
    private readonly to: IRI,
  ) {}

  node<N extends Node>(n: N): N {
    let out = this.memo.get(n);
    if (out === undefined) {
      out = mentionsIri(n, this.from) ? this.rebuild(n) : n;
      this.memo.set(n, out);
    }
    return out as N;
  }

  private list<N extends Node>(ns: readonly N[]): N[] {
    return ns.map((x) => this.node(x));
  }

  private iri(iri: IRI): IRI {
    return iri === this.from ? this.to : iri;
  }

  private rebuild(n: Node): Node {
    switch (n.kind) {
      case 'Class':
      case 'ObjectProperty':
      case 'DataProperty':
      case 'AnnotationProperty':
      case 'NamedIndividual':
      case 'Datatype':
        return t.entity(n.kind, this.iri(n.iri));
      case 'IRI':
        return t.iriNode(this.iri(n.iri));
      case 'Literal':
        return t.literal(n.lex, n.lang === '' ? this.iri(n.datatype) : undefined, n.lang === '' ? undefined : n.lang);
      case 'AnnotationPropertyDomain':
        return t.annotationPropertyDomain(this.node(n.property), this.iri(n.domain), this.list(n.annotations));
      case 'AnnotationPropertyRange':
        return t.annotationPropertyRange(this.node(n.property), this.iri(n.range), this.list(n.annotations));
      default:
        // Every other IRI sits in an entity, an IRI node or a literal: rebuild from the renamed children.
        return t.mapChildren(n, (c) => this.node(c));
    }
  }
}
