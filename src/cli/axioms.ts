// athene axioms FILE [--base IRI]: the canonical line per axiom (format of the shared corpus README).

import { loadOntologyFile } from '../model/io.js';
import { axiomLines } from '../model/render/axiom-lines.js';
import { reportUnmapped } from './unmapped.js';
import { optionalString, requirePositionals } from './args.js';

export async function axiomsCommand(positionals: string[], values: Record<string, string | boolean | undefined>): Promise<void> {
  const [file] = requirePositionals(positionals, ['FILE']);
  const ontology = await loadOntologyFile(file, { base: optionalString(values.base) });
  reportUnmapped(ontology, file);
  const lines = axiomLines(ontology.axioms());
  process.stdout.write(lines.length ? lines.join('\n') + '\n' : '');
}
