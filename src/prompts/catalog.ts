// The 11 MCP prompts of TOOLS.md §4, in the table's order. Each expands to one user message whose steps
// name the tools in the table's guided flow (orient, ground, preview, approve, verify); the prompts call
// nothing themselves and put nothing in the message but the caller's own arguments.

import { definePrompt, type PromptArguments, type PromptDefinition } from './prompt.js';

/** An argument as it appears in a message: JSON-quoted, so quotes or newlines in it cannot reshape the text. */
const q = (value: string | undefined): string => JSON.stringify(value ?? '');

/** One message: a goal, numbered steps, and the rule every flow shares (approval before the writes it names). */
function flow(goal: string, steps: readonly string[]): string {
  return [
    goal,
    '',
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    '',
    'Follow these steps in order. Where a step waits for my approval, change nothing in the ontology or on disk until I have approved ' +
      'the exact change you show me. If a step fails or a tool is not available, stop and tell me rather than improvising a write.',
  ].join('\n');
}

export const auditOntology = definePrompt({
  name: 'audit_ontology',
  description:
    'Audit the active ontology: policy QC (or the legacy checks), reasoning, offenders, and fixes through a previewed change set.',
  arguments: [],
  message: () =>
    flow('Audit the active ontology and report what is wrong, most severe first.', [
      'Orient with `get_ontology_context`: the active ontology, its imports, size and reasoner state.',
      'Call `get_project_policy` to learn whether a valid project policy governs this ontology.',
      'With a valid policy, call `run_project_qc`; a `gate=error` verdict means the audit is incomplete: say which stage could not run and why. ' +
        'Without a policy, call `validate_ontology` and `validate_governance` instead, and label those findings non-reproducible (no policy pins the checks).',
      'Call `run_reasoner`; if the ontology is inconsistent, call `explain_inconsistency`, otherwise `get_unsatisfiable_classes`.',
      'For the key offenders, call `get_entity_context` to see what they are and what uses them.',
      'Propose fixes as one batch with `preview_change_set`; show me the delta, the revision and the gate verdict, ' +
        'and call `commit_change_set` only after I approve.',
    ]),
});

export const explainClass = definePrompt({
  name: 'explain_class',
  description:
    'Explain a class in plain language: its asserted definition, usage and inferred superclasses, including unexpected inferences.',
  arguments: [{ name: 'class', description: 'The class: full IRI, CURIE or display name.', required: true, names: 'class' }],
  message: (a: PromptArguments) =>
    flow(`Explain the class ${q(a.class)} in plain language.`, [
      `Call \`get_entity_context\` for ${q(a.class)}; if the reference is ambiguous or unknown, show me the candidates and stop.`,
      'Call `get_axioms_for_entity` for its asserted axioms.',
      'Call `run_reasoner` (select one first if none is), then `get_inferred_superclasses` for the class.',
      'Give a plain-language account: what the class means, how it is defined and used, and every inference that is not asserted, ' +
        'pointing out the ones that look unexpected.',
    ]),
});

export const addSubclassSafely = definePrompt({
  name: 'add_subclass_safely',
  description: 'Add "child SubClassOf parent" through a previewed, gated change set committed only after approval.',
  arguments: [
    { name: 'child', description: 'The subclass: full IRI, CURIE or display name.', required: true, names: 'class' },
    { name: 'parent', description: 'The superclass: full IRI, CURIE or display name.', required: true, names: 'class' },
  ],
  message: (a: PromptArguments) =>
    flow(`Make ${q(a.child)} a subclass of ${q(a.parent)}, safely.`, [
      `Ground both terms: call \`get_entity\` for ${q(a.child)} and for ${q(a.parent)}; if either is unknown or ambiguous, use \`search_entities\` and ask me which one I mean.`,
      'Call `preview_change_set` with one `subclass_of` operation using the grounded IRIs.',
      'Show me the delta, the revision envelope and the gate verdict.',
      'After I approve, call `commit_change_set` with that change set and revision. ' +
        'If the preview reports `satisfiability_checked=false`, fix the reasoner and preview again, ' +
        'or commit only if I explicitly approve it as "UNVERIFIED".',
    ]),
});

