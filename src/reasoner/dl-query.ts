// DL queries: a Manchester class expression, parsed with the window's names, is answered by classifying the
// snapshot with a fresh query class Q ≡ expr added (on the pool). The answer lists named classes and
// individuals as IRIs, Q itself left out.

import type { ClassExpression, IRI } from '../model/terms.js';
import type { NameResolver } from '../model/names.js';
import { parseClassExpression } from '../model/formats/manchester/expression.js';
import type { QueryData, UnsupportedData } from './pool-worker.js';
import type { ReasoningSession } from './pool.js';
import type { EngineId } from './engines.js';
import { queryAxiom } from './snapshot.js';
import { unreachable } from '../util/unreachable.js';

/** The fresh class standing for the query expression (a URN no ontology uses). */
export const QUERY_CLASS_IRI = 'urn:athene:dl-query#Query';

export type DlRelation = 'all' | 'equivalent' | 'subclasses' | 'superclasses' | 'instances';

export interface DlAnswer {
  readonly equivalent?: readonly IRI[];
  readonly superclasses?: readonly IRI[];
  readonly subclasses?: readonly IRI[];
  readonly instances?: readonly IRI[];
}

export type DlQueryOutcome =
  | {
      readonly kind: 'answered';
      /** The engine that answered (for `auto`, the one it chose) and, when incomplete for want of one, why. */
      readonly engine: EngineId;
      readonly note?: string;
      readonly consistent: boolean;
      readonly anonymous: boolean;
      /** The query axiom used constructs the reasoner does not handle: the answer may miss entailments. */
      readonly queryUnsupported: boolean;
      readonly answer: DlAnswer;
      readonly unsupported: UnsupportedData;
      readonly complete: boolean;
      readonly ruleCount: number;
      /** The revision the answer was computed at (the model may have moved on meanwhile). */
      readonly revision: number;
    }
  | { readonly kind: 'timeout' | 'cancelled' | 'error'; readonly message: string; readonly ruleCount: number };

/** Parses the query (throws the Manchester parser's error or the resolver's NameError). */
export function parseDlQuery(text: string, names: NameResolver): ClassExpression {
  return parseClassExpression(text, names);
}

/** The lists `relation` selects from a worker answer, direct or transitive. */
export function selectAnswer(data: QueryData, relation: DlRelation, direct: boolean): DlAnswer {
  const want = (r: DlRelation) => relation === 'all' || relation === r;
  return {
    ...(want('equivalent') ? { equivalent: data.equivalent } : {}),
    ...(want('superclasses') ? { superclasses: direct ? data.superDirect : data.superAll } : {}),
    ...(want('subclasses') ? { subclasses: direct ? data.subDirect : data.subAll } : {}),
    ...(want('instances') ? { instances: direct ? data.instancesDirect : data.instancesAll } : {}),
  };
}

export async function runDlQuery(
  session: ReasoningSession,
  expr: ClassExpression,
  relation: DlRelation,
  direct: boolean,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<DlQueryOutcome> {
  const { outcome, ruleCount, revision } = await session.query(QUERY_CLASS_IRI, queryAxiom(QUERY_CLASS_IRI, expr), timeoutMs, signal);
  switch (outcome.kind) {
    case 'done': {
      const d = outcome.value;
      return {
        kind: 'answered',
        engine: d.engine,
        ...(d.note !== undefined ? { note: d.note } : {}),
        consistent: d.consistent,
        anonymous: expr.kind !== 'Class',
        queryUnsupported: d.queryUnsupported,
        answer: selectAnswer(d, relation, direct),
        unsupported: d.unsupported,
        complete: d.complete,
        ruleCount,
        revision,
      };
    }
    case 'timeout':
      return { kind: 'timeout', message: `The query did not finish within ${timeoutMs} ms and was cancelled.`, ruleCount };
    case 'cancelled':
      return { kind: 'cancelled', message: 'The query was cancelled.', ruleCount };
    case 'error':
      return { kind: 'error', message: `The reasoner failed: ${outcome.message}`, ruleCount };
    default:
      return unreachable(outcome);
  }
}
