// How tools appear in `tools/list`: a title and MCP annotations derived from each declaration's flags, and
// the JSON Schema derived from its valibot input, compacted so a whole list stays affordable to an agent.

import { toJsonSchema } from '@valibot/to-json-schema';
import { readOnlyTool, type JsonObject, type ToolDefinition } from './tool.js';
import type { ListedTool, ToolAnnotations } from '../../window/tool-host.js';

/** Name words written as their acronym in a title. */
const ACRONYMS: Readonly<Record<string, string>> = { sparql: 'SPARQL', dl: 'DL', qc: 'QC', shacl: 'SHACL', sssom: 'SSSOM', id: 'ID' };

/** `run_qc_suite` → `Run QC suite`. */
export function toolTitle(name: string): string {
  const words = name.split('_').map((w) => ACRONYMS[w] ?? w);
  return words.map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}

/**
 * The MCP hints of a tool. The destructive and idempotent hints mean something only for a tool that may
 * write, so a read-only tool carries neither. A hint is listed only where MCP's default (not read-only,
 * destructive, not idempotent, open-world) would misstate the tool: every list pays for each one listed.
 */
export function toolAnnotations(def: ToolDefinition): ToolAnnotations {
  const openWorldHint = def.openWorld === true || def.capabilities.includes('network:access');
  if (readOnlyTool(def)) return { readOnlyHint: true, openWorldHint };
  return {
    ...(def.destructive === true ? {} : { destructiveHint: false }),
    ...(def.idempotent === true ? { idempotentHint: true } : {}),
    openWorldHint,
  };
}

/** The full JSON Schema of a tool's arguments, as derived from its valibot input (or its listed override). */
export function inputJsonSchema(def: ToolDefinition): JsonObject {
  const schema = def.listedSchema ?? (toJsonSchema(def.input, { errorMode: 'ignore' }) as JsonObject);
  const { $schema: _dialect, ...rest } = schema;
  return { ...rest, type: 'object' };
}

/**
 * The outputSchema of a tool that declares its result shape: the top-level fields every success has, as
 * `required`. Types, nested shapes and optional fields stay in the declaration (which types the handler's
 * result): an optional field's name alone promises nothing a client could rely on, and every list pays
 * for it. A failure is delivered as structuredContent too (`{error, error_code?, …}`) and the SDK's client
 * validates that as well, so the required fields are required of a success only: either they are all
 * there, or `error` is.
 */
export function outputJsonSchema(def: ToolDefinition): JsonObject | undefined {
  if (def.output === undefined) return undefined;
  const always = requiredFields(def.output as Valibot);
  return { type: 'object', ...(always.length === 0 ? {} : { anyOf: [{ required: always }, { required: ['error'] }] }) };
}

/** What the output derivation reads of a valibot schema. */
interface Valibot {
  readonly type: string;
  readonly entries?: Readonly<Record<string, { readonly type: string }>>;
  readonly options?: readonly Valibot[];
}

const OPTIONAL_KINDS = new Set(['optional', 'exact_optional', 'undefinedable']);

