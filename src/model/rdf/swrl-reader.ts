// SWRL rules in RDF (swrl:Imp with swrl:body / swrl:head atom lists) → DLSafeRule axioms.

import {
  type Atom,
  type DArg,
  type IArg,
  builtInAtom,
  classAtom,
  dataPropertyAtom,
  dataRangeAtom,
  differentIndividualsAtom,
  dlSafeRule,
  objectPropertyAtom,
  sameIndividualAtom,
  variable,
} from '../terms.js';
import type { TermId } from './rdf-graph-reader.js';
import { RDF_TYPE, S } from './vocab-reader.js';
import type { RdfToOwl } from './triples-to-owl.js';
import { Unmappable } from './triples-to-owl.js';

export class SwrlReader {
  constructor(private readonly m: RdfToOwl) {}

  /** Maps the rule node x; its annotation triples become the rule's annotations. */
  mapRule(x: TermId): boolean {
    const m = this.m;
    const body = this.atoms(m.use(x, S.body));
    const head = this.atoms(m.use(x, S.head));
    const anns = m.annotationsOf(x);
    m.useStructure(x);
    m.axioms.add(dlSafeRule(body, head, anns));
    return true;
  }

  private atoms(list: TermId): Atom[] {
    if (list < 0) return [];
    return this.m.list(this.m.ref(list)).map((a) => this.atom(a));
  }

  private atom(x: TermId): Atom {
    const m = this.m;
    const type = m.use(x, RDF_TYPE);
    const arg = (p: TermId) => {
      const v = m.use(x, p);
      return v >= 0 ? v : fail('SWRL atom without <' + m.iri(p) + '>');
    };
    let atom: Atom;
    switch (type) {
      case S.ClassAtom:
        atom = classAtom(m.ce(m.ref(arg(S.classPredicate))), this.iarg(arg(S.argument1)));
        break;
      case S.DataRangeAtom:
        atom = dataRangeAtom(m.dataRange(m.ref(arg(S.dataRange))), this.darg(arg(S.argument1)));
        break;
      case S.IndividualPropertyAtom:
        atom = objectPropertyAtom(m.ope(m.ref(arg(S.propertyPredicate))), this.iarg(arg(S.argument1)), this.iarg(arg(S.argument2)));
        break;
      case S.DatavaluedPropertyAtom:
        atom = dataPropertyAtom(m.dataProp(m.ref(arg(S.propertyPredicate))), this.iarg(arg(S.argument1)), this.darg(arg(S.argument2)));
        break;
      case S.BuiltinAtom: {
        const args = m.listOf(m.ref(arg(S.arguments)), (t) => this.darg(t));
        atom = builtInAtom(m.iri(m.named(m.ref(arg(S.builtin)))), args);
        break;
      }
      case S.SameIndividualAtom:
        atom = sameIndividualAtom(this.iarg(arg(S.argument1)), this.iarg(arg(S.argument2)));
        break;
      case S.DifferentIndividualsAtom:
        atom = differentIndividualsAtom(this.iarg(arg(S.argument1)), this.iarg(arg(S.argument2)));
        break;
      default:
        return fail('unknown SWRL atom type');
    }
    m.useStructure(x);
    return atom;
  }

  private isVariable(t: TermId): boolean {
    for (const i of this.m.triplesOf(t)) {
      if (this.m.p[i] === RDF_TYPE && this.m.o[i] === S.Variable) {
        this.m.useStructure(t);
        return true;
      }
    }
    return false;
  }

  private iarg(t: TermId): IArg {
    const k = this.m.ref(t);
    return this.m.isIri(k) && this.isVariable(k) ? variable(this.m.iri(k)) : this.m.individual(k);
  }

  private darg(t: TermId): DArg {
    const l = this.m.lit(t);
    if (l !== undefined) return l;
    return this.m.isIri(t) && this.isVariable(t) ? variable(this.m.iri(t)) : fail('SWRL data argument is neither a literal nor a variable');
  }
}

function fail(reason: string): never {
  throw new Unmappable(reason);
}
