// The axiom operand builder shared by add_axiom, remove_axiom, preview_changes, apply_changes,
// explain_entailment and get_explanations: turns an operand set (INTERFACE.md 2.1–2.3) into an axiom,
// the entities it would introduce and the declarations a write must add with it (TOOLS.md 1.7).
// The same operand set always builds the same (interned) axiom, so an add and a remove are symmetric.

import type {
  Annotation,
  AnnotationValue,
  Axiom,
  ClassExpression,
  DataProperty,
  DataRange,
  Declaration,
  Entity,
  EntityKind,
  Individual,
  Literal,
  Node,
  ObjectProperty,
  ObjectPropertyExpression,
} from '../terms.js';
import * as t from '../terms.js';
import type { NameResolver } from '../names.js';
import { NameError } from '../names.js';
import { ParseError } from '../formats/errors.js';
import { signature } from '../walk.js';
import { RDFS_LABEL } from '../vocab.js';
import { parseClassExpression, parseDataRange } from '../formats/manchester/expression.js';
import type { EntityResolution } from '../resolver.js';
import {
  AXIOM_TYPES,
  ENTITY_TYPES,
  LIST_FIELDS,
  OPERAND_SPECS,
  STRING_FIELDS,
  type AnnotationInput,
  type AxiomType,
  type EntityTypeName,
  type ListField,
  type OperandField,
  type StringField,
} from './schema.js';
import { unreachable } from '../../util/unreachable.js';
import { DomainError } from '../../util/errors.js';

/** What the builder needs from a resolver (WorkspaceResolver provides it). */
export interface OperandResolver extends NameResolver {
  resolveEntity(token: string, kind: EntityKind): EntityResolution;
  /** True when the entity exists in the imports closure with its kind, or is built in. */
  knows(e: Entity): boolean;
  /** True when the imports closure declares the entity (built-ins count as declared). */
  isDeclared(e: Entity): boolean;
  /** The bare name a generated IRI was minted for (settings `new_entity_ids: generated`), else undefined. */
  generatedName(iri: string): string | undefined;
}

export interface BuildOptions {
  /** Refuse operands that would mint an entity (TOOLS.md 1.7). */
  readonly strict?: boolean;
  /** The caller's names for operands (`super` → `parent`): errors name the operand as the caller's client knows it. */
  readonly labels?: Readonly<Record<string, string>>;
}

/** An operand's name as errors state it. */
type Label = (operand: string) => string;
const labelling =
  (labels: Readonly<Record<string, string>> | undefined): Label =>
  (operand) =>
    labels?.[operand] ?? operand;

export interface BuiltAxiom {
  readonly axiom: Axiom;
  /** Entities the operands introduce (absent from the imports closure), in operand order. */
  readonly newEntities: readonly Entity[];
  /** Declarations a write adds with the axiom: new entities and undeclared non-built-in annotation properties. */
  readonly declarations: readonly Declaration[];
  /**
   * Labels a write also adds: a new entity minted with a generated id gets the name it was mentioned by
   * as its (untagged) rdfs:label, since its IRI no longer carries it.
   */
  readonly labels: readonly Axiom[];
}

export type OperandErrorCode = 'unknown_axiom_type' | 'invalid_argument';

/** A malformed operand set; `operand` names the offending field when there is one. */
export class OperandError extends DomainError {
  declare readonly code: OperandErrorCode;
  constructor(
    message: string,
    code: OperandErrorCode,
    readonly operand?: string,
  ) {
    super(message, code, operand === undefined ? {} : { operand });
    this.name = 'OperandError';
  }

  /** The same error said of `where`, which becomes its operand: the message names it first. */
  at(where: string): OperandError {
    return new OperandError(`${where}: ${this.message}`, this.code, where);
  }
}

const ENTITY_TYPE_KINDS: Readonly<Record<EntityTypeName, EntityKind>> = {
  class: 'Class',
  object_property: 'ObjectProperty',
  data_property: 'DataProperty',
  annotation_property: 'AnnotationProperty',
  individual: 'NamedIndividual',
  datatype: 'Datatype',
};

