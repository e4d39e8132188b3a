// athene classify FILE [--base IRI] [--reasoner el|structural|konclude|auto]: the class taxonomy in the format of the
// reasoning README (sorted lines, full IRIs) on stdout; consistency and completeness notes on stderr, so
// stdout is exactly the taxonomy (empty for an inconsistent ontology).

import type { Axiom } from '../model/terms.js';
import { loadOntologyFile } from '../model/io.js';
import { classify, renderTaxonomy, type ElResult } from '../reasoner/el-reasoner.js';
import { answer } from '../reasoner/engines.js';
import { koncludeConfig } from '../reasoner/registry.js';
import { reportUnmapped } from './unmapped.js';
import { optionalString, requirePositionals, UsageError } from './args.js';

const REASONER_NAMES = ['el', 'structural', 'konclude', 'auto'] as const;
export type ReasonerName = (typeof REASONER_NAMES)[number];

export interface ClassifyOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly result: ElResult;
}

/** What the command prints for an axiom set (the command and the tests share it). */
export async function classifyAxioms(axioms: Iterable<Axiom>, reasoner: ReasonerName = 'el'): Promise<ClassifyOutput> {
  const all = [...axioms];
  const k = reasoner === 'konclude' || reasoner === 'auto' ? koncludeConfig() : null;
  const { result, engine, note } = await answer(reasoner, all, k, {}, () => classify(all));
  const notes: string[] = [];
  if (!result.consistent) notes.push('consistent: false');
  if (!result.complete) notes.push(`complete: false (${result.unsupported.count} axiom(s) outside what the ${engine} reasoner handles)`);
  if (note !== undefined) notes.push(note);
  return { stdout: renderTaxonomy(result), stderr: notes.map((n) => n + '\n').join(''), result };
}

function reasonerOption(v: string | boolean | undefined): ReasonerName {
  const name = optionalString(v) ?? 'el';
  const known = REASONER_NAMES.find((r) => r === name);
  if (known === undefined) throw new UsageError(`--reasoner must be one of ${REASONER_NAMES.join(', ')}, got '${name}'`);
  return known;
}

export async function classifyCommand(positionals: string[], values: Record<string, string | boolean | undefined>): Promise<void> {
  const [file] = requirePositionals(positionals, ['FILE']);
  const reasoner = reasonerOption(values.reasoner);
  const ontology = await loadOntologyFile(file, { base: optionalString(values.base) });
  reportUnmapped(ontology, file);
  const out = await classifyAxioms(ontology.axioms(), reasoner);
  process.stderr.write(out.stderr);
  process.stdout.write(out.stdout);
}
