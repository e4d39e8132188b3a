// Generates a synthetic but realistic OWL ontology of a given size (class taxonomy with labels and
// comments, existential restrictions, properties with domains/ranges, individuals with assertions) in
// Turtle and RDF/XML, and counts its triples.

const NS = 'http://bench.athene.example.org/onto#';

export interface GeneratedOntology {
  turtle: string;
  rdfxml: string;
  triples: number;
}

function* shape(targetTriples: number) {
  const properties = 200;
  let triples = 0;
  for (let p = 0; p < properties; p++) {
    yield { kind: 'property' as const, p };
    triples += 5;
  }
  let i = 0;
  while (triples < targetTriples) {
    if (i % 4 === 3) {
      yield { kind: 'individual' as const, i };
      triples += 5;
    } else {
      yield { kind: 'class' as const, i };
      triples += i % 3 === 0 ? 8 : 4;
    }
    i++;
  }
}

const classIri = (i: number) => 'C' + i;
const parentOf = (i: number) => (i < 8 ? -1 : (i * 7919) % Math.floor(i / 2));
const classForIndividual = (i: number) => (i * 31) % i || 0;

export function generateOntology(targetTriples: number): GeneratedOntology {
  const ttl: string[] = [
    `@prefix : <${NS}> .`,
    '@prefix owl: <http://www.w3.org/2002/07/owl#> .',
    '@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .',
    '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .',
    '',
    '<http://bench.athene.example.org/onto> a owl:Ontology .',
    '',
  ];
  const xml: string[] = [
    '<?xml version="1.0"?>',
    `<rdf:RDF xmlns="${NS}" xml:base="${NS}" xmlns:owl="http://www.w3.org/2002/07/owl#" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" xmlns:xsd="http://www.w3.org/2001/XMLSchema#">`,
    '<owl:Ontology rdf:about="http://bench.athene.example.org/onto"/>',
  ];
  let triples = 1;
  let classes = 0;
  for (const item of shape(targetTriples)) {
    if (item.kind === 'property') {
      const p = item.p;
      ttl.push(`:p${p} a owl:ObjectProperty ; rdfs:label "property ${p}"@en ; rdfs:domain :C${p} ; rdfs:range :C${p + 1} .`);
      ttl.push(`:d${p} a owl:DatatypeProperty .`);
      xml.push(
        `<owl:ObjectProperty rdf:about="#p${p}"><rdfs:label xml:lang="en">property ${p}</rdfs:label><rdfs:domain rdf:resource="#C${p}"/><rdfs:range rdf:resource="#C${p + 1}"/></owl:ObjectProperty>`,
      );
      xml.push(`<owl:DatatypeProperty rdf:about="#d${p}"/>`);
      triples += 5;
    } else if (item.kind === 'class') {
      const i = item.i;
      classes = Math.max(classes, i + 1);
      const parent = parentOf(i);
      const sup = parent < 0 ? 'owl:Thing' : ':' + classIri(parent);
      const supXml = parent < 0 ? 'http://www.w3.org/2002/07/owl#Thing' : '#' + classIri(parent);
      let line = `:${classIri(i)} a owl:Class ; rdfs:label "Class number ${i}"@en ; rdfs:subClassOf ${sup}`;
      let x = `<owl:Class rdf:about="#${classIri(i)}"><rdfs:label xml:lang="en">Class number ${i}</rdfs:label><rdfs:subClassOf rdf:resource="${supXml}"/>`;
      triples += 3;
      if (i % 3 === 0 && i > 0) {
        const p = i % 200;
        const filler = (i * 13) % i;
        line += ` ; rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :p${p} ; owl:someValuesFrom :${classIri(filler)} ]`;
        x += `<rdfs:subClassOf><owl:Restriction><owl:onProperty rdf:resource="#p${p}"/><owl:someValuesFrom rdf:resource="#${classIri(filler)}"/></owl:Restriction></rdfs:subClassOf>`;
        triples += 4;
      }
      line += ` ; rdfs:comment "Generated class ${i}, child of ${parent < 0 ? 'Thing' : classIri(parent)}." .`;
      x += `<rdfs:comment>Generated class ${i}, child of ${parent < 0 ? 'Thing' : classIri(parent)}.</rdfs:comment></owl:Class>`;
      triples += 1;
      ttl.push(line);
      xml.push(x);
    } else {
      const i = item.i;
      const c = classForIndividual(i);
      const other = (i * 17) % i;
      ttl.push(
        `:i${i} a owl:NamedIndividual , :${classIri(c)} ; :p${i % 200} :i${other - (other % 4) + 3} ; :d${i % 200} ${i} ; rdfs:label "individual ${i}" .`,
      );
      xml.push(
        `<owl:NamedIndividual rdf:about="#i${i}"><rdf:type rdf:resource="#${classIri(c)}"/><p${i % 200} rdf:resource="#i${other - (other % 4) + 3}"/><d${i % 200} rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">${i}</d${i % 200}><rdfs:label>individual ${i}</rdfs:label></owl:NamedIndividual>`,
      );
      triples += 5;
    }
  }
  xml.push('</rdf:RDF>');
  return { turtle: ttl.join('\n') + '\n', rdfxml: xml.join('\n') + '\n', triples };
}