const ANNOTATION_FIELDS: ReadonlySet<string> = new Set(['property', 'value', 'value_iri', 'lang', 'datatype', 'annotations']);
const KNOWN_FIELDS: ReadonlySet<string> = new Set<string>([...STRING_FIELDS, ...LIST_FIELDS]);
const isListField = (f: string): f is ListField => (LIST_FIELDS as readonly string[]).includes(f);
const LANG_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Builds the axiom of an operand set; throws OperandError, NameError (ambiguity, unknown prefix). */
export function buildAxiom(input: unknown, resolver: OperandResolver, options: BuildOptions = {}): BuiltAxiom {
  return new Builder(resolver, options.strict ?? false, labelling(options.labels)).build(input);
}

/** Checks the shape of an operand set (closed object, required operands, types, list sizes). */
function checkOperands(input: unknown, label: Label): { type: AxiomType; fields: Record<string, unknown> } {
  if (!isRecord(input)) throw new OperandError('The operand set must be a JSON object', 'invalid_argument');
  const type = input.axiom_type;
  if (typeof type !== 'string' || !(AXIOM_TYPES as readonly string[]).includes(type)) {
    const what = type === undefined ? 'Missing axiom_type' : `Unknown axiom_type ${JSON.stringify(type)}`;
    throw new OperandError(`${what}; supported types: ${AXIOM_TYPES.join(', ')}`, 'unknown_axiom_type', 'axiom_type');
  }
  const axiomType = type as AxiomType;
  const spec = OPERAND_SPECS[axiomType];
  const allowed = new Set<string>([...spec.required, ...spec.optional]);
  for (const key of Object.keys(input)) {
    if (key === 'axiom_type' || key === 'annotations' || allowed.has(key)) continue;
    const takes = [...spec.required, ...spec.optional, 'annotations'].join(', ');
    const why = KNOWN_FIELDS.has(key) ? `is not an operand of ${axiomType}` : 'is not a known operand';
    throw new OperandError(`Operand '${label(key)}' ${why} (${axiomType} takes: ${takes})`, 'invalid_argument', label(key));
  }
  for (const f of spec.required) {
    if (input[f] === undefined || input[f] === null) {
      throw new OperandError(`Missing required operand '${label(f)}' for ${axiomType}`, 'invalid_argument', label(f));
    }
  }
  for (const f of allowed) checkField(axiomType, f as OperandField, input[f], spec.min[f as ListField], label(f));
  if (input.annotations !== undefined) checkAnnotations(input.annotations, 'annotations');
  return { type: axiomType, fields: input };
}

/** `name` is the operand's name as errors state it. */
function checkField(type: AxiomType, f: OperandField, value: unknown, min: number | undefined, name: string): void {
  if (value === undefined) return;
  if (isListField(f)) {
    if (!Array.isArray(value) || value.some((x) => typeof x !== 'string' || x.trim() === '')) {
      throw new OperandError(`Operand '${name}' must be an array of non-empty strings`, 'invalid_argument', name);
    }
    if (min !== undefined && value.length < min) {
      throw new OperandError(
        `Operand '${name}' of ${type} needs at least ${min} member${min === 1 ? '' : 's'} (got ${value.length})`,
        'invalid_argument',
        name,
      );
    }
    return;
  }
  if (typeof value !== 'string') throw new OperandError(`Operand '${name}' must be a string`, 'invalid_argument', name);
  // a literal may be empty; names, IRIs and tags may not
  if (f !== 'value' && value.trim() === '') throw new OperandError(`Operand '${name}' must not be empty`, 'invalid_argument', name);
  if (f === 'entity_type' && !(ENTITY_TYPES as readonly string[]).includes(value)) {
    throw new OperandError(
      `Unknown entity_type ${JSON.stringify(value)}; expected one of ${ENTITY_TYPES.join(', ')}`,
      'invalid_argument',
      name,
    );
  }
  if (f === 'lang' && !LANG_TAG.test(value))
    throw new OperandError(`Operand '${name}' is not a language tag: ${JSON.stringify(value)}`, 'invalid_argument', name);
}

