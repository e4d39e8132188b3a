// The RDF/XML parser every reader uses: rdfxml-streaming-parser with its DOCTYPE entities bounded.

import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { declareBoundedEntities } from './xml-entities.js';

interface SaxPosition {
  readonly ENTITIES: Record<string, string>;
  readonly line: number;
  readonly column: number;
}

/**
 * An RdfXmlParser whose DOCTYPE entities are bounded (xml-entities.ts): set `documentLength` before writing.
 * Errors carry saxes' `line:column:` prefix, which the readers turn into their positioned errors.
 */
export class BoundedRdfXmlParser extends RdfXmlParser {
  documentLength = 0;

  protected override onDoctype(doctype: string): void {
    const sax = (this as unknown as { saxParser: SaxPosition }).saxParser;
    declareBoundedEntities(doctype, sax.ENTITIES, this.documentLength, (detail) => {
      throw new Error(`${sax.line}:${sax.column + 1}: ${detail}`);
    });
  }
}
