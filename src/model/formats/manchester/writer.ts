// Writes an Ontology as a standard Manchester OWL Syntax document (W3C Manchester syntax note), the way
// the OWL API's Manchester writer does: prefixes, the ontology header, one frame for every entity the
// ontology declares or uses (a frame declares its entity, so the document read back declares them all),
// frames for anonymous individuals, misc frames (EquivalentClasses:, DisjointProperties:, SameIndividual:
// ...) and Rule: frames. Axiom annotations are written as `Annotations:` before the section item they
// annotate. What Manchester syntax has no form for is left out, as the OWL API leaves it out: general
// class axioms, axioms whose subject is an inverse property, annotations of IRIs that name no entity,
// declaration annotations; manchesterOmissions lists them. Every section item is written on its own line
// with its keyword, and every list is sorted, so the output is deterministic.

import type {
  AnonymousIndividual,
  Axiom,
  CharacteristicKind,
  ClassExpression,
  Entity,
  EntityKind,
  IRI,
  Individual,
  ObjectPropertyExpression,
} from '../../terms.js';
import type { Ontology } from '../../ontology.js';
import {
  BUILT_IN_ANNOTATION_PROPERTIES,
  BUILT_IN_DATATYPES,
  OWL_BOTTOM_DATA_PROPERTY,
  OWL_BOTTOM_OBJECT_PROPERTY,
  OWL_NOTHING,
  OWL_THING,
  OWL_TOP_DATA_PROPERTY,
  OWL_TOP_OBJECT_PROPERTY,
  STANDARD_PREFIXES,
} from '../../vocab.js';
import { ManchesterRenderer } from './render.js';
import { signature } from '../../walk.js';
import { isBuiltIn } from '../../profiles/closure-facts.js';
import { anonymousLabels } from '../../render/anonymous-labels.js';
import { unreachable } from '../../../util/unreachable.js';

const FRAME_ORDER: readonly EntityKind[] = ['AnnotationProperty', 'Datatype', 'ObjectProperty', 'DataProperty', 'Class', 'NamedIndividual'];
const FRAME_WORDS: Readonly<Record<EntityKind, string>> = {
  Class: 'Class:',
  ObjectProperty: 'ObjectProperty:',
  DataProperty: 'DataProperty:',
  AnnotationProperty: 'AnnotationProperty:',
  NamedIndividual: 'Individual:',
  Datatype: 'Datatype:',
};
const SECTION_ORDER = [
  'Annotations:',
  'SubClassOf:',
  'EquivalentTo:',
  'DisjointWith:',
  'DisjointUnionOf:',
  'HasKey:',
  'Domain:',
  'Range:',
  'Characteristics:',
  'SubPropertyOf:',
  'InverseOf:',
  'SubPropertyChain:',
  'Types:',
  'Facts:',
  'SameAs:',
  'DifferentFrom:',
];
const CHARACTERISTIC: Readonly<Record<CharacteristicKind | 'FunctionalDataProperty', string>> = {
  FunctionalObjectProperty: 'Functional',
  InverseFunctionalObjectProperty: 'InverseFunctional',
  ReflexiveObjectProperty: 'Reflexive',
  IrreflexiveObjectProperty: 'Irreflexive',
  SymmetricObjectProperty: 'Symmetric',
  AsymmetricObjectProperty: 'Asymmetric',
  TransitiveObjectProperty: 'Transitive',
  FunctionalDataProperty: 'Functional',
};

const BUILT_IN: ReadonlyArray<readonly [IRI, EntityKind]> = [
  [OWL_THING, 'Class'],
  [OWL_NOTHING, 'Class'],
  [OWL_TOP_OBJECT_PROPERTY, 'ObjectProperty'],
  [OWL_BOTTOM_OBJECT_PROPERTY, 'ObjectProperty'],
  [OWL_TOP_DATA_PROPERTY, 'DataProperty'],
  [OWL_BOTTOM_DATA_PROPERTY, 'DataProperty'],
  ...[...BUILT_IN_DATATYPES].map((i) => [i, 'Datatype'] as const),
  ...[...BUILT_IN_ANNOTATION_PROPERTIES].map((i) => [i, 'AnnotationProperty'] as const),
];

/** A local name that can follow `prefix:` as a plain token. */
function isSafeLocal(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ok =
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x41 && c <= 0x5a) ||
      c === 0x5f ||
      (i > 0 && ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e));
    if (!ok) return false;
  }
  return s[s.length - 1] !== '.';
}

