// What the extraction's passes share of walking a (linkedom) document: node types, an element's tag, its
// element children, and every element under a root with its children before it.

export const ELEMENT = 1;
export const TEXT = 3;
export const CDATA = 4;
export const COMMENT = 8;

export function tagOf(node: Node): string {
  return (node as Element).tagName.toUpperCase();
}

export function elementChildren(node: Node): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT) out.push(c as Element);
  return out;
}

/**
 * Every element from `root` down, each after all of its children (for values built bottom-up), without
 * recursion: a page may nest thousands deep. Elements for which `skip` is true are left out with all
 * under them.
 */
export function childrenFirst(root: Element, skip?: (el: Element) => boolean): Element[] {
  const order: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    order.push(el);
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT && !skip?.(c as Element)) stack.push(c as Element);
  }
  return order.reverse();
}
