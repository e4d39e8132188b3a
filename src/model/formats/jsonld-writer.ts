// JSON-LD serializer of the OWL 2 RDF mapping: a "@graph" of node objects with full IRIs as keys and
// values (so no context processing can change their meaning), blank nodes used once nested, RDF lists as
// "@list". The "@context" only records the document's prefix map.

import type { Ontology } from '../ontology.js';
import { XSD_STRING } from '../vocab.js';
import {
  Blank,
  isNestable,
  listItems,
  orderGraph,
  owlToTriples,
  type OrderedGraph,
  type RdfObject,
  type SubjectBlock,
} from '../rdf/owl-to-triples.js';

type Json = string | Json[] | { [key: string]: Json };

class JsonLdBody {
  /** IRI schemes written, so no context prefix of the same name can turn an IRI into a compact IRI. */
  readonly schemes = new Set<string>();

  constructor(private readonly g: OrderedGraph) {}

  private iri(iri: string): string {
    const colon = iri.indexOf(':');
    if (colon > 0) this.schemes.add(iri.slice(0, colon));
    return iri;
  }

  graph(): Json[] {
    const out: Json[] = [];
    for (const block of this.g.blocks) {
      const s = block.subject;
      if (s instanceof Blank && isNestable(this.g, s)) continue;
      const id = typeof s === 'string' ? this.iri(s) : !s.individual && !this.g.refs.has(s) ? null : '_:' + s.label;
      out.push(this.node(block, id));
    }
    return out;
  }

  private node(block: SubjectBlock, id: string | null): { [key: string]: Json } {
    const node: { [key: string]: Json } = {};
    if (id !== null) node['@id'] = id;
    for (const [i, p] of block.p.entries()) {
      const key = this.iri(p);
      const value = this.value(block.o[i]!);
      const values = node[key] as Json[] | undefined;
      if (values === undefined) node[key] = [value];
      else values.push(value);
    }
    return node;
  }

  private value(o: RdfObject): Json {
    if (typeof o === 'string') return { '@id': this.iri(o) };
    if (!(o instanceof Blank)) {
      if (o.lang) return { '@value': o.lex, '@language': o.lang };
      return o.datatype === XSD_STRING ? { '@value': o.lex } : { '@value': o.lex, '@type': this.iri(o.datatype) };
    }
    if (!isNestable(this.g, o)) return { '@id': '_:' + o.label };
    const items = listItems(this.g, o);
    if (items !== null) return { '@list': items.map((x) => this.value(x)) };
    const block = this.g.blockOf.get(o);
    return block === undefined ? {} : this.node(block, null);
  }
}

export function writeJsonLd(o: Ontology): string {
  const body = new JsonLdBody(orderGraph(owlToTriples(o)));
  const graph = body.graph();
  const context: { [key: string]: Json } = {};
  for (const [k, ns] of [...o.prefixes].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const name = k.endsWith(':') ? k.slice(0, -1) : k;
    if (name === '' || name.startsWith('@') || name.includes(':') || body.schemes.has(name) || ns.length === 0) continue;
    context[name] = ns;
  }
  return JSON.stringify({ '@context': context, '@graph': graph }, null, 2) + '\n';
}