/** Short names: `prefix:local` with the longest matching namespace, else `<IRI>`. */
function curieNamer(prefixes: ReadonlyMap<string, string>): (e: Entity | IRI) => string {
  const entries = [...prefixes].filter(([, ns]) => ns.length > 0).sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const cache = new Map<IRI, string>();
  return (e) => {
    const iri = typeof e === 'string' ? e : e.iri;
    let s = cache.get(iri);
    if (s === undefined) {
      s = '<' + iri + '>';
      for (const [p, ns] of entries) {
        if (iri.startsWith(ns) && isSafeLocal(iri.slice(ns.length))) {
          s = p + iri.slice(ns.length);
          break;
        }
      }
      cache.set(iri, s);
    }
    return s;
  };
}

interface Frame {
  readonly sortKey: string;
  readonly head: string;
  readonly sections: Map<string, string[]>;
}

export function writeManchester(o: Ontology): string {
  return new ManchesterWriter(o).write();
}

/** The axioms a Manchester document of `o` leaves out (annotated declarations: written without their annotations). */
export function manchesterOmissions(o: Ontology): Axiom[] {
  const w = new ManchesterWriter(o);
  w.write();
  return w.omitted;
}

class ManchesterWriter {
  private readonly r: ManchesterRenderer;
  private readonly kinds = new Map<IRI, Set<EntityKind>>();
  /** Frames keyed by kind + ' ' + IRI (entities) or node id (anonymous individuals). */
  private readonly frames = new Map<string, Frame>();
  private readonly misc: string[] = [];
  readonly omitted: Axiom[] = [];

  constructor(private readonly o: Ontology) {
    const labels = anonymousLabels(o, '_:b');
    // the standard prefixes need no declaration: the reader knows them (a declared prefix wins)
    this.r = new ManchesterRenderer(curieNamer(new Map([...STANDARD_PREFIXES, ...o.prefixes])), {
      anonymous: (a) => labels.get(a) ?? '_:' + a.nodeId,
      explicitLiteralFiller: true,
    });
    for (const [iri, k] of BUILT_IN) this.addKind(iri, k);
  }

  private addKind(iri: IRI, k: EntityKind): void {
    let s = this.kinds.get(iri);
    if (s === undefined) this.kinds.set(iri, (s = new Set()));
    s.add(k);
  }

  write(): string {
    const o = this.o;
    for (const a of o.axioms()) {
      if (a.kind === 'Declaration') {
        this.addKind(a.entity.iri, a.entity.kind);
        this.frame(a.entity);
        continue;
      }
      for (const e of signature(a)) {
        if (isBuiltIn(e)) continue;
        this.addKind(e.iri, e.kind);
        this.frame(e);
      }
    }
    for (const a of o.axioms()) this.place(a);

    const out: string[] = [];
    for (const [p, ns] of [...o.prefixes].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) out.push(`Prefix: ${p} <${ns}>`);
    out.push('', 'Ontology:' + (o.id.iri ? ' <' + o.id.iri + '>' + (o.id.versionIri ? ' <' + o.id.versionIri + '>' : '') : ''));
    for (const i of [...o.imports].sort()) out.push('Import: <' + i + '>');
    for (const a of sorted([...o.annotations].map((x) => this.r.annotation(x)))) out.push('Annotations: ' + a);
    const frames = [...this.frames.values()].sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
    for (const f of frames) {
      out.push('', f.head);
      for (const s of SECTION_ORDER) {
        const items = f.sections.get(s);
        if (items) for (const item of sorted(items)) out.push('    ' + s + ' ' + item);
      }
    }
    if (this.misc.length) out.push('', ...sorted(this.misc));
    return out.join('\n') + '\n';
  }

  private frame(e: Entity): Frame {
    const key = e.kind + ' ' + e.iri;
    let f = this.frames.get(key);
    if (f === undefined) {
      const name = this.r.name(e);
      f = { sortKey: FRAME_ORDER.indexOf(e.kind) + ' ' + name, head: FRAME_WORDS[e.kind] + ' ' + name, sections: new Map() };
      this.frames.set(key, f);
    }
    return f;
  }

  private anonymousFrame(a: AnonymousIndividual): Frame {
    const key = '_:' + a.nodeId;
    let f = this.frames.get(key);
    if (f === undefined) {
      const name = this.r.individual(a);
      this.frames.set(key, (f = { sortKey: FRAME_ORDER.length + ' ' + name, head: 'Individual: ' + name, sections: new Map() }));
    }
    return f;
  }

  /** The frame of a declared entity of this kind, or undefined. */
  private declared(kind: EntityKind, iri: IRI): Frame | undefined {
    return this.frames.get(kind + ' ' + iri);
  }

  private has(iri: IRI, k: EntityKind): boolean {
    return this.kinds.get(iri)?.has(k) ?? false;
  }

