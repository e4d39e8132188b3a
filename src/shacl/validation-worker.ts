// The SHACL validation thread: keeps the data graph it was last given (an n3 Store, keyed by the model state
// it was built from) and validates it against each request's shapes graph with shacl-engine. Validation is
// CPU-bound and cannot be interrupted, so it lives here, where the engine bounds it by terminating the thread.

import { DataFactory, Store } from 'n3';
import type * as RDF from '@rdfjs/types';
import { Validator } from 'shacl-engine';
import { parseRdf, RdfSyntaxError } from './rdf-parse.js';
import { isValidationResult, resultRow, SH } from './result-rows.js';
import { ShaclFailure, type ShaclResult, type ShapesDocument, type ValidationRequest } from './protocol.js';
import { HeldDataMissing, type HeldDataApi } from '../util/held-data-worker.js';
import { crossesThreads, exposeToParent } from '../util/thread-link.js';

crossesThreads(ShaclFailure);

const factory = { ...DataFactory, dataset: (): RDF.DatasetCore => new Store() as unknown as RDF.DatasetCore };

let loaded: { key: string; store: Store } | null = null;

async function dataStore(req: ValidationRequest): Promise<Store> {
  if (req.documents !== undefined) {
    loaded = null;
    const store = new Store();
    for (const [i, document] of req.documents.entries()) {
      try {
        store.addQuads((await parseRdf(document, 'ntriples', undefined, `d${i}b`)) as never);
      } catch (e) {
        throw new ShaclFailure(`The data graph (document ${i + 1} of the imports closure) does not parse: ${(e as Error).message}`, 'data');
      }
    }
    loaded = { key: req.dataKey, store };
  }
  if (loaded === null || loaded.key !== req.dataKey) throw new HeldDataMissing();
  return loaded.store;
}

async function shapesStore(shapes: readonly ShapesDocument[]): Promise<Store> {
  const store = new Store();
  for (const [i, doc] of shapes.entries()) {
    try {
      store.addQuads((await parseRdf(doc.text, doc.format, doc.base, `s${i}b`)) as never);
    } catch (e) {
      const detail = e instanceof RdfSyntaxError ? e.message : (e as Error).message;
      throw new ShaclFailure(`${doc.origin}: the SHACL shapes (${doc.format}) do not parse: ${detail}`, 'shapes');
    }
  }
  return store;
}

/** SPARQL-based constraints and targets need a SPARQL engine (comunica), loaded only for shapes that use them. */
async function sparqlPlugins(shapes: Store): Promise<{ validations?: unknown; targetResolvers?: unknown }> {
  const uses =
    shapes.countQuads(null, DataFactory.namedNode(SH + 'sparql'), null, null) > 0 ||
    shapes.countQuads(null, DataFactory.namedNode(SH + 'target'), null, null) > 0;
  if (!uses) return {};
  const plugin = await import('shacl-engine/sparql.js');
  return { validations: plugin.validations, targetResolvers: plugin.targetResolvers };
}

const origins = (shapes: readonly ShapesDocument[]): string => shapes.map((s) => s.origin).join(', ');

async function validate(req: ValidationRequest): Promise<readonly ShaclResult[]> {
  const data = await dataStore(req);
  const shapes = await shapesStore(req.shapes);
  let validator: Validator;
  try {
    validator = new Validator(shapes as unknown as RDF.DatasetCore, { factory, ...(await sparqlPlugins(shapes)) });
  } catch (e) {
    throw new ShaclFailure(`${origins(req.shapes)}: the shapes graph is not valid SHACL: ${(e as Error).message}`, 'shapes');
  }
  if (validator.shapes.size === 0) {
    throw new ShaclFailure(
      `${origins(req.shapes)}: the graph declares no SHACL shapes (no sh:NodeShape, sh:PropertyShape or shape with a target)`,
      'shapes',
    );
  }
  try {
    const report = await validator.validate({ dataset: data as unknown as RDF.DatasetCore });
    return report.results.filter(isValidationResult).map((r) => resultRow(r, req.language));
  } catch (e) {
    throw new ShaclFailure(`${origins(req.shapes)}: the shapes could not be evaluated: ${(e as Error).message}`, 'shapes');
  }
}

const api: HeldDataApi<ValidationRequest, readonly ShaclResult[]> = {
  async run(req) {
    try {
      return await validate(req);
    } catch (e) {
      if (e instanceof ShaclFailure || e instanceof HeldDataMissing) throw e;
      throw new ShaclFailure(`The SHACL engine failed: ${(e as Error).message}`, 'engine');
    }
  },
};
exposeToParent(api);
