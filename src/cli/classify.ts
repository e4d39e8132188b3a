// athene classify FILE [--base IRI] [--reasoner el|structural]: the class taxonomy in the format of the
// reasoning README (sorted lines, full IRIs) on stdout; consistency and completeness notes on stderr, so
// stdout is exactly the taxonomy (empty for an inconsistent ontology).

import type { Axiom } from '../model/terms.js';
import { loadOntologyFile } from '../model/io.js';
import { classify, renderTaxonomy, type ElResult } from '../reasoner/el-reasoner.js';
import { classifyStructural } from '../reasoner/structural.js';
import { reportUnmapped } from './unmapped.js';
import { optionalString, requirePositionals, UsageError } from './args.js';

export type ReasonerName = 'el' | 'structural';

export interface ClassifyOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly result: ElResult;
}

/** What the command prints for an axiom set (pure: the command and the tests share it). */
export function classifyAxioms(axioms: Iterable<Axiom>, reasoner: ReasonerName = 'el'): ClassifyOutput {
  const result = reasoner === 'structural' ? classifyStructural(axioms) : classify(axioms);
  const notes: string[] = [];
  if (!result.consistent) notes.push('consistent: false');
  if (!result.complete) notes.push(`complete: false (${result.unsupported.count} axiom(s) outside what the ${reasoner} reasoner handles)`);
  return { stdout: renderTaxonomy(result), stderr: notes.map((n) => n + '\n').join(''), result };
}

function reasonerOption(v: string | boolean | undefined): ReasonerName {
  const name = optionalString(v) ?? 'el';
  if (name !== 'el' && name !== 'structural') throw new UsageError(`--reasoner must be el or structural, got '${name}'`);
  return name;
}

export async function classifyCommand(positionals: string[], values: Record<string, string | boolean | undefined>): Promise<void> {
  const [file] = requirePositionals(positionals, ['FILE']);
  const reasoner = reasonerOption(values.reasoner);
  const ontology = await loadOntologyFile(file, { base: optionalString(values.base) });
  reportUnmapped(ontology, file);
  const out = classifyAxioms(ontology.axioms(), reasoner);
  process.stderr.write(out.stderr);
  process.stdout.write(out.stdout);
}
