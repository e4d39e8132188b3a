// Arguments shared by the audit tools (validate_ontology, validate_governance): samples per check and a
// time bound where ≤0 means the default (TOOLS.md 1.1).

import * as v from 'valibot';

const DEFAULT_LIMIT = 25;
const DEFAULT_TIMEOUT_MS = 60_000;

/** Samples per check; the range is not documented: 1–10000 keeps samples bounded. */
export const checkSampleLimit = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000)), DEFAULT_LIMIT);

export const auditTimeout = v.optional(
  v.pipe(
    v.number(),
    v.integer(),
    v.maxValue(3_600_000),
    v.transform((n) => (n <= 0 ? DEFAULT_TIMEOUT_MS : n)),
  ),
  DEFAULT_TIMEOUT_MS,
);
