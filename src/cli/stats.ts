// athene stats FILE: counts per axiom type and signature size, as JSON.

import { loadOntologyFile } from '../model/io.js';
import { ontologyStats } from '../model/stats.js';
import { optionalString, requirePositionals } from './args.js';

export async function statsCommand(positionals: string[], values: Record<string, string | boolean | undefined>): Promise<void> {
  const [file] = requirePositionals(positionals, ['FILE']);
  const ontology = await loadOntologyFile(file, { base: optionalString(values.base) });
  process.stdout.write(JSON.stringify(ontologyStats(ontology), null, 2) + '\n');
}
