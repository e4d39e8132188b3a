// Small helpers shared by the command-line commands.

export class UsageError extends Error {}

export function requirePositionals(positionals: string[], names: string[]): string[] {
  if (positionals.length !== names.length) {
    throw new UsageError(`expected ${names.join(' ')}, got ${positionals.length} argument(s)`);
  }
  return positionals;
}

export const optionalString = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
