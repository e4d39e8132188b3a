// Sets of non-negative integers in typed arrays, no per-entry allocation. The saturation keeps millions of
// them (the subsumers of each context, link sources by role): most stay tiny, a few hold a large share of
// all ids. So a set is, by size: a short list scanned linearly, then an open-addressing hash table, and a
// bitset once that is smaller than the table would be (membership is then one memory access). The members
// are also kept in insertion order (`items`), which makes iteration dense and allocation-free.
// The `!` on array reads below rest on bounds the code states: items below `size`, hash slots at indexes
// masked to the table, bitset words below its length (checked or grown first).

const LINEAR_MAX = 8;
const EMPTY = 0; // hash slots hold value + 1

export class IntSet {
  size = 0;
  /** The members in insertion order: items[0 .. size-1]. */
  items: Int32Array;
  private table: Int32Array | null = null;
  private bits: Int32Array | null = null;
  private shift = 0;
  private max = 0;

  constructor(capacity = 4) {
    this.items = new Int32Array(capacity);
  }

  has(x: number): boolean {
    const b = this.bits;
    if (b !== null) {
      const w = x >>> 5;
      return w < b.length && (b[w]! & (1 << (x & 31))) !== 0;
    }
    const t = this.table;
    if (t === null) {
      const items = this.items;
      for (let i = 0; i < this.size; i++) if (items[i] === x) return true;
      return false;
    }
    const mask = t.length - 1;
    const v = x + 1;
    let i = Math.imul(v, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const s = t[i];
      if (s === v) return true;
      if (s === EMPTY) return false;
      i = (i + 1) & mask;
    }
  }

  /** Adds x; false when it was already there. */
  add(x: number): boolean {
    if (this.bits !== null) {
      if (!this.setBit(x)) return false;
    } else if (this.table !== null) {
      if (!this.insert(x)) return false;
    } else if (this.has(x)) return false;
    if (x > this.max) this.max = x;
    this.append(x);
    if (this.table === null && this.bits === null && this.size > LINEAR_MAX) this.index(LINEAR_MAX * 4);
    return true;
  }

  /**
   * Removes x; false when it was not there. The last member takes its place in `items` (so the order is no
   * longer that of insertion); a hash slot is refilled by shifting later entries of its probe run back.
   */
  delete(x: number): boolean {
    if (!this.has(x)) return false;
    const items = this.items;
    const at = items.subarray(0, this.size).indexOf(x);
    // x is a member (checked above), so the list is not empty
    items[at] = items[--this.size]!;
    if (this.bits !== null) this.bits[x >>> 5]! &= ~(1 << (x & 31));
    else if (this.table !== null) this.unhash(x + 1);
    return true;
  }

  /** The members, in insertion order (a view: valid until the next add). */
  values(): Int32Array {
    return this.items.subarray(0, this.size);
  }

  private append(x: number): void {
    if (this.size === this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.size++] = x;
  }

  /** Inserts into the hash table (growing it, or turning to a bitset, past half full). */
  private insert(x: number): boolean {
    let t = this.table!;
    if ((this.size + 1) * 2 > t.length) {
      this.index(t.length * 2);
      if (this.bits !== null) return this.setBit(x);
      t = this.table!;
    }
    const mask = t.length - 1;
    const v = x + 1;
    let i = Math.imul(v, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const s = t[i];
      if (s === v) return false;
      if (s === EMPTY) {
        t[i] = v;
        return true;
      }
      i = (i + 1) & mask;
    }
  }

  /** Rebuilds the membership index from `items`: a hash table of `slots` slots, or a bitset if that is smaller. */
  private index(slots: number): void {
    const words = (this.max >>> 5) + 1;
    const items = this.items;
    if (words <= slots) {
      this.table = null;
      this.bits = new Int32Array(words * 2);
      for (let k = 0; k < this.size; k++) this.bits[items[k]! >>> 5]! |= 1 << (items[k]! & 31);
      return;
    }
    const t = new Int32Array(slots);
    this.table = t;
    this.shift = 32 - Math.log2(slots);
    const mask = slots - 1;
    for (let k = 0; k < this.size; k++) {
      const v = items[k]! + 1;
      let i = Math.imul(v, 0x9e3779b1) >>> this.shift;
      while (t[i] !== EMPTY) i = (i + 1) & mask;
      t[i] = v;
    }
  }

  /** Empties the slot holding v, moving back each later entry of the run that may not sit past the hole. */
  private unhash(v: number): void {
    const t = this.table!;
    const mask = t.length - 1;
    let hole = Math.imul(v, 0x9e3779b1) >>> this.shift;
    while (t[hole] !== v) hole = (hole + 1) & mask;
    for (let j = (hole + 1) & mask; t[j] !== EMPTY; j = (j + 1) & mask) {
      // j is masked into the table and its slot was just seen filled
      const home = Math.imul(t[j]!, 0x9e3779b1) >>> this.shift;
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        t[hole] = t[j]!;
        hole = j;
      }
    }
    t[hole] = EMPTY;
  }

  private setBit(x: number): boolean {
    let b = this.bits!;
    const w = x >>> 5;
    if (w >= b.length) {
      const grown = new Int32Array(Math.max(w + 1, b.length * 2));
      grown.set(b);
      this.bits = b = grown;
    }
    const m = 1 << (x & 31);
    if ((b[w]! & m) !== 0) return false;
    b[w]! |= m;
    return true;
  }
}

/** A growable stack of int32 values. */
export class IntStack {
  length = 0;
  data = new Int32Array(1024);

  push2(a: number, b: number): void {
    if (this.length + 2 > this.data.length) this.grow();
    const d = this.data;
    d[this.length] = a;
    d[this.length + 1] = b;
    this.length += 2;
  }

  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.data.length) this.grow();
    const d = this.data;
    d[this.length] = a;
    d[this.length + 1] = b;
    d[this.length + 2] = c;
    this.length += 3;
  }

  private grow(): void {
    const d = new Int32Array(this.data.length * 2);
    d.set(this.data);
    this.data = d;
  }
}
