// athene convert IN OUT [--format F]

import { loadOntologyFile, saveOntologyFile } from '../model/io.js';
import { formatFromExtension, parseFormatName } from '../model/formats/detect.js';
import { reportUnmapped } from './unmapped.js';
import { optionalString, requirePositionals, UsageError } from './args.js';

export async function convertCommand(positionals: string[], values: Record<string, string | boolean | undefined>): Promise<void> {
  const [input, output] = requirePositionals(positionals, ['IN', 'OUT']);
  const formatName = optionalString(values.format);
  const format = formatName !== undefined ? parseFormatName(formatName) : formatFromExtension(output);
  if (format === null) {
    throw new UsageError(
      formatName !== undefined ? `unknown format '${formatName}'` : `cannot tell the format from '${output}'; pass --format`,
    );
  }
  const ontology = await loadOntologyFile(input, { base: optionalString(values.base) });
  reportUnmapped(ontology, input);
  await saveOntologyFile(ontology, output, format);
  process.stderr.write(`wrote ${ontology.axiomCount} axioms as ${format} to ${output}\n`);
}
