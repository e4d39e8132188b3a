// Helpers shared by the QC tests: workspaces built from functional-syntax text.

import { readFunctional } from '../../src/model/formats/functional/reader.js';
import type { Ontology } from '../../src/model/ontology.js';
import { Workspace } from '../../src/model/workspace.js';
import { WorkspaceResolver } from '../../src/model/resolver.js';
import { WindowState } from '../../src/window/state.js';

export const EX = 'http://example.org/t#';

/** An ontology `<http://example.org/t>` (or `iri`) with prefix `:` = EX and `body` as its content. */
export function ontology(body: string, iri = 'http://example.org/t', imports: readonly string[] = []): Ontology {
  const importLines = imports.map((i) => `Import(<${i}>)`).join('\n');
  return readFunctional(
    `Prefix(:=<${EX}>)\nPrefix(rdfs:=<http://www.w3.org/2000/01/rdf-schema#>)\nPrefix(owl:=<http://www.w3.org/2002/07/owl#>)\nPrefix(xsd:=<http://www.w3.org/2001/XMLSchema#>)\nOntology(<${iri}>\n${importLines}\n${body}\n)`,
  );
}

/** A workspace whose active ontology is the first one given. */
export function workspace(...ontologies: Ontology[]): Workspace {
  const ws = new Workspace();
  ontologies.forEach((o, i) => ws.load(o, i === 0));
  return ws;
}

/** A window holding `ws` (what a QC snapshot is captured from). */
export function windowOf(ws: Workspace): WindowState {
  return new WindowState({ workspace: ws, resolver: new WorkspaceResolver(ws), windowId: 'w-qc' });
}