/** The top-level fields of a result schema (an object, or a union of objects: one per mode) that every shape requires. */
function requiredFields(schema: Valibot): string[] {
  const shapes = schema.type === 'union' || schema.type === 'variant' ? (schema.options ?? []) : [schema];
  const counts = new Map<string, number>();
  for (const shape of shapes) {
    for (const [name, field] of Object.entries(shape.entries ?? {}))
      if (!OPTIONAL_KINDS.has(field.type)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n === shapes.length).map(([name]) => name);
}

/** Schema keywords whose value maps argument names to schemas, not a schema itself. */
const NAME_MAPS = new Set(['properties', '$defs']);
/** Schema keywords whose value is a schema, or a list of schemas. */
const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', 'not']);
/**
 * Shortest shared subschema (in bytes, descriptions left out) that is listed once and referred to elsewhere:
 * below it a reference costs about as much as the schema it replaces.
 */
const SHARED_MIN_BYTES = 120;
/** How a listed schema refers to a subschema listed in full elsewhere in the same list. */
const SAME_SCHEMA = 'As ';

/**
 * Patterns an agent needs no telling: language tags (two spellings of one rule) and sha256 digests, which
 * it copies from an earlier result.
 */
const UNLISTED_PATTERNS = new Set([
  '^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$',
  '^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$',
  '^sha256:[0-9a-f]{64}$',
]);

/**
 * Largest string, list or number limit worth listing: beyond it the limit guards the server (a timeout of an
 * hour, ten thousand rows), and no agent's argument meets it.
 */
const LISTED_MAX = 1000;

/** `{}`: a schema every value meets. */
const isEmptySchema = (value: unknown): boolean => value !== null && typeof value === 'object' && Object.keys(value).length === 0;

/**
 * A schema without what tells an agent nothing: an empty `required`, a `type: string` beside an enum of
 * strings, a `minLength: 1`, a count's `minimum: 0`, limits no real argument reaches, well-known patterns,
 * a flag's `default: false`, `type: string` of property names (JSON's keys are strings), an
 * `additionalProperties: {}` (any value, as without it) and the closing `additionalProperties: false` of
 * every object (the server instructions say once that an unknown argument is refused). The server still
 * validates them all.
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => tidy(n));
  if (node === null || typeof node !== 'object') return node;
  const source = node as JsonObject;
  const stringEnum = Array.isArray(source.enum) && source.enum.every((e) => typeof e === 'string');
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'required' && Array.isArray(value) && value.length === 0) continue;
    if (key === 'type' && value === 'string' && stringEnum) continue;
    if (key === 'minLength' && value === 1) continue;
    if ((key === 'maxLength' || key === 'maxItems' || key === 'maximum') && typeof value === 'number' && value > LISTED_MAX) continue;
    if (key === 'minimum' && value === 0 && source.type === 'integer') continue;
    if (key === 'pattern' && typeof value === 'string' && UNLISTED_PATTERNS.has(value)) continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'default' && value === false && source.type === 'boolean') continue;
    if (key === 'additionalProperties' && isEmptySchema(value)) continue;
    if (key === 'propertyNames') {
      const { type, ...rest } = tidy(value) as JsonObject;
      if (type !== 'string') rest.type = type;
      if (!isEmptySchema(rest)) out[key] = rest;
      continue;
    }
    if (key === 'enum' || key === 'default' || key === 'const') out[key] = value;
    else if (NAME_MAPS.has(key)) out[key] = Object.fromEntries(Object.entries(value as JsonObject).map(([name, sub]) => [name, tidy(sub)]));
    else out[key] = tidy(value);
  }
  return out;
}

/**
 * The shape of a subschema: what it accepts, whatever its descriptions say. A local `$ref` stands for the
 * shape of the definition it names (`defs`: those of the subschema's tool), as another tool's `#/$defs/0`
 * may be something else.
 */
function shapeKey(node: unknown, defs: ReadonlyMap<string, string>): string {
  return JSON.stringify(node, (key, value: unknown) => {
    if (key === 'description' && typeof value === 'string') return undefined;
    if (key === '$ref' && typeof value === 'string' && value.startsWith(LOCAL_DEF)) return defs.get(value.slice(LOCAL_DEF.length)) ?? value;
    return value;
  });
}

const LOCAL_DEF = '#/$defs/';

/** The shape of each of a schema's `$defs`, by name (local references inside them left as written). */
function definitionShapes(schema: JsonObject): Map<string, string> {
  const none = new Map<string, string>();
  return new Map(Object.entries((schema.$defs ?? {}) as JsonObject).map(([name, def]) => [name, `$defs:${shapeKey(def, none)}`]));
}

/**
 * A schema whose subschemas written out beside an identical `$defs` entry refer to that entry instead:
 * valibot writes a recursive shape's first level in full and only its deeper levels as `$ref`s. The entry
 * takes the written-out copy, descriptions included.
 */
function foldDefinitions(schema: JsonObject): JsonObject {
  if (schema.$defs === undefined) return schema;
  const { $defs, ...rest } = schema;
  const none = new Map<string, string>();
  const byShape = new Map(Object.entries($defs as JsonObject).map(([name, def]) => [shapeKey(def, none), name]));
  const found: JsonObject = {};
  const fold = (node: JsonObject, isRoot: boolean): JsonObject => {
    const name = isRoot ? undefined : byShape.get(shapeKey(node, none));
    if (name !== undefined) {
      found[name] ??= node;
      return { $ref: `${LOCAL_DEF}${name}` };
    }
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties')
        out[key] = Object.fromEntries(Object.entries(value as JsonObject).map(([n, sub]) => [n, fold(sub as JsonObject, false)]));
      else if (SUBSCHEMAS.has(key) && value !== null && typeof value === 'object')
        out[key] = Array.isArray(value) ? (value as JsonObject[]).map((sub) => fold(sub, false)) : fold(value as JsonObject, false);
      else out[key] = value;
    }
    return out;
  };
  const folded = fold(rest, true);
  return { ...folded, $defs: { ...($defs as JsonObject), ...found } };
}

