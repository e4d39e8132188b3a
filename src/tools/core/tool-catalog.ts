// The tools this server offers, in `tools/list` order.

import { readOnlyTool, type ToolDefinition } from './tool.js';
import type { ToolProfile } from '../../settings/settings.js';
import { listOntologies, getActiveOntology, getEntity } from '../explore/lookup.js';
import { searchEntities } from '../explore/search.js';
import { addAxiom, removeAxiom } from '../edit/axiom-edits.js';
import { undoChange, redoChange } from '../history/undo-redo.js';
import { saveOntology, loadOntology } from '../documents/load-save.js';
import {
  setOntologyId,
  setPrefix,
  removePrefix,
  addImport,
  removeImport,
  addOntologyAnnotation,
  removeOntologyAnnotation,
} from '../header/header-tools.js';
import { previewChanges, applyChanges } from '../edit/batch-edits.js';
import { previewChangeSet, commitChangeSet, discardChangeSet, rebaseChangeSet } from '../edit/change-sets.js';
import { setActiveOntology, createOntology } from '../documents/workspace-tools.js';
import { inspectImports, writeImportLock, verifyImportLock } from '../documents/import-tools.js';
import { validateCatalog, writeCatalog } from '../documents/oasis-catalog-tools.js';
import { extractModule } from '../documents/module-tools.js';
import { mergeOntologyDocument } from '../documents/merge-document.js';
import { summarizeOntology, listClasses, getAxiomsForEntity, getOntologyContext, getEntityContext } from '../explore/ontology-context.js';
import { createClass, createEntity, addSubclassOf, addAnnotation, setLabel } from '../edit/authoring.js';
import { createTerm, createTerms, createProperty, createProperties } from '../edit/term-creation.js';
import { renameEntity, deleteEntity, deprecateEntity, moveClass } from '../edit/refactoring.js';
import {
  listReasoners,
  setReasoner,
  runReasoner,
  getUnsatisfiableClasses,
  getInferredSuperclasses,
  executeDlQuery,
  getReasonerCapabilities,
} from '../reasoning/reasoner-tools.js';
import { explainEntailment, getExplanations, explainInconsistency } from '../reasoning/explanations.js';
import { validateOntology } from '../qc/structural-validation.js';
import { validateGovernance } from '../qc/governance-tools.js';
import { diffOntologies, analyzeChangeImpact } from '../diff/ontology-diff.js';
import { semanticDiffTool } from '../diff/semantic-diff-tool.js';
import { getProjectPolicy, validateProjectPolicy, writeProjectPolicyTemplate, getModelRevision } from '../project/policy-tools.js';
import { getSessionInfo } from '../session/session-info.js';
import { getChangeHistory, revertChanges, recoverUnsavedChanges } from '../history/change-journal-tools.js';
import { exportAuditLog } from '../project/audit-log-export.js';
import { runProjectQcTool, runQcSuite } from '../qc/qc-tools.js';
import { runReleaseGateTool, prepareRelease } from '../project/release-tools.js';
import { shaclValidate } from '../qc/shacl-tools.js';
import {
  addCompetencyQuestion,
  listCompetencyQuestions,
  removeCompetencyQuestion,
  runCompetencyQuestions,
} from '../qc/competency-questions.js';
import { listRules, addRule, removeRule } from '../rules/rule-tools.js';
import { validateRules } from '../rules/rule-validation.js';
import { sparqlQuery, sparqlSchema, sparqlValidate, verifyOntology } from '../sparql/sparql-tools.js';
import { startJob, getJob, cancelJob, listJobs, exportJobArtifact } from '../jobs/job-tools.js';
import { materializeInferences, commitMaterializationTool } from '../reasoning/materialization-tools.js';
import {
  listMappings,
  addMappingTool,
  removeMappingTool,
  importSssomTool,
  exportSssomTool,
  validateMappings,
} from '../mappings/mapping-tools.js';
import { searchExternalTerms, inspectExternalTerm, proposeTermReuse, acceptReuseProposal } from '../external-terms/external-term-tools.js';
import { unreachable } from '../../util/unreachable.js';

