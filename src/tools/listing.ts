// How tools appear in `tools/list`: a title and MCP annotations derived from each declaration's flags, and
// the JSON Schema derived from its valibot input, compacted so a whole list stays affordable to an agent.

import { toJsonSchema } from '@valibot/to-json-schema';
import { never, type JsonObject, type ToolDefinition } from './tool.js';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations: ToolAnnotations;
}

/** Name words written as their acronym in a title. */
const ACRONYMS: Readonly<Record<string, string>> = { sparql: 'SPARQL', dl: 'DL', qc: 'QC', shacl: 'SHACL', sssom: 'SSSOM', id: 'ID' };

/** `run_qc_suite` → `Run QC suite`. */
export function toolTitle(name: string): string {
  const words = name.split('_').map((w) => ACRONYMS[w] ?? w);
  return words.map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
}

/**
 * The MCP hints of a tool. The destructive and idempotent hints mean something only for a tool that may
 * write, so a read-only tool carries neither; every hint whose MCP default would misstate the tool is explicit.
 */
export function toolAnnotations(def: ToolDefinition): ToolAnnotations {
  const openWorldHint = def.openWorld === true || def.capabilities.includes('network:access');
  if (def.mutating === never) return { readOnlyHint: true, openWorldHint };
  return { readOnlyHint: false, destructiveHint: def.destructive === true, idempotentHint: def.idempotent === true, openWorldHint };
}

/** The full JSON Schema of a tool's arguments, as derived from its valibot input (or its listed override). */
export function inputJsonSchema(def: ToolDefinition): JsonObject {
  const schema = def.listedSchema ?? (toJsonSchema(def.input, { errorMode: 'ignore' }) as JsonObject);
  const { $schema: _dialect, ...rest } = schema;
  return { ...rest, type: 'object' };
}

/**
 * A schema without what repeats: a property description already shown by an earlier tool of the same list
 * (recorded in `shown`), an empty `required`, and `type: string` beside an enum of strings.
 */
function compact(node: unknown, shown: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => compact(n, shown));
  if (node === null || typeof node !== 'object') return node;
  const source = node as JsonObject;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'description' && typeof value === 'string') {
      if (shown.has(value)) continue;
      shown.add(value);
      out[key] = value;
    } else if (key === 'required' && Array.isArray(value) && value.length === 0) {
      continue;
    } else if (key === 'type' && value === 'string' && Array.isArray(source.enum) && source.enum.every((e) => typeof e === 'string')) {
      continue;
    } else if (key === 'properties' || key === '$defs') {
      // names under these keys are argument names, not schema keywords
      out[key] = Object.fromEntries(Object.entries(value as JsonObject).map(([name, sub]) => [name, compact(sub, shown)]));
    } else {
      out[key] = compact(value, shown);
    }
  }
  return out;
}

/** The tools as `tools/list` shows them, in order; an argument description appears once per list. */
export function listTools(defs: readonly ToolDefinition[]): ListedTool[] {
  const shown = new Set<string>();
  return defs.map((def) => ({
    name: def.name,
    title: toolTitle(def.name),
    description: def.description,
    inputSchema: compact(inputJsonSchema(def), shown) as ListedTool['inputSchema'],
    annotations: toolAnnotations(def),
  }));
}
