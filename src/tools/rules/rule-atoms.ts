// SWRL atoms as tool JSON (TOOLS.md 3.7): the atom object a caller writes, turned into the model's atoms,
// and the model's atoms written back in the same shape, so a listed rule replays through add_rule unchanged.

import * as v from 'valibot';
import type { Atom, ClassExpression, DArg, Entity, EntityKind, IArg, Literal, Node } from '../../model/terms.js';
import { signature } from '../../model/walk.js';
import * as t from '../../model/terms.js';
import { NameError } from '../../model/names.js';
import { ParseError } from '../../model/formats/errors.js';
import { parseClassExpression, parseDataRange } from '../../model/formats/manchester/expression.js';
import type { WorkspaceResolver } from '../../model/resolver.js';
import { SWRLB, XSD_STRING } from '../../model/vocab.js';
import type { ManchesterRenderer } from '../../model/formats/manchester/render.js';
import { ToolFailure, type JsonObject } from '../core/tool.js';
import { unreachable } from '../../util/unreachable.js';

export const ATOM_TYPES = ['class', 'object_property', 'data_property', 'same_as', 'different_from', 'builtin', 'data_range'] as const;
export type AtomType = (typeof ATOM_TYPES)[number];

export interface TypedArg {
  value: string;
  datatype?: string | undefined;
  lang?: string | undefined;
}
export type ArgInput = string | TypedArg;

export interface AtomInput {
  type: AtomType;
  predicate?: string | undefined;
  predicate_iri?: string | undefined;
  arg1?: string | undefined;
  arg2?: string | undefined;
  value?: string | undefined;
  lang?: string | undefined;
  datatype?: string | undefined;
  builtin?: string | undefined;
  args?: ArgInput[] | undefined;
}

const TypedArgSchema = v.strictObject({
  value: v.string(),
  datatype: v.optional(v.string()),
  lang: v.optional(v.string()),
});

export const AtomSchema: v.GenericSchema<AtomInput> = v.strictObject({
  type: v.picklist(ATOM_TYPES),
  predicate: v.optional(v.string()),
  predicate_iri: v.optional(v.pipe(v.string(), v.description('Wins over predicate.'))),
  arg1: v.optional(v.pipe(v.string(), v.description('?var, ?<IRI> or an individual.'))),
  arg2: v.optional(v.pipe(v.string(), v.description('Or a plain literal for data_property.'))),
  value: v.optional(v.pipe(v.string(), v.description('Typed literal instead of arg2.'))),
  lang: v.optional(v.string()),
  datatype: v.optional(v.string()),
  builtin: v.optional(v.pipe(v.string(), v.description('swrlb local name, swrlb:name or IRI.'))),
  args: v.optional(v.array(v.union([v.string(), TypedArgSchema]))),
});

/** Which fields each atom type takes (beyond `type`); anything else is a malformed atom. */
const FIELDS: Readonly<Record<AtomType, readonly string[]>> = {
  class: ['predicate', 'predicate_iri', 'arg1'],
  data_range: ['predicate', 'predicate_iri', 'arg1', 'value', 'lang', 'datatype'],
  object_property: ['predicate', 'predicate_iri', 'arg1', 'arg2'],
  data_property: ['predicate', 'predicate_iri', 'arg1', 'arg2', 'value', 'lang', 'datatype'],
  same_as: ['arg1', 'arg2'],
  different_from: ['arg1', 'arg2'],
  builtin: ['builtin', 'args'],
};

const LANG_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;
const BARE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Builds atoms from atom objects, collecting the entities they introduce (TOOLS.md 1.7). */
export class AtomReader {
  readonly minted = new Set<Entity>();

  constructor(
    private readonly resolver: WorkspaceResolver,
    private readonly variableNamespace: string,
  ) {}

  atoms(list: readonly AtomInput[], path: string): Atom[] {
    return list.map((a, i) => this.atom(a, `${path}[${i}]`));
  }

  private fail(at: string, message: string): never {
    throw new ToolFailure(`${at}: ${message}`, 'invalid_argument', { operand: at });
  }

  /** Runs a name resolution, prefixing its errors with the atom path. */
  private within<R>(at: string, f: () => R): R {
    try {
      return f();
    } catch (err) {
      if (err instanceof NameError) throw err.at(at);
      if (err instanceof ParseError) this.fail(at, err.message);
      throw err;
    }
  }

  private entity<K extends EntityKind>(at: string, token: string, kind: K): Extract<Entity, { kind: K }> {
    const r = this.within(at, () => this.resolver.resolveEntity(token, kind));
    if (r.minted) this.minted.add(r.entity);
    return r.entity as Extract<Entity, { kind: K }>;
  }