function checkAnnotations(value: unknown, path: string): asserts value is AnnotationInput[] {
  if (!Array.isArray(value)) throw new OperandError(`'${path}' must be an array of annotation objects`, 'invalid_argument', path);
  value.forEach((a, i) => {
    const at = `${path}[${i}]`;
    if (!isRecord(a)) throw new OperandError(`'${at}' must be an annotation object`, 'invalid_argument', at);
    for (const [k, x] of Object.entries(a)) {
      if (!ANNOTATION_FIELDS.has(k))
        throw new OperandError(
          `'${at}.${k}' is not an annotation field (${[...ANNOTATION_FIELDS].join(', ')})`,
          'invalid_argument',
          `${at}.${k}`,
        );
      if (k === 'annotations') checkAnnotations(x, `${at}.annotations`);
      else if (typeof x !== 'string') throw new OperandError(`'${at}.${k}' must be a string`, 'invalid_argument', `${at}.${k}`);
    }
    if (a.value === undefined && a.value_iri === undefined) {
      throw new OperandError(`'${at}' needs a value or a value_iri`, 'invalid_argument', at);
    }
    if (typeof a.lang === 'string' && !LANG_TAG.test(a.lang))
      throw new OperandError(`'${at}.lang' is not a language tag`, 'invalid_argument', `${at}.lang`);
  });
}

class Builder {
  /** New entities with the operand that first mentions them. */
  private readonly minted = new Map<Entity, string>();

  constructor(
    private readonly names: OperandResolver,
    private readonly strict: boolean,
    private readonly label: Label,
  ) {}

  build(input: unknown): BuiltAxiom {
    const { type, fields } = checkOperands(input, this.label);
    const core = this.core(type, fields as Partial<Record<StringField, string>> & Partial<Record<ListField, string[]>>);
    const anns = fields.annotations === undefined ? [] : this.annotations(fields.annotations as AnnotationInput[], 'annotations');
    const axiom = anns.length === 0 ? core : t.withAnnotations(core, anns);
    const [firstMinted] = this.strict ? this.minted : [];
    if (firstMinted !== undefined) {
      const [e, operand] = firstMinted;
      const name = this.label(operand);
      throw new OperandError(
        `Operand '${name}' names no existing ${e.kind} (<${e.iri}>), and strict mode refuses to mint it`,
        'invalid_argument',
        name,
      );
    }
    return { axiom, newEntities: [...this.minted.keys()], declarations: this.declarations(axiom), labels: this.labels() };
  }

  private labels(): Axiom[] {
    const out = new Set<Axiom>();
    for (const e of this.minted.keys()) {
      const name = this.names.generatedName(e.iri);
      if (name !== undefined) out.add(t.annotationAssertion(t.annotationProperty(RDFS_LABEL), t.iriNode(e.iri), t.literal(name)));
    }
    return [...out];
  }

  private declarations(axiom: Axiom): Declaration[] {
    const out = new Set<Declaration>();
    for (const e of this.minted.keys()) out.add(t.declaration(e));
    for (const e of signature(axiom)) {
      if (e.kind === 'AnnotationProperty' && !this.names.isDeclared(e)) out.add(t.declaration(e));
    }
    out.delete(axiom as Declaration);
    return [...out];
  }

  /** Records the entities of an operand's node that the closure does not know. */
  private note<N extends Node>(operand: string, n: N): N {
    for (const e of signature(n)) if (!this.minted.has(e) && !this.names.knows(e)) this.minted.set(e, operand);
    return n;
  }

  /** Runs a resolution for an operand, naming the operand in the errors it raises. */
  private within<R>(operand: string, f: () => R): R {
    try {
      return f();
    } catch (err) {
      if (err instanceof NameError) throw err.at(this.label(operand));
      if (err instanceof ParseError)
        throw new OperandError(`${this.label(operand)}: ${err.message}`, 'invalid_argument', this.label(operand));
      throw err;
    }
  }

  private entityOf<K extends EntityKind>(operand: string, token: string, kind: K): Extract<Entity, { kind: K }> {
    return this.note(operand, this.within(operand, () => this.names.resolveEntity(token, kind).entity) as Extract<Entity, { kind: K }>);
  }

  private iri(operand: string, token: string): string {
    return this.within(operand, () => this.names.resolve(token).iri);
  }

  private cls(operand: string, text: string): ClassExpression {
    return this.note(
      operand,
      this.within(operand, () => {
        // A whole operand naming a known class (e.g. a label with spaces) needs no Manchester parse.
        const named = tryResolve(this.names, text);
        return named !== null && named.kinds.has('Class') ? t.cls(named.iri) : parseClassExpression(text, this.names);
      }),
    );
  }

