// One entry point for every document format: read (with detection) and write.

import type { FormatId, Ontology } from '../ontology.js';
import { detectFormat } from './detect.js';
import { readFunctional } from './functional/reader.js';
import { writeFunctional } from './functional/writer.js';
import { writeManchester } from './manchester/writer.js';
import { writeOwlXml } from './owlxml/writer.js';
import { writeObo } from './obo/writer.js';
import { writeTurtle, writeNTriples, writeNQuads, writeTriG, writeRdfXml, writeJsonLd } from './rdf-writers.js';
import type { ImportedKinds } from '../rdf/graph-typing.js';
import { unreachable } from '../../util/unreachable.js';
import { lazyModule } from '../../util/lazy.js';

// Readers load on first use: their parsers (n3, rdfxml-streaming-parser, jsonld, saxes) cost more to import
// than a window needs for the one format it serves. The writers are small and stay synchronous.
const turtleReader = lazyModule(() => import('./turtle-reader.js'));
const rdfXmlReader = lazyModule(() => import('./rdfxml-reader.js'));
const jsonLdReader = lazyModule(() => import('./jsonld-reader.js'));
const manchesterReader = lazyModule(() => import('./manchester/reader.js'));
const owlXmlReader = lazyModule(() => import('./owlxml/reader.js'));
const oboReader = lazyModule(() => import('./obo/reader.js'));

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
      ontology = await (await turtleReader()).readTurtle(text, { base, syntax: format, imported });
      break;
    case 'rdfxml':
      ontology = await (await rdfXmlReader()).readRdfXml(text, { base, imported });
      break;
    case 'jsonld':
      ontology = await (await jsonLdReader()).readJsonLd(text, { base, imported });
      break;
    case 'ofn':
      ontology = readFunctional(text, { base });
      break;
    case 'manchester':
      ontology = (await manchesterReader()).readManchester(text, { base });
      break;
    case 'owlxml':
      ontology = (await owlXmlReader()).readOwlXml(text, { base });
      break;
    case 'obo':
      ontology = (await oboReader()).readObo(text, { base });
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
