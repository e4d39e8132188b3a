// An engine validation result as the row every SHACL surface reports (protocol.ts ShaclResult): terms as
// text, the path in SPARQL property-path syntax, the severity by its SHACL local name, one message.

import type * as RDF from '@rdfjs/types';
import type { PathStep, ValidationResult } from 'shacl-engine';
import { iriRef, quoted } from '../model/formats/turtle-writer.js';
import { XSD_STRING } from '../model/vocab.js';
import type { ShaclResult } from './protocol.js';

export const SH = 'http://www.w3.org/ns/shacl#';

const SEVERITIES = new Set([SH + 'Violation', SH + 'Warning', SH + 'Info']);

/** An IRI as itself, a blank node as `_:label`, a literal in N-Triples syntax. */
export function termText(t: RDF.Term): string {
  if (t.termType === 'NamedNode') return t.value;
  if (t.termType === 'BlankNode') return '_:' + t.value;
  if (t.termType === 'Literal') {
    if (t.language !== '') return quoted(t.value) + '@' + t.language;
    return t.datatype.value === XSD_STRING ? quoted(t.value) : quoted(t.value) + '^^' + iriRef(t.datatype.value);
  }
  return t.value;
}

function stepText(step: PathStep): string {
  const alternatives = step.predicates.map((p) => iriRef(p.value));
  const [single] = alternatives;
  let text = alternatives.length === 1 && single !== undefined ? single : `(${alternatives.join('|')})`;
  if (step.start === 'object') text = '^' + text;
  const suffix =
    step.quantifier === 'oneOrMore' ? '+' : step.quantifier === 'zeroOrMore' ? '*' : step.quantifier === 'zeroOrOne' ? '?' : '';
  return suffix === '' ? text : (step.start === 'object' ? `(${text})` : text) + suffix;
}

/** A plain predicate path as the bare IRI (the common case); anything else in SPARQL property-path syntax. */
export function pathText(path: readonly PathStep[] | null | undefined): string | null {
  if (path === null || path === undefined || path.length === 0) return null;
  const [only] = path;
  const [predicate] = only?.predicates ?? [];
  if (
    path.length === 1 &&
    only?.quantifier === 'one' &&
    only.start === 'subject' &&
    only.predicates.length === 1 &&
    predicate !== undefined
  )
    return predicate.value;
  return path.map(stepText).join('/');
}

/** The message in `language`, else an untagged one, else the first by (language, text). */
function pickMessage(messages: readonly RDF.Literal[], language: string): string | null {
  if (messages.length === 0) return null;
  const exact = messages.find((m) => m.language.toLowerCase() === language.toLowerCase());
  if (exact !== undefined) return exact.value;
  const plain = messages.find((m) => m.language === '');
  if (plain !== undefined) return plain.value;
  const [first] = [...messages].sort((a, b) =>
    a.language === b.language ? (a.value < b.value ? -1 : 1) : a.language < b.language ? -1 : 1,
  );
  return first?.value ?? null;
}

const localName = (iri: string): string => iri.slice(Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/')) + 1);

/** The engine's own namespace for debug and trace entries, which are not validation results. */
const ENGINE_NOTES = 'https://schemas.link/shacl-next#';

export function isValidationResult(r: ValidationResult): boolean {
  return !r.severity.value.startsWith(ENGINE_NOTES);
}

export function resultRow(r: ValidationResult, language: string): ShaclResult {
  const focus = r.focusNode.term ?? r.focusNode.terms[0];
  const value = r.value?.term ?? r.value?.terms[0];
  const severity = r.severity.value;
  const component = r.constraintComponent.value;
  const path = pathText(r.path);
  const shape = r.shape.ptr.term ?? r.shape.ptr.terms[0];
  return {
    focus_node: focus === undefined ? '' : termText(focus),
    result_path: path,
    value: value === undefined ? null : termText(value),
    severity: SEVERITIES.has(severity) ? severity.slice(SH.length) : severity,
    constraint_component: component,
    source_shape: shape === undefined ? '' : termText(shape),
    message: pickMessage(r.message, language) ?? `${localName(component)} not satisfied${path === null ? '' : ` at ${path}`}`,
  };
}
