// One entry point for every document format: read (with detection) and write.

import type { FormatId, Ontology } from '../ontology.js';
import { detectFormat } from './detect.js';
import { readTurtle } from './turtle-reader.js';
import { readRdfXml } from './rdfxml-reader.js';
import { readJsonLd } from './jsonld-reader.js';
import { readFunctional } from './functional/reader.js';
import { writeFunctional } from './functional/writer.js';
import { readManchester } from './manchester/reader.js';
import { writeManchester } from './manchester/writer.js';
import { readOwlXml } from './owlxml/reader.js';
import { writeOwlXml } from './owlxml/writer.js';
import { readObo } from './obo/reader.js';
import { writeObo } from './obo/writer.js';
import { writeTurtle, writeNTriples, writeNQuads, writeTriG, writeRdfXml, writeJsonLd } from './rdf-writers.js';
import type { ImportedKinds } from '../rdf/graph-typing.js';
import { unreachable } from '../../util/unreachable.js';

export interface ReadDocumentOptions {
  /** Base IRI for relative IRIs (normally the document's own IRI or file URL). */
  base?: string | undefined;
  /** The format, when the caller knows it; otherwise it is detected. */
  format?: FormatId | undefined;
  /** File name or path, used as a detection hint. */
  fileName?: string | undefined;
  /**
   * The entity kinds the document's loaded imports closure declares: an RDF document maps what it leaves
   * undeclared with them (OWL 2 Mapping to RDF Graphs §3.1). The other syntaxes type every entity themselves.
   */
  importedKinds?: ImportedKinds | undefined;
}

export interface ReadDocumentResult {
  ontology: Ontology;
  format: FormatId;
}

export async function readDocument(text: string, options: ReadDocumentOptions = {}): Promise<ReadDocumentResult> {
  const format = options.format ?? detectFormat(text, options.fileName);
  const base = options.base;
  const imported = options.importedKinds;
  let ontology: Ontology;
  switch (format) {
    case 'turtle':
    case 'ntriples':
    case 'nquads':
    case 'trig':
      ontology = await readTurtle(text, { base, syntax: format, imported });
      break;
    case 'rdfxml':
      ontology = await readRdfXml(text, { base, imported });
      break;
    case 'jsonld':
      ontology = await readJsonLd(text, { base, imported });
      break;
    case 'ofn':
      ontology = readFunctional(text, { base });
      break;
    case 'manchester':
      ontology = readManchester(text, { base });
      break;
    case 'owlxml':
      ontology = readOwlXml(text, { base });
      break;
    case 'obo':
      ontology = readObo(text, { base });
      break;
    default:
      return unreachable(format);
  }
  ontology.format = format;
  return { ontology, format };
}

export function writeDocument(ontology: Ontology, format: FormatId = ontology.format): string {
  switch (format) {
    case 'turtle':
      return writeTurtle(ontology);
    case 'ntriples':
      return writeNTriples(ontology);
    case 'nquads':
      return writeNQuads(ontology);
    case 'trig':
      return writeTriG(ontology);
    case 'rdfxml':
      return writeRdfXml(ontology);
    case 'jsonld':
      return writeJsonLd(ontology);
    case 'ofn':
      return writeFunctional(ontology);
    case 'manchester':
      return writeManchester(ontology);
    case 'owlxml':
      return writeOwlXml(ontology);
    case 'obo':
      return writeObo(ontology);
    default:
      return unreachable(format);
  }
}