  /** Whether the reader's kind rules read a named property in object (or data) position as intended. */
  private readsAsObject(p: ObjectPropertyExpression): boolean {
    return p.kind === 'ObjectInverseOf' || this.has(p.iri, 'ObjectProperty') || !this.has(p.iri, 'DataProperty');
  }

  private readsAsData(iri: IRI): boolean {
    return this.has(iri, 'DataProperty') && !this.has(iri, 'ObjectProperty');
  }

  private add(f: Frame, section: string, a: Axiom, item: string): void {
    let list = f.sections.get(section);
    if (list === undefined) f.sections.set(section, (list = []));
    list.push(this.r.annotationsPrefix(a.annotations) + item);
  }

  private individualFrame(i: Individual): Frame | undefined {
    return i.kind === 'AnonymousIndividual' ? this.anonymousFrame(i) : this.declared('NamedIndividual', i.iri);
  }

  /** Puts an axiom in a frame section, a misc frame or a Rule: frame, or records it as omitted. */
  private place(a: Axiom): void {
    const r = this.r;
    const ce = (c: ClassExpression) => r.classExpression(c);
    const anns = r.annotationsPrefix(a.annotations);
    let f: Frame | undefined;
    switch (a.kind) {
      case 'Declaration':
        // the frame declares the entity; Manchester syntax has no place for a declaration's annotations
        if (a.annotations.length > 0) this.omitted.push(a);
        return;
      case 'SubClassOf':
        if (a.sub.kind === 'Class' && (f = this.declared('Class', a.sub.iri))) return this.add(f, 'SubClassOf:', a, ce(a.sup));
        break;
      case 'EquivalentClasses':
      case 'DisjointClasses':
        this.misc.push(a.kind + ': ' + anns + sorted(a.classes.map(ce)).join(', '));
        return;
      case 'DisjointUnion':
        if ((f = this.declared('Class', a.cls.iri))) return this.add(f, 'DisjointUnionOf:', a, sorted(a.classes.map(ce)).join(', '));
        break;
      case 'HasKey':
        if (
          a.cls.kind === 'Class' &&
          (f = this.declared('Class', a.cls.iri)) &&
          a.objectProperties.every((p) => this.readsAsObject(p)) &&
          a.dataProperties.every((p) => this.readsAsData(p.iri))
        ) {
          const ps = [...a.objectProperties.map((p) => r.objectProperty(p)), ...a.dataProperties.map((p) => r.name(p))];
          return this.add(f, 'HasKey:', a, sorted(ps).join(', '));
        }
        break;
      case 'ObjectPropertyDomain':
      case 'ObjectPropertyRange':
        if (a.property.kind === 'ObjectProperty' && (f = this.declared('ObjectProperty', a.property.iri))) {
          return this.add(
            f,
            a.kind === 'ObjectPropertyDomain' ? 'Domain:' : 'Range:',
            a,
            ce(a.kind === 'ObjectPropertyDomain' ? a.domain : a.range),
          );
        }
        break;
      case 'FunctionalObjectProperty':
      case 'InverseFunctionalObjectProperty':
      case 'ReflexiveObjectProperty':
      case 'IrreflexiveObjectProperty':
      case 'SymmetricObjectProperty':
      case 'AsymmetricObjectProperty':
      case 'TransitiveObjectProperty':
        if (a.property.kind === 'ObjectProperty' && (f = this.declared('ObjectProperty', a.property.iri))) {
          return this.add(f, 'Characteristics:', a, CHARACTERISTIC[a.kind]);
        }
        break;
      case 'SubObjectPropertyOf':
        if (a.sub.kind === 'ObjectProperty' && (f = this.declared('ObjectProperty', a.sub.iri)))
          return this.add(f, 'SubPropertyOf:', a, r.objectProperty(a.sup));
        break;
      case 'InverseObjectProperties':
        if (a.first.kind === 'ObjectProperty' && (f = this.declared('ObjectProperty', a.first.iri)))
          return this.add(f, 'InverseOf:', a, r.objectProperty(a.second));
        if (a.second.kind === 'ObjectProperty' && (f = this.declared('ObjectProperty', a.second.iri)))
          return this.add(f, 'InverseOf:', a, r.objectProperty(a.first));
        break;
      case 'SubPropertyChainOf':
        if (a.sup.kind === 'ObjectProperty' && (f = this.declared('ObjectProperty', a.sup.iri))) {
          return this.add(f, 'SubPropertyChain:', a, a.chain.map((p) => r.objectProperty(p)).join(' o '));
        }
        break;
      case 'EquivalentObjectProperties':
      case 'DisjointObjectProperties': {
        const ps = a.properties;
        if (
          ps.some((p) => p.kind === 'ObjectInverseOf' || this.has(p.iri, 'ObjectProperty')) ||
          ps.every((p) => p.kind === 'ObjectProperty' && !this.has(p.iri, 'DataProperty'))
        ) {
          this.misc.push(
            (a.kind === 'EquivalentObjectProperties' ? 'EquivalentProperties: ' : 'DisjointProperties: ') +
              anns +
              sorted(ps.map((p) => r.objectProperty(p))).join(', '),
          );
          return;
        }
        break;
      }
      case 'EquivalentDataProperties':
      case 'DisjointDataProperties':
        if (a.properties.some((p) => this.has(p.iri, 'DataProperty')) && a.properties.every((p) => !this.has(p.iri, 'ObjectProperty'))) {
          this.misc.push(
            (a.kind === 'EquivalentDataProperties' ? 'EquivalentProperties: ' : 'DisjointProperties: ') +
              anns +
              sorted(a.properties.map((p) => r.name(p))).join(', '),
          );
          return;
        }
        break;
      case 'SubDataPropertyOf':
        if ((f = this.declared('DataProperty', a.sub.iri))) return this.add(f, 'SubPropertyOf:', a, r.name(a.sup));
        break;
      case 'DataPropertyDomain':
        if ((f = this.declared('DataProperty', a.property.iri))) return this.add(f, 'Domain:', a, ce(a.domain));
        break;
      case 'DataPropertyRange':
        if ((f = this.declared('DataProperty', a.property.iri))) return this.add(f, 'Range:', a, r.dataRange(a.range));
        break;
      case 'FunctionalDataProperty':
        if ((f = this.declared('DataProperty', a.property.iri))) return this.add(f, 'Characteristics:', a, 'Functional');
        break;
      case 'DatatypeDefinition':
        if ((f = this.declared('Datatype', a.datatype.iri))) return this.add(f, 'EquivalentTo:', a, r.dataRange(a.range));
        break;
      case 'SameIndividual':
      case 'DifferentIndividuals':
        this.misc.push(a.kind + ': ' + anns + sorted(a.individuals.map((i) => r.individual(i))).join(', '));
        return;
      case 'ClassAssertion':
        if ((f = this.individualFrame(a.individual))) return this.add(f, 'Types:', a, ce(a.cls));
        break;
      case 'ObjectPropertyAssertion':
      case 'NegativeObjectPropertyAssertion':
        if (a.property.kind === 'ObjectProperty' && !this.readsAsData(a.property.iri) && (f = this.individualFrame(a.subject))) {
          const not = a.kind === 'NegativeObjectPropertyAssertion' ? 'not ' : '';
          return this.add(f, 'Facts:', a, not + r.objectProperty(a.property) + ' ' + r.individual(a.object));
        }
        break;
      case 'DataPropertyAssertion':
      case 'NegativeDataPropertyAssertion':
        if (
          !(this.has(a.property.iri, 'ObjectProperty') && !this.has(a.property.iri, 'DataProperty')) &&
          (f = this.individualFrame(a.subject))
        ) {
          const not = a.kind === 'NegativeDataPropertyAssertion' ? 'not ' : '';
          return this.add(f, 'Facts:', a, not + r.name(a.property) + ' ' + r.literal(a.value));
        }
        break;
      case 'AnnotationAssertion':
        if ((f = a.subject.kind === 'AnonymousIndividual' ? this.anonymousFrame(a.subject) : this.anyFrame(a.subject.iri))) {
          return this.add(f, 'Annotations:', a, r.name(a.property) + ' ' + r.annotationValue(a.value));
        }
        break;
      case 'SubAnnotationPropertyOf':
        if ((f = this.declared('AnnotationProperty', a.sub.iri))) return this.add(f, 'SubPropertyOf:', a, r.name(a.sup));
        break;
      case 'AnnotationPropertyDomain':
      case 'AnnotationPropertyRange':
        if ((f = this.declared('AnnotationProperty', a.property.iri))) {
          return this.add(
            f,
            a.kind === 'AnnotationPropertyDomain' ? 'Domain:' : 'Range:',
            a,
            r.name(a.kind === 'AnnotationPropertyDomain' ? a.domain : a.range),
          );
        }
        break;
      case 'DLSafeRule':
        this.misc.push('Rule: ' + anns + r.axiom(a).slice(anns.length));
        return;
      default:
        return unreachable(a);
    }
    this.omitted.push(a);
  }

  private anyFrame(iri: IRI): Frame | undefined {
    for (const k of FRAME_ORDER) {
      const f = this.declared(k, iri);
      if (f) return f;
    }
    return undefined;
  }
}

const sorted = (xs: string[]) => xs.sort();
