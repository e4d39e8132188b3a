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
    while (work.length > 0) {
      step();
      const frame = work[work.length - 1];
      const succ = successors(frame.n);
      if (frame.next < succ.length) {
        const m = succ[frame.next++];
        if (!index.has(m)) {
          enter(m);
          work.push({ n: m, next: 0 });
        } else if (onStack.has(m)) {
          low.set(frame.n, Math.min(low.get(frame.n)!, index.get(m)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].n;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.n)!));
      }
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