export const findAndFixUnsatisfiable = definePrompt({
  name: 'find_and_fix_unsatisfiable',
  description: 'Find unsatisfiable classes (or an inconsistency), explain them, and remove the smallest cause after approval.',
  arguments: [],
  message: () =>
    flow('Find and fix the unsatisfiable classes of the active ontology.', [
      'Call `run_reasoner` (select one first if none is).',
      'Call `get_unsatisfiable_classes`. If the ontology is inconsistent instead, call `explain_inconsistency`, ' +
        'and `undo_change` with `peek=true` to see whether the last edit caused it.',
      'For each unsatisfiable class C, call `get_explanations` for C SubClassOf owl:Nothing.',
      'Work out the smallest set of axioms whose removal fixes it and check it with `preview_changes`.',
      'After I approve, call `apply_changes` with `verify=report`.',
      'Re-check with `run_reasoner` and `get_unsatisfiable_classes`, and tell me what changed.',
    ]),
});

export const authorSparqlQuery = definePrompt({
  name: 'author_sparql_query',
  description: "Write and check a SPARQL query that answers a question, using the ontology's real vocabulary.",
  arguments: [{ name: 'question', description: 'The question the query must answer.', required: true }],
  message: (a: PromptArguments) =>
    flow(`Write a SPARQL query that answers: ${q(a.question)}`, [
      'Call `sparql_schema` with a keyword from the question to find the real classes, properties and prefixes.',
      'Draft the query with the real CURIEs it returned; invent no term.',
      'Call `sparql_validate` (with `dry_run=true`) and revise until the query is valid and executable.',
      'Run it with `sparql_query`.',
      'Give me the answer and the final query.',
    ]),
});

export const modelDomain = definePrompt({
  name: 'model_domain',
  description: 'Model a domain description as a small set of classes and properties, previewed and committed after approval.',
  arguments: [{ name: 'description', description: 'The domain to model, in plain language.', required: true }],
  message: (a: PromptArguments) =>
    flow(`Model this domain in the active ontology: ${q(a.description)}`, [
      'Orient with `get_ontology_context`: its namespaces, naming conventions and existing terms you should reuse.',
      'Propose a small term set (classes, properties, one-line definitions), reusing existing terms, and show it to me.',
      'Preview it: `create_terms` and `create_properties` with `preview=true`, and `preview_change_set` for the axioms that relate them.',
      'After I approve each change set, commit it with `commit_change_set`.',
    ]),
});

export const authorCompetencyQuestion = definePrompt({
  name: 'author_competency_question',
  description: 'Turn a competency question into a regression-checked SPARQL test added after approval.',
  arguments: [
    { name: 'question', description: 'The competency question, in plain language.', required: true },
    { name: 'expected', description: 'What a correct ontology answers (optional).', required: false },
  ],
  message: (a: PromptArguments) =>
    flow(
      `Add the competency question ${q(a.question)}` + (a.expected === undefined ? '.' : `, whose expected answer is ${q(a.expected)}.`),
      [
        'Call `list_competency_questions` and keep the convention the existing ones use.',
        'Call `sparql_schema` to find the real vocabulary.',
        'Draft the query and a pass condition that would fail if a later edit broke the answer (regression-sensitive, not merely non-empty).',
        'Check the query with `sparql_validate`.',
        'Show me the question, query and pass condition; after I approve, call `add_competency_question`.',
        'Run it with `run_competency_questions` and `ids` set to the new question only, and report the result.',
      ],
    ),
});

export const authorSwrlRule = definePrompt({
  name: 'author_swrl_rule',
  description: 'Write a SWRL rule from a plain-language statement, check reasoner fit, and add it after approval.',
  arguments: [{ name: 'rule', description: 'The rule, in plain language.', required: true }],
  message: (a: PromptArguments) =>
    flow(`Add a SWRL rule for: ${q(a.rule)}`, [
      'Ground every term the rule uses with `search_entities` or `get_entity`; ask me about any that are unknown or ambiguous.',
      'Call `list_rules` to avoid a duplicate and keep the existing style.',
      'Write the atoms and an `rdfs:label` for the rule.',
      'Check reasoner fit: EL++ reasoners ignore rules and built-ins break some DL reasoners; ' +
        'use `list_reasoners` and, if needed, `set_reasoner` to one that honours the rule.',
      'After I approve the rule, call `add_rule`.',
      'Call `run_reasoner` and confirm an inference the rule should produce.',
    ]),
});

