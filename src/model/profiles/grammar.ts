// What the EL, QL and RL grammars share (OWL 2 Profiles §2–4): a grammar checks one axiom at a time; the
// leaves of an axiom's logical content (datatypes, literals, data ranges, anonymous individuals, inverse
// properties) are judged by one walk configured per profile.

import type { Axiom, AxiomKind, ClassExpression, IRI, Node } from '../terms.js';
import type { Ontology } from '../ontology.js';
import { BUILT_IN_DATATYPES, OWL, RDF, RDF_LANG_STRING, RDF_PLAIN_LITERAL, RDFS_LITERAL, XSD } from '../vocab.js';
import { isReserved } from './closure-facts.js';
import { walkLogical } from './dl.js';
import type { OwlProfile, ViolationSink } from './report.js';
import { otherKinds, ANY_NODE } from '../terms.js';

export interface ProfileGrammar {
  readonly profile: Exclude<OwlProfile, 'DL'>;
  check(a: Axiom, o: Ontology, sink: ViolationSink): void;
}

/** Declarations and annotation axioms are allowed in every profile and carry no logical content. */
export const NON_LOGICAL: ReadonlySet<AxiomKind> = new Set<AxiomKind>([
  'Declaration',
  'AnnotationAssertion',
  'SubAnnotationPropertyOf',
  'AnnotationPropertyDomain',
  'AnnotationPropertyRange',
]);

/** The datatypes OWL 2 EL and OWL 2 QL support (Profiles §2.2.1, §3.2.1). */
export const EL_QL_DATATYPES: ReadonlySet<IRI> = new Set([
  RDF_PLAIN_LITERAL,
  RDF + 'XMLLiteral',
  RDFS_LITERAL,
  OWL + 'real',
  OWL + 'rational',
  ...[
    'decimal',
    'integer',
    'nonNegativeInteger',
    'string',
    'normalizedString',
    'token',
    'Name',
    'NCName',
    'NMTOKEN',
    'hexBinary',
    'base64Binary',
    'anyURI',
    'dateTime',
    'dateTimeStamp',
  ].map((n) => XSD + n),
]);

/** OWL 2 RL supports the whole datatype map except owl:real and owl:rational (Profiles §4.2.1). */
export const RL_DATATYPES: ReadonlySet<IRI> = new Set([...BUILT_IN_DATATYPES].filter((d) => d !== OWL + 'real' && d !== OWL + 'rational'));

/**
 * Whether a datatype may be used. Language-tagged literals are rdf:PlainLiteral values in OWL 2 (the model
 * types them rdf:langString); datatypes outside the reserved vocabulary are the ontology's own (declared or
 * defined) and the profiles restrict only which datatypes of the datatype map they support.
 */
export function datatypeAllowed(iri: IRI, allowed: ReadonlySet<IRI>): boolean {
  if (iri === RDF_LANG_STRING) return allowed.has(RDF_PLAIN_LITERAL);
  return !isReserved(iri) || allowed.has(iri);
}

export interface LeafRules {
  readonly profile: Exclude<OwlProfile, 'DL'>;
  readonly datatypes: ReadonlySet<IRI>;
  readonly anonymousIndividuals: boolean;
  readonly inverseProperties: boolean;
  /** A violation kind for a data range node the profile does not allow, else null. */
  readonly dataRange: (n: Node) => string | null;
  /** A violation kind for a class expression node the profile forbids wherever it occurs, else null (EL). */
  readonly classExpression?: (n: Node) => string | null;
}

const DATA_RANGE_KINDS = new Set(['DataIntersectionOf', 'DataUnionOf', 'DataComplementOf', 'DataOneOf', 'DatatypeRestriction']);

/** Judges the leaves and data ranges of an axiom's logical content against one profile. */
export function checkLeaves(a: Axiom, o: Ontology, sink: ViolationSink, rules: LeafRules): void {
  const p = rules.profile;
  walkLogical(a, (n) => {
    switch (n.kind) {
      case 'Datatype':
        if (!datatypeAllowed(n.iri, rules.datatypes))
          sink.add(o, 'illegal_datatype', `Datatype <${n.iri}> is not supported in OWL 2 ${p}.`, a, n.iri);
        return;
      case 'Literal':
        if (!datatypeAllowed(n.datatype, rules.datatypes)) {
          sink.add(o, 'illegal_datatype', `Literal ${sink.expr(n)} has a datatype not supported in OWL 2 ${p}.`, a, n.datatype);
        }
        return;
      case 'AnonymousIndividual':
        if (!rules.anonymousIndividuals)
          sink.add(o, 'anonymous_individual', `Anonymous individual ${sink.expr(n)} is not allowed in OWL 2 ${p}.`, a);
        return;
      case 'ObjectInverseOf':
        if (!rules.inverseProperties)
          sink.add(o, 'object_property_inverse', `Inverse property ${sink.expr(n)} is not allowed in OWL 2 ${p}.`, a);
        return;
      default:
        otherKinds(n, ANY_NODE);
    }
    if (DATA_RANGE_KINDS.has(n.kind)) {
      const kind = rules.dataRange(n);
      if (kind !== null) sink.add(o, kind, `Data range ${sink.expr(n)} is not allowed in OWL 2 ${p}.`, a);
      return;
    }
    const kind = rules.classExpression?.(n) ?? null;
    if (kind !== null) sink.add(o, kind, `Class expression ${sink.expr(n)} is not allowed in OWL 2 ${p}.`, a);
  });
}

/** QL and RL data ranges: datatypes (judged as leaves) and their intersections (Profiles §3.2.4, §4.2.4). */
export const intersectionsOnly = (n: Node): string | null => (n.kind === 'DataIntersectionOf' ? null : 'illegal_data_range');

/** The class expression positions a profile grammar distinguishes, with the violation kind of each. */
const POSITION_KINDS = {
  'sub-class': 'non_subclass_expression',
  'super-class': 'non_superclass_expression',
  'equivalent-class': 'non_equivalent_class_expression',
} as const;

/** A check of the class expressions of axiom `a` in one position: each that `fits` rejects is a violation. */
export function positionCheck(
  profile: Exclude<OwlProfile, 'DL'>,
  position: keyof typeof POSITION_KINDS,
  fits: (c: ClassExpression) => boolean,
  a: Axiom,
  o: Ontology,
  sink: ViolationSink,
): (c: ClassExpression) => void {
  return (c) => {
    if (!fits(c)) sink.add(o, POSITION_KINDS[position], `${sink.expr(c)} is not an OWL 2 ${profile} ${position} expression.`, a);
  };
}

export function illegalAxiom(a: Axiom, o: Ontology, sink: ViolationSink, profile: string): void {
  const name = a.kind === 'SubPropertyChainOf' ? 'Property chain' : a.kind;
  sink.add(o, 'illegal_axiom', `${name} axioms are not allowed in OWL 2 ${profile}.`, a);
}
