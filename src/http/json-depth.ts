// How deeply a JSON text nests, found without parsing it: the front door refuses a body nested deeper
// than the max_json_depth setting before any parser (or the audit writer) walks it.

export { nestedDeeperThan } from '../util/json-nesting.js';

/** `[]` with any whitespace: JSON-RPC answers an empty batch with one Invalid Request error. */
export function isEmptyBatch(text: string): boolean {
  return /^\s*\[\s*\]\s*$/.test(text);
}
