// The query tree from flat rows: children under their parent, in the order they were generated.
import type { QueryStatus, ResearchStatus, SerpQueryView, LiveWebsiteView } from "@/lib/types";

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

/**
 * The new tree with every node whose query and children are unchanged replaced by the previous
 * tree's node, so that unchanged branches keep their identity and their rows can skip rendering.
 */
export function reuseTree(next: QueryNode[], previous: QueryNode[]): QueryNode[] {
  const old = new Map<string, QueryNode>();
  const index = (nodes: QueryNode[]) => {
    for (const n of nodes) {
      old.set(n.query.query_id, n);
      index(n.children);
    }
  };
  index(previous);
  const reuse = (n: QueryNode): QueryNode => {
    const children = n.children.map(reuse);
    const prev = old.get(n.query.query_id);
    if (prev && prev.query === n.query && sameItems(prev.children, children)) return prev;
    return sameItems(n.children, children) ? n : { query: n.query, children };
  };
  const roots = next.map(reuse);
  return sameItems(roots, previous) ? previous : roots;
}

function sameItems<T>(a: T[], b: T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export interface PageCounts {
  total: number;
  analyzed: number;
  failed: number;
  items: number;
}

/** Page counts by query; a query whose counts did not change keeps the `previous` object. */
export function pageCountsByQuery(websites: LiveWebsiteView[], previous?: Map<string, PageCounts>): Map<string, PageCounts> {
  const out = new Map<string, PageCounts>();
  for (const w of websites) {
    const c = out.get(w.query_id) ?? { total: 0, analyzed: 0, failed: 0, items: 0 };
    c.total++;
    if (w.status === "analyzed") c.analyzed++;
    if (w.status === "failed") c.failed++;
    c.items += w.item_count;
    out.set(w.query_id, c);
  }
  if (previous) {
    for (const [id, c] of out) {
      const p = previous.get(id);
      if (p && p.total === c.total && p.analyzed === c.analyzed && p.failed === c.failed && p.items === c.items) out.set(id, p);
    }
  }
  return out;
}

const ACTIVE = new Set<QueryStatus>(["pending", "searching", "scraping", "analyzing"]);

/**
 * Queries as shown: once the research is no longer running nothing is in progress, so a query still
 * marked active (its "stopped" update not received yet, e.g. the stream ended with the cancel) shows
 * as `stopped` — a cancelled research's legend never says "Analyzing 1".
 */
export function shownQueries<T extends Pick<SerpQueryView, "status">>(queries: T[], research: ResearchStatus): T[] {
  if (research === "running") return queries;
  return queries.map((q) => (ACTIVE.has(q.status) ? { ...q, status: "stopped" as const } : q));
}

/** The number of queries under each query (all levels), for collapsed branches. */
export function descendantCounts(roots: QueryNode[]): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (n: QueryNode): number => {
    let total = 0;
    for (const c of n.children) total += 1 + visit(c);
    out.set(n.query.query_id, total);
    return total;
  };
  roots.forEach(visit);
  return out;
}

export type StatusFilter = "all" | "active" | "completed" | "failed" | "stopped";

export function matchesStatus(status: QueryStatus, filter: StatusFilter): boolean {
  if (filter === "all") return true;
  if (filter === "active") return ACTIVE.has(status);
  return status === filter;
}

/**
 * The tree pruned to the queries that match (text or objective contains every word of `search`, and
 * the status filter), with the ancestors that lead to them so that each match keeps its place.
 * `matched` holds the ids that matched themselves (ancestors kept only for context are not in it).
 */
export function filterTree(roots: QueryNode[], search: string, status: StatusFilter): { roots: QueryNode[]; matched: Set<string> } {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const matched = new Set<string>();
  if (words.length === 0 && status === "all") return { roots, matched };
  const matches = (q: SerpQueryView) => {
    const hay = `${q.text}\n${q.objective}`.toLowerCase();
    return matchesStatus(q.status, status) && words.every((w) => hay.includes(w));
  };
  const prune = (n: QueryNode): QueryNode | null => {
    const children = n.children.map(prune).filter((c): c is QueryNode => c !== null);
    const self = matches(n.query);
    if (self) matched.add(n.query.query_id);
    return self || children.length > 0 ? { query: n.query, children } : null;
  };
  return { roots: roots.map(prune).filter((c): c is QueryNode => c !== null), matched };
}

/** "Show levels" choices: levels 1..n visible, deeper ones collapsed under them. */
export function levelChoiceLabel(level: number, maxLevel: number): string {
  if (level >= maxLevel) return `All ${maxLevel} levels`;
  return level === 1 ? "Level 1 only" : `Levels 1–${level}`;
}
