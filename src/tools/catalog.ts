// The tools this server offers, in `tools/list` order.

import type { ToolDefinition } from './tool.js';
import { listOntologies, getActiveOntology, getEntity } from './explore.js';
import { searchEntities } from './search.js';
import { addAxiom, removeAxiom } from './edit.js';
import { undoChange, redoChange } from './history.js';
import { saveOntology, loadOntology } from './documents.js';

export const TOOLS: readonly ToolDefinition[] = [
  listOntologies, getActiveOntology, searchEntities, getEntity,
  addAxiom, removeAxiom,
  loadOntology,
  undoChange, redoChange, saveOntology,
];

export const TOOLS_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((t) => [t.name, t]));
