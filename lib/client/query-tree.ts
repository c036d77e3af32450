// The query tree from flat rows: children under their parent, in the order they were generated.
import type { SerpQueryView, WebsiteView } from "@/lib/types";

export interface QueryNode {
  query: SerpQueryView;
  children: QueryNode[];
}

const order = (a: SerpQueryView, b: SerpQueryView) => a.position - b.position || a.created_at.localeCompare(b.created_at);

export function buildQueryTree(queries: SerpQueryView[]): QueryNode[] {
  const nodes = new Map<string, QueryNode>();
  for (const q of [...queries].sort(order)) nodes.set(q.query_id, { query: q, children: [] });
  const roots: QueryNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.query.parent_query_id ? nodes.get(node.query.parent_query_id) : undefined;
    // A child whose parent has not arrived yet is shown at the top rather than lost.
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

export interface PageCounts {
  total: number;
  analyzed: number;
  failed: number;
  items: number;
}

export function pageCountsByQuery(websites: WebsiteView[]): Map<string, PageCounts> {
  const out = new Map<string, PageCounts>();
  for (const w of websites) {
    const c = out.get(w.query_id) ?? { total: 0, analyzed: 0, failed: 0, items: 0 };
    c.total++;
    if (w.status === "analyzed") c.analyzed++;
    if (w.status === "failed") c.failed++;
    c.items += w.items.length;
    out.set(w.query_id, c);
  }
  return out;
}