export const TOOLS: readonly ToolDefinition[] = [
  listOntologies,
  getActiveOntology,
  summarizeOntology,
  listClasses,
  searchEntities,
  getEntity,
  getAxiomsForEntity,
  getOntologyContext,
  getEntityContext,
  getModelRevision,
  validateOntology,
  validateGovernance,
  diffOntologies,
  semanticDiffTool,
  analyzeChangeImpact,
  getProjectPolicy,
  validateProjectPolicy,
  runProjectQcTool,
  writeProjectPolicyTemplate,
  runQcSuite,
  runReleaseGateTool,
  prepareRelease,
  shaclValidate,
  addCompetencyQuestion,
  listCompetencyQuestions,
  removeCompetencyQuestion,
  runCompetencyQuestions,
  exportAuditLog,
  previewChanges,
  applyChanges,
  previewChangeSet,
  commitChangeSet,
  discardChangeSet,
  rebaseChangeSet,
  createClass,
  createEntity,
  createTerm,
  createTerms,
  createProperty,
  createProperties,
  addSubclassOf,
  addAnnotation,
  setLabel,
  addAxiom,
  removeAxiom,
  renameEntity,
  deleteEntity,
  deprecateEntity,
  moveClass,
  setOntologyId,
  setPrefix,
  removePrefix,
  addImport,
  removeImport,
  addOntologyAnnotation,
  removeOntologyAnnotation,
  loadOntology,
  setActiveOntology,
  mergeOntologyDocument,
  createOntology,
  inspectImports,
  writeImportLock,
  verifyImportLock,
  validateCatalog,
  writeCatalog,
  extractModule,
  undoChange,
  redoChange,
  saveOntology,
  getChangeHistory,
  revertChanges,
  recoverUnsavedChanges,
  getReasonerCapabilities,
  materializeInferences,
  commitMaterializationTool,
  listReasoners,
  setReasoner,
  runReasoner,
  getUnsatisfiableClasses,
  getInferredSuperclasses,
  executeDlQuery,
  explainEntailment,
  getExplanations,
  explainInconsistency,
  listRules,
  addRule,
  removeRule,
  validateRules,
  verifyOntology,
  sparqlQuery,
  sparqlSchema,
  sparqlValidate,
  listMappings,
  addMappingTool,
  removeMappingTool,
  importSssomTool,
  exportSssomTool,
  validateMappings,
  searchExternalTerms,
  inspectExternalTerm,
  proposeTermReuse,
  acceptReuseProposal,
  startJob,
  getJob,
  cancelJob,
  listJobs,
  exportJobArtifact,
  getSessionInfo,
];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));

/** What an agent needs to explore, edit, check and save an ontology. */
const CORE: readonly ToolDefinition[] = [
  listOntologies,
  getActiveOntology,
  summarizeOntology,
  listClasses,
  searchEntities,
  getEntity,
  getAxiomsForEntity,
  getEntityContext,
  validateOntology,
  previewChanges,
  applyChanges,
  createClass,
  createTerm,
  createTerms,
  createProperty,
  addSubclassOf,
  addAnnotation,
  setLabel,
  addAxiom,
  removeAxiom,
  renameEntity,
  deleteEntity,
  deprecateEntity,
  moveClass,
  loadOntology,
  setActiveOntology,
  undoChange,
  redoChange,
  saveOntology,
  runReasoner,
  getUnsatisfiableClasses,
  executeDlQuery,
  getSessionInfo,
];

/** Core, and what curating with change sets, policy, external terms, mappings, rules and questions takes. */
const CURATION: readonly ToolDefinition[] = [
  ...CORE,
  getOntologyContext,
  getModelRevision,
  validateGovernance,
  getProjectPolicy,
  validateProjectPolicy,
  previewChangeSet,
  commitChangeSet,
  discardChangeSet,
  rebaseChangeSet,
  createEntity,
  createProperties,
  addCompetencyQuestion,
  listCompetencyQuestions,
  removeCompetencyQuestion,
  runCompetencyQuestions,
  getInferredSuperclasses,
  explainEntailment,
  getExplanations,
  listRules,
  addRule,
  removeRule,
  validateRules,
  sparqlQuery,
  listMappings,
  addMappingTool,
  removeMappingTool,
  validateMappings,
  searchExternalTerms,
  inspectExternalTerm,
  proposeTermReuse,
  acceptReuseProposal,
  getChangeHistory,
  revertChanges,
  recoverUnsavedChanges,
];

/** The tools a session on `profile` is offered, in catalog order; `review` is every read-only tool. */
export function profileTools(profile: ToolProfile = 'full'): readonly ToolDefinition[] {
  switch (profile) {
    case 'full':
      return TOOLS;
    case 'core':
      return inOrder(CORE);
    case 'curation':
      return inOrder(CURATION);
    case 'review':
      return TOOLS.filter(readOnlyTool);
    default:
      return unreachable(profile);
  }
}

function inOrder(members: readonly ToolDefinition[]): readonly ToolDefinition[] {
  const set = new Set(members);
  return TOOLS.filter((t) => set.has(t));
}