  private dataRange(operand: string, text: string): DataRange {
    return this.note(
      operand,
      this.within(operand, () => {
        const named = tryResolve(this.names, text);
        return named !== null && named.kinds.has('Datatype') ? t.datatype(named.iri) : parseDataRange(text, this.names);
      }),
    );
  }

  private op(operand: string, token: string): ObjectProperty {
    return this.entityOf(operand, token, 'ObjectProperty');
  }

  private dp(operand: string, token: string): DataProperty {
    return this.entityOf(operand, token, 'DataProperty');
  }

  private ind(operand: string, token: string): Individual {
    return this.entityOf(operand, token, 'NamedIndividual');
  }

  /** datatype wins over lang, which wins over a plain literal; `at` prefixes the operand names. */
  private literal(at: string, value: string, datatypeToken?: string, lang?: string): Literal {
    if (datatypeToken !== undefined) return t.literal(value, this.entityOf(at + 'datatype', datatypeToken, 'Datatype').iri);
    return t.literal(value, undefined, lang);
  }

  /** value_iri wins over value. */
  private annotationValue(at: string, a: AnnotationInput): AnnotationValue {
    if (a.value_iri !== undefined) return t.iriNode(this.iri(at + 'value_iri', a.value_iri));
    if (a.value === undefined)
      throw new OperandError(`Missing required operand '${at}value' (or '${at}value_iri')`, 'invalid_argument', at + 'value');
    return this.literal(at, a.value, a.datatype, a.lang);
  }

  private annotations(list: readonly AnnotationInput[], path: string): Annotation[] {
    return list.map((a, i) => {
      const at = `${path}[${i}].`;
      const property = this.entityOf(at + 'property', a.property ?? RDFS_LABEL, 'AnnotationProperty');
      const nested = a.annotations === undefined ? [] : this.annotations(a.annotations, at + 'annotations');
      return t.annotation(property, this.annotationValue(at, a), nested);
    });
  }

