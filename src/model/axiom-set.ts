// The set of an ontology's axioms, keyed by the interned nodes' ids.
//
// A JS Set of a million objects spends most of its time on cache misses: every insert lands in a random
// bucket. Interned ids are handed out in creation order, so an ontology's axioms mostly have increasing
// ids; with the id itself as the home slot, a bulk insert walks the table nearly sequentially and finds
// its slot free. A slot holds the axiom's position in `items` + 1 (0: free): four bytes per slot.
//
// Iteration follows insertion order, as a Set's does: removal leaves a hole in `items` that iteration
// skips; holes are squeezed out when they outnumber the live axioms.

import type { Axiom } from './terms.js';

const MIN_CAPACITY = 16;

export class AxiomSet implements Iterable<Axiom> {
  /** Open addressing, linear probing, at most half full. */
  private slots: Int32Array;
  private items: (Axiom | undefined)[] = [];
  private live = 0;

  constructor(axioms: Iterable<Axiom> = [], expected = 0) {
    this.slots = new Int32Array(capacityFor(expected));
    for (const a of axioms) this.add(a);
  }

  get size(): number {
    return this.live;
  }

  has(a: Axiom): boolean {
    return this.find(a.id) >= 0;
  }

  /** Adds an axiom; false if it was already present. */
  add(a: Axiom): boolean {
    const id = a.id,
      items = this.items;
    const slots = this.slots,
      mask = slots.length - 1;
    let i = id & mask;
    // Slot indexes are masked to the table, and a slot holds an item's position + 1.
    for (let at = slots[i]!; at !== 0; at = slots[i]!) {
      if (items[at - 1]!.id === id) return false;
      i = (i + 1) & mask;
    }
    if (2 * (items.length + 1) > slots.length) return this.addAfterResize(a);
    slots[i] = items.push(a);
    this.live++;
    return true;
  }

  /** Removes an axiom; false if it was absent. */
  delete(a: Axiom): boolean {
    const i = this.find(a.id);
    if (i < 0) return false;
    this.items[this.slots[i]! - 1] = undefined;
    this.live--;
    this.vacate(i);
    if (this.items.length > 64 && this.live < this.items.length >> 1) this.rebuild(capacityFor(this.live));
    return true;
  }

  /** Live axioms in insertion order. An iteration in progress when holes are squeezed out goes on over the old order, skipping axioms removed since. */
  *[Symbol.iterator](): IterableIterator<Axiom> {
    const items = this.items;
    for (let k = 0; k < items.length; k++) {
      const a = items[k];
      if (a !== undefined && (items === this.items || this.has(a))) yield a;
    }
  }

  values(): IterableIterator<Axiom> {
    return this[Symbol.iterator]();
  }

  /** Slot of an id, or -1. */
  private find(id: number): number {
    const slots = this.slots,
      items = this.items,
      mask = slots.length - 1;
    for (let i = id & mask; slots[i] !== 0; i = (i + 1) & mask) if (items[slots[i]! - 1]!.id === id) return i;
    return -1;
  }

  /** Empties slot i and moves later entries of its probe run back, so lookups need no tombstones. */
  private vacate(i: number): void {
    const slots = this.slots,
      items = this.items,
      mask = slots.length - 1;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      if (slots[j] === 0) break;
      const home = items[slots[j]! - 1]!.id & mask;
      // The entry at j may fill the hole at i unless its home lies cyclically in (i, j].
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        slots[i] = slots[j]!;
        i = j;
      }
    }
    slots[i] = 0;
  }

  private addAfterResize(a: Axiom): boolean {
    this.rebuild(capacityFor(this.live + 1));
    return this.add(a);
  }

  /** Re-lays the live axioms, in order and without holes, in a table of the given capacity. */
  private rebuild(capacity: number): void {
    const items: Axiom[] = [];
    const slots = new Int32Array(capacity),
      mask = capacity - 1;
    for (const a of this.items) {
      if (a === undefined) continue;
      let i = a.id & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = items.push(a);
    }
    this.items = items;
    this.slots = slots;
  }
}

/** The capacity for n entries: a power of two at least twice n, so the table is at most half full. */
function capacityFor(n: number): number {
  let c = MIN_CAPACITY;
  while (c < 2 * n) c *= 2;
  return c;
}