/** One place a subschema appears: how deep, in which listed tool, and in what order within it. */
interface Place {
  readonly depth: number;
  readonly tool: number;
  readonly order: number;
  readonly path: string;
}

const before = (a: Place, b: Place): boolean =>
  a.depth !== b.depth ? a.depth < b.depth : a.tool !== b.tool ? a.tool < b.tool : a.order < b.order;

/**
 * Calls `visit` on every subschema below `schema` (not on `schema` itself), parents before children. What
 * `$defs` holds is left out: it is the target of local `$ref`s, kept as it is.
 */
function eachSubschema(schema: JsonObject, visit: (node: JsonObject, path: string, depth: number) => void): void {
  const walk = (node: JsonObject, path: string, depth: number): void => {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties') {
        for (const [name, sub] of Object.entries(value as JsonObject)) {
          const at = path === '' ? name : `${path}.${name}`;
          visit(sub as JsonObject, at, depth + 1);
          walk(sub as JsonObject, at, depth + 1);
        }
      } else if (SUBSCHEMAS.has(key) && value !== null && typeof value === 'object') {
        const subs = Array.isArray(value) ? (value as JsonObject[]) : [value as JsonObject];
        subs.forEach((sub, i) => {
          const at = key === 'items' ? `${path}[]` : `${path} (${key}${Array.isArray(value) ? ` ${i + 1}` : ''})`;
          visit(sub, at, depth + 1);
          walk(sub, at, depth + 1);
        });
      }
    }
  };
  walk(schema, '', 0);
}

/**
 * Where each shared subschema is listed in full: its shallowest appearance, earliest in the list. Every
 * other appearance refers there; a home is never inside another shared subschema's reference, since
 * whatever holds it is itself shallower at its own home.
 */
function sharedHomes(schemas: readonly JsonObject[]): Map<string, Place> {
  const places = new Map<string, Place[]>();
  schemas.forEach((schema, tool) => {
    let order = 0;
    const defs = definitionShapes(schema);
    eachSubschema(schema, (node, path, depth) => {
      const key = shapeKey(node, defs);
      if (key.length < SHARED_MIN_BYTES) return;
      const list = places.get(key) ?? [];
      list.push({ depth, tool, order: order++, path });
      places.set(key, list);
    });
  });
  const homes = new Map<string, Place>();
  for (const [key, list] of places) {
    if (list.length < 2) continue;
    homes.set(
      key,
      list.reduce((best, p) => (before(p, best) ? p : best)),
    );
  }
  return homes;
}

/**
 * A tool's schema as listed: a shared subschema not at its home becomes a reference to it, and a property
 * description already shown by an earlier tool of the list (recorded in `shown`) is left out.
 */