  private atom(a: AtomInput, at: string): Atom {
    const allowed = FIELDS[a.type];
    for (const [k, x] of Object.entries(a)) {
      if (k !== 'type' && x !== undefined && !allowed.includes(k))
        this.fail(at, `a ${a.type} atom takes ${allowed.join(', ')}; '${k}' does not belong`);
    }
    const need = (k: 'arg1' | 'arg2'): string => a[k] ?? this.fail(at, `a ${a.type} atom needs ${k}`);
    switch (a.type) {
      case 'class':
        return t.classAtom(this.classPredicate(a, at), this.iArg(`${at}.arg1`, need('arg1')));
      case 'data_range':
        return t.dataRangeAtom(this.dataRangePredicate(a, at), this.dataValue(a, at, 'arg1'));
      case 'object_property':
        return t.objectPropertyAtom(
          this.entity(`${at}.predicate`, this.predicate(a, at), 'ObjectProperty'),
          this.iArg(`${at}.arg1`, need('arg1')),
          this.iArg(`${at}.arg2`, need('arg2')),
        );
      case 'data_property': {
        const second = this.dataValue(a, at, 'arg2');
        return t.dataPropertyAtom(
          this.entity(`${at}.predicate`, this.predicate(a, at), 'DataProperty'),
          this.iArg(`${at}.arg1`, need('arg1')),
          second,
        );
      }
      case 'same_as':
        return t.sameIndividualAtom(this.iArg(`${at}.arg1`, need('arg1')), this.iArg(`${at}.arg2`, need('arg2')));
      case 'different_from':
        return t.differentIndividualsAtom(this.iArg(`${at}.arg1`, need('arg1')), this.iArg(`${at}.arg2`, need('arg2')));
      case 'builtin': {
        if (a.builtin === undefined || a.builtin.trim() === '') this.fail(at, 'a builtin atom needs builtin');
        const args = (a.args ?? []).map((x, i) => this.builtinArg(`${at}.args[${i}]`, x));
        return t.builtInAtom(this.builtinIri(at, a.builtin), args);
      }
      default:
        return unreachable(a.type);
    }
  }

  /** The data argument of a data_property (`arg2`) or data_range (`arg1`) atom: that field, or a `value` literal. */
  private dataValue(a: AtomInput, at: string, field: 'arg1' | 'arg2'): DArg {
    const given = a[field];
    if ((given === undefined) === (a.value === undefined)) this.fail(at, `a ${a.type} atom needs exactly one of ${field} or value`);
    if (given !== undefined && (a.lang !== undefined || a.datatype !== undefined))
      this.fail(at, `lang and datatype go with value, not ${field}`);
    return given !== undefined
      ? this.dArg(`${at}.${field}`, given)
      : this.literal(at, { value: a.value!, lang: a.lang, datatype: a.datatype });
  }

  /** predicate_iri wins over predicate. */
  private predicate(a: AtomInput, at: string): string {
    const p = a.predicate_iri ?? a.predicate;
    if (p === undefined || p.trim() === '') this.fail(at, `a ${a.type} atom needs predicate or predicate_iri`);
    return p;
  }

  /** A named class, or (when the text is no single name) a Manchester class expression. */
  private classPredicate(a: AtomInput, at: string): ClassExpression {
    const text = this.predicate(a, at);
    if (a.predicate_iri !== undefined || !/[\s()]/.test(text)) return this.entity(`${at}.predicate`, text, 'Class');
    const named = this.within(`${at}.predicate`, () => tryResolve(this.resolver, text));
    if (named !== null && named.kinds.has('Class')) return t.cls(named.iri);
    const ce = this.within(`${at}.predicate`, () => parseClassExpression(text, this.resolver));
    this.noteSignature(ce);
    return ce;
  }

  private dataRangePredicate(a: AtomInput, at: string) {
    const text = this.predicate(a, at);
    const named = this.within(`${at}.predicate`, () => tryResolve(this.resolver, text));
    if (named !== null && named.kinds.has('Datatype')) return t.datatype(named.iri);
    const range = this.within(`${at}.predicate`, () => parseDataRange(text, this.resolver));
    this.noteSignature(range);
    return range;
  }

  private noteSignature(n: Node): void {
    for (const e of signature(n)) if (!this.resolver.knows(e)) this.minted.add(e);
  }

  /** `?name` → variable_namespace + name; `?<IRI>` → that IRI. */
  private variable(at: string, token: string): t.Variable {
    const rest = token.slice(1);
    if (rest.startsWith('<')) {
      if (!rest.endsWith('>') || rest.length < 3) this.fail(at, `malformed variable ${JSON.stringify(token)} (expected ?<IRI>)`);
      return t.variable(rest.slice(1, -1));
    }
    if (rest === '' || /\s/.test(rest)) this.fail(at, `malformed variable ${JSON.stringify(token)} (expected ?name or ?<IRI>)`);
    return t.variable(this.variableNamespace + rest);
  }

  private iArg(at: string, token: string): IArg {
    if (token.startsWith('?')) return this.variable(at, token);
    if (token.trim() === '') this.fail(at, 'an individual argument must not be empty');
    return this.entity(at, token, 'NamedIndividual');
  }

  private dArg(at: string, token: string): DArg {
    return token.startsWith('?') ? this.variable(at, token) : t.literal(token);
  }

  private builtinArg(at: string, x: ArgInput): DArg {
    return typeof x === 'string' ? this.dArg(at, x) : this.literal(at, x);
  }

