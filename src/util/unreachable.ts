// The never check closing a switch over a closed set of kinds: the compiler rejects the call when a kind is
// left out, and a value outside the set (a corrupt message, say) fails loudly instead of falling through.

export function unreachable(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