function listedSchema(
  schema: JsonObject,
  tool: number,
  homes: ReadonlyMap<string, Place>,
  names: readonly string[],
  shown: Set<string>,
): JsonObject {
  const defShapes = definitionShapes(schema);
  const emit = (node: unknown, path: string, shareable: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n, i) => emit(n, `${path} ${i + 1}`, shareable));
    if (node === null || typeof node !== 'object') return node;
    const source = node as JsonObject;
    if (shareable && path !== '') {
      const home = homes.get(shapeKey(source, defShapes));
      if (home !== undefined && (home.tool !== tool || home.path !== path)) return reference(source, `${names[home.tool]}'s ${home.path}`);
    }
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(source)) {
      if (key === 'description' && typeof value === 'string') {
        if (shown.has(value)) continue;
        shown.add(value);
        out[key] = value;
      } else if (key === 'enum' || key === 'default' || key === 'const') {
        out[key] = value;
      } else if (NAME_MAPS.has(key)) {
        out[key] = Object.fromEntries(
          Object.entries(value as JsonObject).map(([name, sub]) => {
            const at = key === '$defs' ? `${path}$defs/${name}` : path === '' ? name : `${path}.${name}`;
            return [name, emit(sub, at, shareable && key === 'properties')];
          }),
        );
      } else if (SUBSCHEMAS.has(key)) {
        out[key] = Array.isArray(value)
          ? value.map((sub, i) => emit(sub, `${path} (${key} ${i + 1})`, shareable))
          : emit(value, key === 'items' ? `${path}[]` : `${path} (${key})`, shareable);
      } else {
        out[key] = value;
      }
    }
    return out;
  };
  const { $defs, ...rest } = schema;
  const listed = emit(rest, '', true) as JsonObject;
  if ($defs === undefined) return listed;
  const defs = Object.fromEntries(Object.entries($defs as JsonObject).map(([name, def]) => [name, emit(def, `$defs/${name}`, false)]));
  return dropUnusedDefs({ ...listed, $defs: defs });
}

/** A reference in place of a subschema: its type, and where the list shows it in full. */
function reference(node: JsonObject, where: string): JsonObject {
  const type = node.type ?? (Array.isArray(node.enum) && node.enum.every((e) => typeof e === 'string') ? 'string' : undefined);
  return { ...(type === undefined ? {} : { type }), description: `${SAME_SCHEMA}${where}.` };
}

/** Drops `$defs` entries no `$ref` points to any more (their users became references). */
function dropUnusedDefs(schema: JsonObject): JsonObject {
  if (schema.$defs === undefined) return schema;
  const { $defs, ...rest } = schema;
  const text = JSON.stringify(rest);
  const used = Object.entries($defs as JsonObject).filter(([name]) => text.includes(`"#/$defs/${name}"`));
  return used.length === 0 ? rest : { ...rest, $defs: Object.fromEntries(used) };
}

/**
 * The tools as `tools/list` shows them, in order. A subschema shared by several tools (the axiom operand
 * set, the annotation object, a rule atom) is listed in full once and referred to elsewhere; an argument
 * description appears once per list.
 */
export function listTools(defs: readonly ToolDefinition[]): ListedTool[] {
  const schemas = defs.map((def) => foldDefinitions(tidy(inputJsonSchema(def)) as JsonObject));
  const homes = sharedHomes(schemas);
  const names = defs.map((def) => def.name);
  const shown = new Set<string>();
  return defs.map((def, i) => {
    const output = outputJsonSchema(def);
    return {
      name: def.name,
      title: toolTitle(def.name),
      description: def.description,
      // schemas runs parallel to defs
      inputSchema: listedSchema(schemas[i]!, i, homes, names, shown) as ListedTool['inputSchema'],
      ...(output === undefined ? {} : { outputSchema: output as ListedTool['inputSchema'] }),
      annotations: toolAnnotations(def),
    };
  });
}