  /** datatype wins over lang, which wins over a plain (xsd:string) literal. */
  private literal(at: string, x: TypedArg): Literal {
    if (x.datatype !== undefined) return t.literal(x.value, this.entity(`${at}.datatype`, x.datatype, 'Datatype').iri);
    if (x.lang !== undefined && !LANG_TAG.test(x.lang)) this.fail(`${at}.lang`, `not a language tag: ${JSON.stringify(x.lang)}`);
    return t.literal(x.value, undefined, x.lang);
  }

  /** A bare name or `swrlb:` name is a SWRL core built-in (the prefix map need not declare swrlb). */
  private builtinIri(at: string, token: string): string {
    if (token.startsWith('swrlb:')) return SWRLB + token.slice(6);
    if (BARE_NAME.test(token)) return SWRLB + token;
    return this.within(`${at}.builtin`, () => this.resolver.resolve(token).iri);
  }
}

function tryResolve(resolver: WorkspaceResolver, text: string) {
  try {
    return resolver.resolve(text);
  } catch (err) {
    if (err instanceof NameError && err.candidates.length > 0) throw err;
    return null;
  }
}

const variableText = (a: t.Variable): string => `?<${a.iri}>`;

/** An argument as output: variables as `?<IRI>`, individuals by IRI. */
function iArgOut(a: IArg, r: ManchesterRenderer): string {
  if (a.kind === 'Variable') return variableText(a);
  return a.kind === 'NamedIndividual' ? a.iri : r.individual(a);
}

/** A literal as builtin argument: a plain string when unambiguous, else `{value, datatype|lang}`. */
function dArgOut(a: DArg): ArgInput {
  if (a.kind === 'Variable') return variableText(a);
  if (a.lang !== '') return { value: a.lex, lang: a.lang };
  if (a.datatype !== XSD_STRING) return { value: a.lex, datatype: a.datatype };
  return a.lex.startsWith('?') ? { value: a.lex } : a.lex;
}

function literalFields(l: Literal): JsonObject {
  if (l.lang !== '') return { value: l.lex, lang: l.lang };
  return l.datatype === XSD_STRING ? { value: l.lex } : { value: l.lex, datatype: l.datatype };
}

/** The atom object of a model atom; `display` names predicates, `renderer` writes anonymous ones. */
export function atomOut(a: Atom, display: (iri: string) => string, r: ManchesterRenderer): JsonObject {
  switch (a.kind) {
    case 'ClassAtom':
      return a.cls.kind === 'Class'
        ? { type: 'class', predicate: display(a.cls.iri), predicate_iri: a.cls.iri, arg1: iArgOut(a.arg, r) }
        : { type: 'class', predicate: r.classExpression(a.cls), arg1: iArgOut(a.arg, r) };
    case 'DataRangeAtom': {
      const predicate =
        a.range.kind === 'Datatype' ? { predicate: display(a.range.iri), predicate_iri: a.range.iri } : { predicate: r.dataRange(a.range) };
      return { type: 'data_range', ...predicate, ...(a.arg.kind === 'Variable' ? { arg1: variableText(a.arg) } : literalFields(a.arg)) };
    }
    case 'ObjectPropertyAtom': {
      const p =
        a.property.kind === 'ObjectProperty'
          ? { predicate: display(a.property.iri), predicate_iri: a.property.iri }
          : { predicate: r.objectProperty(a.property) };
      return { type: 'object_property', ...p, arg1: iArgOut(a.first, r), arg2: iArgOut(a.second, r) };
    }
    case 'DataPropertyAtom':
      return {
        type: 'data_property',
        predicate: display(a.property.iri),
        predicate_iri: a.property.iri,
        arg1: iArgOut(a.first, r),
        ...(a.second.kind === 'Variable' ? { arg2: variableText(a.second) } : literalFields(a.second)),
      };
    case 'SameIndividualAtom':
      return { type: 'same_as', arg1: iArgOut(a.first, r), arg2: iArgOut(a.second, r) };
    case 'DifferentIndividualsAtom':
      return { type: 'different_from', arg1: iArgOut(a.first, r), arg2: iArgOut(a.second, r) };
    case 'BuiltInAtom':
      return { type: 'builtin', builtin: a.iri, args: a.args.map(dArgOut) };
    default:
      return unreachable(a);
  }
}

/** The variables of the atoms, sorted by IRI. */
export function variablesOf(atoms: Iterable<Atom>): string[] {
  const out = new Set<string>();
  for (const a of atoms) for (const x of atomArgs(a)) if (x.kind === 'Variable') out.add(x.iri);
  return [...out].sort();
}

/** The individual and data arguments of an atom, in order. */
export function atomArgs(a: Atom): readonly (IArg | DArg)[] {
  switch (a.kind) {
    case 'ClassAtom':
    case 'DataRangeAtom':
      return [a.arg];
    case 'BuiltInAtom':
      return a.args;
    case 'ObjectPropertyAtom':
    case 'DataPropertyAtom':
    case 'SameIndividualAtom':
    case 'DifferentIndividualsAtom':
      return [a.first, a.second];
    default:
      return unreachable(a);
  }
}
