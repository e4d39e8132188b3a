// The `ontology-annotations` store: one ontology annotation per competency question under
// `urn:athene:cq#competencyQuestion` (design IRI), its value the question's manifest entry as one JSON
// xsd:string. Edits are changes for the change engine, so an add or a remove is one undo unit.

import * as t from '../model/terms.js';
import type { Change } from '../model/changes.js';
import type { Ontology } from '../model/ontology.js';
import { XSD_STRING } from '../model/vocab.js';
import { CqFormatError, questionFrom, questionJson, type CompetencyQuestion } from './question.js';

export const CQ_PROPERTY = 'urn:athene:cq#competencyQuestion';

export const ANNOTATION_TARGET = 'the active ontology (annotations)';

export interface AnnotatedQuestion {
  readonly question: CompetencyQuestion;
  readonly annotation: t.Annotation;
}

export interface AnnotationLoad {
  readonly questions: readonly AnnotatedQuestion[];
  readonly skipped: readonly { source: string; reason: string }[];
}

/** The annotation's JSON value, or why it is not a competency question. */
function decode(a: t.Annotation): CompetencyQuestion {
  if (a.value.kind !== 'Literal') throw new CqFormatError('the value is not a literal');
  let parsed: unknown;
  try {
    parsed = JSON.parse(a.value.lex);
  } catch (e) {
    throw new CqFormatError(`the value is not JSON: ${(e as Error).message}`);
  }
  return questionFrom(parsed);
}

/** Every competency question annotation of `o`, sorted by id; malformed or duplicate ones are skipped. */
export function loadAnnotations(o: Ontology): AnnotationLoad {
  const found: AnnotatedQuestion[] = [];
  const skipped: { source: string; reason: string }[] = [];
  const candidates = [...o.annotations].filter((a) => a.property.iri === CQ_PROPERTY);
  // The literal text orders them totally whatever order the document listed them in.
  candidates.sort((a, b) => (valueText(a) < valueText(b) ? -1 : valueText(a) > valueText(b) ? 1 : 0));
  const seen = new Set<string>();
  candidates.forEach((a) => {
    const source = `${ANNOTATION_TARGET} ${snippet(valueText(a))}`;
    try {
      const q = decode(a);
      if (seen.has(q.id)) throw new CqFormatError(`duplicate id '${q.id}' (an earlier annotation holds it)`);
      seen.add(q.id);
      found.push({ question: q, annotation: a });
    } catch (e) {
      if (!(e instanceof CqFormatError)) throw e;
      skipped.push({ source, reason: e.message });
    }
  });
  found.sort((x, y) => (x.question.id < y.question.id ? -1 : x.question.id > y.question.id ? 1 : 0));
  return { questions: found, skipped };
}

function valueText(a: t.Annotation): string {
  return a.value.kind === 'Literal' ? a.value.lex : a.value.kind === 'IRI' ? a.value.iri : a.value.nodeId;
}

const snippet = (s: string): string => (s.length > 80 ? JSON.stringify(s.slice(0, 77) + '...') : JSON.stringify(s));

export function questionAnnotation(q: CompetencyQuestion): t.Annotation {
  return t.annotation(
    t.entity('AnnotationProperty', CQ_PROPERTY) as t.AnnotationProperty,
    t.literal(JSON.stringify(questionJson(q)), XSD_STRING),
  );
}

/** The changes that store `q` in `o`, replacing the annotation holding the same id (and declaring the property once). */
export function addChanges(o: Ontology, q: CompetencyQuestion): Change[] {
  const changes: Change[] = [];
  const declaration = t.declaration(t.entity('AnnotationProperty', CQ_PROPERTY));
  if (!o.has(declaration)) changes.push({ kind: 'AddAxiom', ontology: o, axiom: declaration });
  const annotation = questionAnnotation(q);
  for (const old of loadAnnotations(o).questions) {
    if (old.question.id === q.id && old.annotation !== annotation)
      changes.push({ kind: 'RemoveOntologyAnnotation', ontology: o, annotation: old.annotation });
  }
  if (!o.annotations.has(annotation)) changes.push({ kind: 'AddOntologyAnnotation', ontology: o, annotation });
  return changes;
}

/** The change that removes the question `id`, or null when no annotation holds it. */
export function removeChange(o: Ontology, id: string): Change | null {
  const held = loadAnnotations(o).questions.find((a) => a.question.id === id);
  return held === undefined ? null : { kind: 'RemoveOntologyAnnotation', ontology: o, annotation: held.annotation };
}
