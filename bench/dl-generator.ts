// Generated pizza-like OWL 2 DL ontologies, outside the EL profile the way hand-built ontologies are:
// topping categories (pairwise disjoint siblings) and toppings below them; pizzas with existential
// toppings closed by a universal over their union (disjunction), an exact-cardinality base; defined
// classes over universals (vegetarian), negation (non-vegetarian), existentials (one per category) and
// minimum cardinality (interesting); and a few unsatisfiable toppings below two disjoint categories.
// At scale 1 it is about the size of pizza.owl; deterministic for a given scale.

import {
  cls,
  declaration,
  disjointClasses,
  equivalentClasses,
  objectAllValuesFrom,
  objectComplementOf,
  objectExactCardinality,
  objectIntersectionOf,
  objectMinCardinality,
  objectProperty,
  objectPropertyCharacteristic,
  objectSomeValuesFrom,
  objectUnionOf,
  subClassOf,
  type Axiom,
  type Class,
} from '../src/model/terms.js';
import { entry } from './el-generator.js';

export const DL_NS = 'http://example.org/syn-dl#';

const CATEGORIES_PER_SCALE = 8;
const TOPPINGS_PER_CATEGORY = 6;
const PIZZAS_PER_SCALE = 25;
const TOPPINGS_PER_PIZZA = 3;

/** The axioms of a pizza-like ontology `scale` times the size of the smallest one. */
export function generateDlOntology(scale: number): Axiom[] {
  const out: Axiom[] = [];
  const c = (name: string): Class => {
    const k = cls(DL_NS + name);
    out.push(declaration(k));
    return k;
  };
  const hasTopping = objectProperty(DL_NS + 'hasTopping');
  const hasBase = objectProperty(DL_NS + 'hasBase');
  out.push(declaration(hasTopping), declaration(hasBase), objectPropertyCharacteristic('FunctionalObjectProperty', hasBase));
  const pizza = c('Pizza');
  const topping = c('Topping');
  const base = c('PizzaBase');
  const vegetarianTopping = c('VegetarianTopping');
  out.push(disjointClasses([pizza, topping, base]), subClassOf(vegetarianTopping, topping));

  const categories: Class[] = [];
  const toppings: Class[][] = [];
  const vegetarianCategories: Class[] = [];
  for (let k = 0; k < CATEGORIES_PER_SCALE * scale; k++) {
    const category = c(`Category${k}`);
    categories.push(category);
    out.push(subClassOf(category, topping));
    // every third category is meat, the rest are vegetarian
    if (k % 3 !== 0) vegetarianCategories.push(category);
    const members: Class[] = [];
    for (let i = 0; i < TOPPINGS_PER_CATEGORY; i++) {
      const t = c(`Topping${k}_${i}`);
      members.push(t);
      out.push(subClassOf(t, category));
    }
    toppings.push(members);
    out.push(disjointClasses(members));
  }
  // siblings are disjoint in groups of eight categories, as pizza's topping categories are
  for (let k = 0; k < categories.length; k += 8) out.push(disjointClasses(categories.slice(k, k + 8)));
  out.push(equivalentClasses([vegetarianTopping, objectUnionOf(vegetarianCategories)]));
  // a topping in two disjoint categories cannot exist
  for (let k = 0; k + 1 < categories.length; k += 8) {
    const impossible = c(`ImpossibleTopping${k}`);
    out.push(subClassOf(impossible, entry(categories, k)), subClassOf(impossible, entry(categories, k + 1)));
  }

  const vegetarianPizza = c('VegetarianPizza');
  const nonVegetarianPizza = c('NonVegetarianPizza');
  const interestingPizza = c('InterestingPizza');
  out.push(
    equivalentClasses([vegetarianPizza, objectIntersectionOf([pizza, objectAllValuesFrom(hasTopping, vegetarianTopping)])]),
    equivalentClasses([nonVegetarianPizza, objectIntersectionOf([pizza, objectComplementOf(vegetarianPizza)])]),
    equivalentClasses([interestingPizza, objectIntersectionOf([pizza, objectMinCardinality(3, hasTopping)])]),
    subClassOf(pizza, objectExactCardinality(1, hasBase, base)),
  );
  categories.forEach((category, k) => {
    out.push(equivalentClasses([c(`Category${k}Pizza`), objectIntersectionOf([pizza, objectSomeValuesFrom(hasTopping, category)])]));
  });

  const flat = toppings.flat();
  for (let j = 0; j < PIZZAS_PER_SCALE * scale; j++) {
    const p = c(`NamedPizza${j}`);
    out.push(subClassOf(p, pizza));
    // toppings spread over categories with strides that are coprime to most category counts
    const chosen = [...new Set(Array.from({ length: TOPPINGS_PER_PIZZA }, (_, i) => entry(flat, (j * 7 + i * 13 + i * j) % flat.length)))];
    for (const t of chosen) out.push(subClassOf(p, objectSomeValuesFrom(hasTopping, t)));
    const [only] = chosen;
    out.push(subClassOf(p, objectAllValuesFrom(hasTopping, chosen.length === 1 && only !== undefined ? only : objectUnionOf(chosen))));
  }
  return out;
}
