// How deeply a JSON text nests, found without parsing it: the front door refuses a body nested deeper
// than the max_json_depth setting before any parser (or the audit writer) walks it.

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True when some object or array in `text` sits more than `limit` levels deep (strings are skipped). */
export function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** `[]` with any whitespace: JSON-RPC answers an empty batch with one Invalid Request error. */
export function isEmptyBatch(text: string): boolean {
  return /^\s*\[\s*\]\s*$/.test(text);
}
