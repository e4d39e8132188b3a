// Small helpers shared by the command-line commands.

export class UsageError extends Error {}

export function requirePositionals<const N extends readonly string[]>(positionals: string[], names: N): { [K in keyof N]: string } {
  if (positionals.length !== names.length) {
    throw new UsageError(`expected ${names.join(' ')}, got ${positionals.length} argument(s)`);
  }
  // one string per name: the length is checked above
  return positionals as unknown as { [K in keyof N]: string };
}

export const optionalString = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
