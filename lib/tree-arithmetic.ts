// Tree arithmetic, the one source for the engine and the browser. Level sizes: b1 = breadth,
// b(d+1) = ceil(b(d) / 2); a completed query at depth d < depth gets b(d+1) children.

/** The breadth each level is generated with: [b1, b2, …, b_depth]. */
export function levelBreadths(depth: number, breadth: number): number[] {
  const out: number[] = [];
  let b = Math.max(1, Math.floor(breadth));
  for (let d = 1; d <= depth; d++) {
    out.push(b);
    b = Math.ceil(b / 2);
  }
  return out;
}

/** The number of children a query gets, given the breadth its own level was generated with. */
export function childCount(levelBreadth: number): number {
  return Math.ceil(levelBreadth / 2);
}

/** Queries per level when every query completes: [b1, b1·b2, b1·b2·b3, …]. */
export function queriesPerLevel(depth: number, breadth: number): number[] {
  let count = 1;
  return levelBreadths(depth, breadth).map((b) => (count *= b));
}

export function totalQueries(depth: number, breadth: number): number {
  return queriesPerLevel(depth, breadth).reduce((a, b) => a + b, 0);
}

/** Size of the subtree under a query at `atDepth` (excluding itself) once it is fully grown. */
export function descendantsBelow(atDepth: number, depth: number, breadth: number): number {
  const b = levelBreadths(depth, breadth);
  let total = 0;
  let product = 1;
  for (let d = atDepth + 1; d <= depth; d++) {
    product *= b[d - 1];
    total += product;
  }
  return total;
}
