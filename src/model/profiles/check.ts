// The OWL 2 profile checker: the DL restrictions (which every profile includes) plus the EL, QL or RL
// grammar, over a whole imports closure in one pass over its axioms. Pure: reads the ontologies, changes
// nothing.

import type { Ontology } from '../ontology.js';
import { closureFacts } from './closure-facts.js';
import { checkAxiomDl, checkClosureDl } from './dl.js';
import { checkElChainRanges, EL } from './el.js';
import { QL } from './ql.js';
import { RL } from './rl.js';
import type { ProfileGrammar } from './grammar.js';
import { sortViolations, ViolationSink, type OwlProfile, type ProfileReport } from './report.js';

const GRAMMARS: Readonly<Record<Exclude<OwlProfile, 'DL'>, ProfileGrammar>> = { EL, QL, RL };

/** The check ran past its deadline (the caller's time bound); nothing is reported. */
export class ProfileCheckTimeout extends Error {
  constructor() {
    super('the profile check did not finish in time');
    this.name = 'ProfileCheckTimeout';
  }
}

/** Axioms checked between two looks at the clock. */
const CLOCK_STRIDE = 4096;

/**
 * Checks `closure` (the audited ontology first, then its imports) against `profile`. A violation is `owned`
 * when it comes from the axioms or header of `owned`; the others come from imported ontologies. With a
 * `deadline` (ms since the epoch) a check that runs past it throws ProfileCheckTimeout.
 */
export function checkProfile(closure: readonly Ontology[], profile: OwlProfile, owned: Ontology, deadline = Infinity): ProfileReport {
  const sink = new ViolationSink(owned);
  const facts = closureFacts(closure);
  const grammar = profile === 'DL' ? null : GRAMMARS[profile];
  let n = 0;
  for (const o of closure) {
    for (const a of o.axioms()) {
      checkAxiomDl(a, o, facts, sink);
      grammar?.check(a, o, sink);
      if (++n % CLOCK_STRIDE === 0 && Date.now() > deadline) throw new ProfileCheckTimeout();
    }
  }
  checkClosureDl(closure, facts, sink);
  if (profile === 'EL') checkElChainRanges(closure, facts, sink);
  const violations = sortViolations(sink.violations);
  return { profile, inProfile: violations.length === 0, violations };
}