  private core(type: AxiomType, f: Partial<Record<StringField, string>> & Partial<Record<ListField, string[]>>): Axiom {
    // checkOperands guarantees the required operands of `type` are present
    const s = (k: StringField) => f[k]!;
    const l = (k: ListField) => f[k]!;
    const classes = () => l('classes').map((c, i) => this.cls(`classes[${i}]`, c));
    const individuals = () => l('individuals').map((x, i) => this.ind(`individuals[${i}]`, x));
    const ops = () => l('properties').map((x, i) => this.op(`properties[${i}]`, x));
    const dps = () => l('properties').map((x, i) => this.dp(`properties[${i}]`, x));
    const prop = () => this.op('property', s('property'));
    switch (type) {
      case 'subclass_of':
        return t.subClassOf(this.cls('sub', s('sub')), this.cls('super', s('super')));
      case 'equivalent_classes':
        return t.equivalentClasses(classes());
      case 'disjoint_classes':
        return t.disjointClasses(classes());
      case 'disjoint_union':
        return t.disjointUnion(this.entityOf('class', s('class'), 'Class'), classes());
      case 'class_assertion':
        return t.classAssertion(this.cls('class', s('class')), this.ind('individual', s('individual')));
      case 'object_property_assertion':
        return t.objectPropertyAssertion(prop(), this.ind('subject', s('subject')), this.ind('object', s('object')));
      case 'negative_object_property_assertion':
        return t.negativeObjectPropertyAssertion(prop(), this.ind('subject', s('subject')), this.ind('object', s('object')));
      case 'data_property_assertion':
        return t.dataPropertyAssertion(
          this.dp('property', s('property')),
          this.ind('subject', s('subject')),
          this.literal('', s('value'), f.datatype, f.lang),
        );
      case 'negative_data_property_assertion':
        return t.negativeDataPropertyAssertion(
          this.dp('property', s('property')),
          this.ind('subject', s('subject')),
          this.literal('', s('value'), f.datatype, f.lang),
        );
      case 'same_individual':
        return t.sameIndividual(individuals());
      case 'different_individuals':
        return t.differentIndividuals(individuals());
      case 'sub_object_property_of':
        return t.subObjectPropertyOf(prop(), this.op('super_property', s('super_property')));
      case 'sub_data_property_of':
        return t.subDataPropertyOf(this.dp('property', s('property')), this.dp('super_property', s('super_property')));
      case 'sub_property_chain_of': {
        const chain: ObjectPropertyExpression[] = l('chain').map((x, i) => this.op(`chain[${i}]`, x));
        return t.subPropertyChainOf(chain, this.op('super_property', s('super_property')));
      }
      case 'equivalent_object_properties':
        return t.equivalentObjectProperties(ops());
      case 'disjoint_object_properties':
        return t.disjointObjectProperties(ops());
      case 'equivalent_data_properties':
        return t.equivalentDataProperties(dps());
      case 'disjoint_data_properties':
        return t.disjointDataProperties(dps());
      case 'inverse_object_properties':
        return t.inverseObjectProperties(prop(), this.op('inverse_property', s('inverse_property')));
      case 'transitive_object_property':
        return t.objectPropertyCharacteristic('TransitiveObjectProperty', prop());
      case 'functional_object_property':
        return t.objectPropertyCharacteristic('FunctionalObjectProperty', prop());
      case 'inverse_functional_object_property':
        return t.objectPropertyCharacteristic('InverseFunctionalObjectProperty', prop());
      case 'symmetric_object_property':
        return t.objectPropertyCharacteristic('SymmetricObjectProperty', prop());
      case 'asymmetric_object_property':
        return t.objectPropertyCharacteristic('AsymmetricObjectProperty', prop());
      case 'reflexive_object_property':
        return t.objectPropertyCharacteristic('ReflexiveObjectProperty', prop());
      case 'irreflexive_object_property':
        return t.objectPropertyCharacteristic('IrreflexiveObjectProperty', prop());
      case 'functional_data_property':
        return t.functionalDataProperty(this.dp('property', s('property')));
      case 'has_key':
        return this.hasKey(this.cls('class', s('class')), l('properties'));
      case 'object_property_domain':
        return t.objectPropertyDomain(prop(), this.cls('domain', s('domain')));
      case 'object_property_range':
        return t.objectPropertyRange(prop(), this.cls('range', s('range')));
      case 'data_property_domain':
        return t.dataPropertyDomain(this.dp('property', s('property')), this.cls('domain', s('domain')));
      case 'data_property_range':
        return t.dataPropertyRange(this.dp('property', s('property')), this.dataRange('range', s('range')));
      case 'annotation_assertion':
        return t.annotationAssertion(
          this.entityOf('property', f.property ?? RDFS_LABEL, 'AnnotationProperty'),
          t.iriNode(this.iri('subject', s('subject'))),
          this.annotationValue('', f),
        );
      case 'sub_annotation_property_of':
        return t.subAnnotationPropertyOf(
          this.entityOf('property', s('property'), 'AnnotationProperty'),
          this.entityOf('super_property', s('super_property'), 'AnnotationProperty'),
        );
      case 'annotation_property_domain':
        return t.annotationPropertyDomain(this.entityOf('property', s('property'), 'AnnotationProperty'), this.iri('domain', s('domain')));
      case 'annotation_property_range':
        return t.annotationPropertyRange(this.entityOf('property', s('property'), 'AnnotationProperty'), this.iri('range', s('range')));
      case 'declaration':
        return t.declaration(this.entityOf('entity', s('entity'), ENTITY_TYPE_KINDS[s('entity_type') as EntityTypeName]));
      case 'datatype_definition':
        return t.datatypeDefinition(this.entityOf('datatype', s('datatype'), 'Datatype'), this.dataRange('range', s('range')));
      default:
        return unreachable(type);
    }
  }

  /** Key properties: an object property when the closure knows one, else a known data property, else a new object property. */
  private hasKey(c: ClassExpression, tokens: readonly string[]): Axiom {
    const objectProperties: ObjectPropertyExpression[] = [];
    const dataProperties: DataProperty[] = [];
    tokens.forEach((token, i) => {
      const operand = `properties[${i}]`;
      const kinds = this.within(operand, () => this.names.resolve(token).kinds);
      if (!kinds.has('ObjectProperty') && kinds.has('DataProperty')) dataProperties.push(this.dp(operand, token));
      else objectProperties.push(this.op(operand, token));
    });
    return t.hasKey(c, objectProperties, dataProperties);
  }
}

/** Resolves a whole operand as one name, or null when it is not one (an expression); ambiguity still throws. */
function tryResolve(names: NameResolver, text: string) {
  try {
    return names.resolve(text);
  } catch (err) {
    if (err instanceof NameError && err.candidates.length > 0) throw err;
    return null;
  }
}