export const refactorEntitySafely = definePrompt({
  name: 'refactor_entity_safely',
  description: 'Refactor an entity (rename, deprecate, delete or move) after measuring its blast radius, then verify.',
  arguments: [
    { name: 'entity', description: 'The entity: full IRI, CURIE or display name.', required: true, names: 'entity' },
    { name: 'goal', description: 'What the refactoring should achieve.', required: true },
  ],
  message: (a: PromptArguments) =>
    flow(`Refactor ${q(a.entity)} to achieve: ${q(a.goal)}`, [
      `Measure the blast radius: call \`get_entity_context\` and \`get_axioms_for_entity\` for ${q(a.entity)}.`,
      'Choose one operation and explain why it fits the goal: rename (`rename_entity`), deprecate (`deprecate_entity`), ' +
        'delete (`delete_entity`) or move (`move_class`).',
      'Preview it (`preview=true` where the tool has it, otherwise `preview_change_set`) and show me what would change.',
      'After I approve, apply it.',
      'Verify with `run_reasoner`, `get_unsatisfiable_classes` and `validate_ontology`, and report anything the change broke.',
    ]),
});

export const bootstrapOntology = definePrompt({
  name: 'bootstrap_ontology',
  description: 'Create a new ontology with prefixes, annotations and imports, save it, write its catalog, and check it.',
  arguments: [
    { name: 'ontology_iri', description: "The new ontology's IRI.", required: true },
    { name: 'path', description: 'Where to save it (optional; asked for when absent).', required: false },
  ],
  message: (a: PromptArguments) =>
    flow(
      `Bootstrap a new ontology ${q(a.ontology_iri)}` +
        (a.path === undefined ? '; ask me where to save it before saving.' : ` saved at ${q(a.path)}.`),
      [
        `Call \`create_ontology\` with ${q(a.ontology_iri)}.`,
        'Call `set_prefix` for its own namespace and any others it needs.',
        'Call `add_ontology_annotation` for its title, description, license and creator (ask me for values you do not know).',
        'Ask me which ontologies it imports; for each, call `add_import` with its `document`, and check that `resolved` is true.',
        'Show me the header; after I approve, call `save_ontology`' + (a.path === undefined ? '.' : ` with path ${q(a.path)}.`),
        'Call `write_catalog` so the imports resolve locally.',
        'Check with `get_ontology_context` and `validate_governance` with `required_namespaces` set to its namespace.',
      ],
    ),
});

export const releaseReadinessCheck = definePrompt({
  name: 'release_readiness_check',
  description: 'Decide whether the active ontology is ready to release: QC, reasoning, governance and a diff against the saved document.',
  arguments: [
    { name: 'profile', description: 'OWL 2 profile to hold the release to (DL, EL, QL or RL; optional).', required: false },
    { name: 'namespace', description: 'Namespace every owned term must use (optional).', required: false },
  ],
  message: (a: PromptArguments) =>
    flow(
      'Check whether the active ontology is ready to release' +
        (a.profile === undefined ? '' : ` in the OWL 2 profile ${q(a.profile)}`) +
        (a.namespace === undefined ? '' : ` with every owned term in the namespace ${q(a.namespace)}`) +
        '.',
      [
        'Orient with `get_ontology_context` and `list_ontologies` (dirty documents, imports).',
        'Call `get_project_policy`. With a valid project policy, call `run_project_qc`: a verdict of `error` means do not ship. ' +
          'Without one, call `run_reasoner`, then `run_qc_suite` with `error_on_missing_required=true`' +
          (a.profile === undefined ? '' : ` and \`owl_profile\` ${q(a.profile)}`) +
          ', then `validate_governance`' +
          (a.profile === undefined ? '' : ` with \`owl_profile\` ${q(a.profile)}`) +
          (a.namespace === undefined ? '' : ` and \`required_namespaces\` [${q(a.namespace)}]`) +
          '.',
        'Call `diff_ontologies` against the saved document to show what this release changes.',
        'Give a verdict (ready, or the blocking findings) with the evidence.',
        'Only after I approve, call `save_ontology` and `write_catalog`.',
      ],
    ),
});

export const PROMPTS: readonly PromptDefinition[] = [
  auditOntology,
  explainClass,
  addSubclassSafely,
  findAndFixUnsatisfiable,
  authorSparqlQuery,
  modelDomain,
  authorCompetencyQuestion,
  authorSwrlRule,
  refactorEntitySafely,
  bootstrapOntology,
  releaseReadinessCheck,
];

export const PROMPTS_BY_NAME: ReadonlyMap<string, PromptDefinition> = new Map(PROMPTS.map((p) => [p.name, p]));
