// How an MCP prompt is declared (TOOLS.md §4): a pure template with named string arguments that expands to
// one user message naming tools in a safe order. The argument list is the one source of truth: the valibot
// schema that validates `prompts/get` and the `prompts/list` entry are both derived from it.

import * as v from 'valibot';
import { ErrorCode, McpError, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';

export interface PromptArgument {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  /** The argument names an entity (of this kind): completion/complete offers entity names for it. */
  readonly names?: 'class' | 'entity';
}

export type PromptArguments = Readonly<Record<string, string | undefined>>;

export interface PromptDefinition {
  readonly name: string;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  /** The user message; receives only validated arguments (required ones present and non-empty). */
  readonly message: (args: PromptArguments) => string;
}

/** Longest argument value accepted: a prompt argument is a name, an IRI or a sentence, never a document. */
export const MAX_ARGUMENT_LENGTH = 4000;

export function definePrompt(def: PromptDefinition): PromptDefinition {
  return def;
}

function argumentSchema(arg: PromptArgument) {
  const value = v.pipe(
    v.string(`argument '${arg.name}' must be a string`),
    v.trim(),
    v.minLength(1, `argument '${arg.name}' must not be empty`),
    v.maxLength(MAX_ARGUMENT_LENGTH, `argument '${arg.name}' is longer than ${MAX_ARGUMENT_LENGTH} characters`),
  );
  return arg.required ? value : v.optional(value);
}

const schemas = new WeakMap<PromptDefinition, v.GenericSchema<unknown, PromptArguments>>();

/** The closed object schema of a prompt's arguments (made once per prompt). */
function schemaOf(def: PromptDefinition): v.GenericSchema<unknown, PromptArguments> {
  let schema = schemas.get(def);
  if (schema === undefined) {
    const entries = Object.fromEntries(def.arguments.map((a) => [a.name, argumentSchema(a)]));
    schema = v.strictObject(entries) as unknown as v.GenericSchema<unknown, PromptArguments>;
    schemas.set(def, schema);
  }
  return schema;
}

/** The prompt as `prompts/list` shows it. */
export function listPrompt(def: PromptDefinition): Prompt {
  return {
    name: def.name,
    description: def.description,
    arguments: def.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
  };
}

/** Clients send an optional argument the user left blank as an empty string: that is the argument left out. */
function withoutBlankOptionals(def: PromptDefinition, args: Record<string, unknown>): Record<string, unknown> {
  const out = { ...args };
  for (const a of def.arguments)
    if (!a.required && typeof out[a.name] === 'string' && (out[a.name] as string).trim() === '') delete out[a.name];
  return out;
}

/** The validated arguments, or why `args` does not fit `def` (one clause per problem). */
function checkArguments(
  def: PromptDefinition,
  given: Record<string, unknown>,
): { ok: true; value: PromptArguments } | { ok: false; problem: string } {
  const args = withoutBlankOptionals(def, given);
  const known = new Set(def.arguments.map((a) => a.name));
  const problems: string[] = [];
  for (const a of def.arguments) if (a.required && args[a.name] === undefined) problems.push(`missing required argument '${a.name}'`);
  for (const name of Object.keys(args).sort()) if (!known.has(name)) problems.push(`unknown argument '${name}'`);
  if (problems.length > 0) return { ok: false, problem: problems.join('; ') };
  const parsed = v.safeParse(schemaOf(def), args);
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, problem: parsed.issues.map((i) => i.message).join('; ') };
}

/**
 * Expands a prompt. Arguments that do not fit are a JSON-RPC invalid-params error naming each offending
 * argument, as MCP asks of `prompts/get`; nothing else can fail.
 */
export function expandPrompt(def: PromptDefinition, rawArgs: Record<string, unknown> | undefined): GetPromptResult {
  const checked = checkArguments(def, rawArgs ?? {});
  if (!checked.ok) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt '${def.name}': ${checked.problem}`);
  return {
    description: def.description,
    messages: [{ role: 'user', content: { type: 'text', text: def.message(checked.value) } }],
  };
}
