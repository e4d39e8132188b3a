// Strongly connected components by Tarjan's algorithm, for any graph given as roots and a successor function.

/**
 * The strongly connected components reachable from `roots` (visited in order) along `successors`, singletons
 * included, in the order the algorithm completes them; each lists its members as they leave the stack.
 * Iterative, so long import chains and tall hierarchies cannot overflow the call stack. `step` runs once per
 * step of the walk, so a caller can bound the work.
 */
export function stronglyConnectedComponents<N>(roots: Iterable<N>, successors: (n: N) => readonly N[], step: () => void = () => {}): N[][] {
  const index = new Map<N, number>();
  const low = new Map<N, number>();
  const stack: N[] = [];
  const onStack = new Set<N>();
  const components: N[][] = [];
  let counter = 0;
  const enter = (n: N) => {
    index.set(n, counter);
    low.set(n, counter++);
    stack.push(n);
    onStack.add(n);
  };
  for (const root of roots) {
    if (index.has(root)) continue;
    const work: { n: N; next: number }[] = [{ n: root, next: 0 }];
    enter(root);
    for (let frame = work.at(-1); frame !== undefined; frame = work.at(-1)) {
      step();
      const succ = successors(frame.n);
      if (frame.next < succ.length) {
        const m = succ[frame.next++]!; // within bounds: checked just above
        if (!index.has(m)) {
          enter(m);
          work.push({ n: m, next: 0 });
        } else if (onStack.has(m)) {
          low.set(frame.n, Math.min(low.get(frame.n)!, index.get(m)!));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent !== undefined) low.set(parent.n, Math.min(low.get(parent.n)!, low.get(frame.n)!));
      if (low.get(frame.n) === index.get(frame.n)) {
        const component: N[] = [];
        let m: N;
        do {
          m = stack.pop()!;
          onStack.delete(m);
          component.push(m);
        } while (m !== frame.n);
        components.push(component);
      }
    }
  }
  return components;
}
