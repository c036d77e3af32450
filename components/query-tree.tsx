"use client";
// The query tree as an indented, collapsible outline: one row per query, coloured by status, with
// its pages and findings. Rows never overlap however wide the tree grows. An ARIA tree: each row is a
// treeitem with one tab stop for the whole tree (roving tabindex) and the keys of the APG tree pattern.
import { memo, useRef, useState } from "react";
import type { QueryNode, PageCounts } from "@/lib/client/query-tree";
import { Icon } from "./icons";
import { StatusDot } from "./status-badge";
import { Spinner } from "./spinner";

interface Props {
  roots: QueryNode[];
  counts: Map<string, PageCounts>;
  /** Queries under each query, all levels down (shown on a collapsed branch). */
  sizes: Map<string, number>;
  isCollapsed: (id: string, depth: number) => boolean;
  onToggle: (id: string, depth: number) => void;
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** Children still to be generated under a query (or the roots, under key ""), while running. */
  pendingChildren: (node: QueryNode | null) => number;
  /** While searching or filtering: the queries that matched (the others are shown as their path). */
  matched: Set<string> | null;
}

export function QueryTree(props: Props) {
  const ref = useRef<HTMLDivElement>(null);
  // The row that holds the tree's one tab stop: the last focused, else the selected, else the first.
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const visible = new Set<string>();
  const walk = (nodes: QueryNode[]) => {
    for (const n of nodes) {
      visible.add(n.query.query_id);
      if (!props.isCollapsed(n.query.query_id, n.query.depth)) walk(n.children);
    }
  };
  walk(props.roots);
  const tabStop =
    focusedId && visible.has(focusedId) ? focusedId : props.selectedId && visible.has(props.selectedId) ? props.selectedId : (props.roots[0]?.query.query_id ?? null);

  function onKeyDown(e: React.KeyboardEvent) {
    const target = e.target as HTMLElement;
    if (!target.dataset.treeNode) return;
    const id = target.dataset.queryId!;
    const depth = Number(target.dataset.depth);
    const hasChildren = target.dataset.hasChildren === "1";
    const open = target.getAttribute("aria-expanded") === "true";
    const rows = Array.from(ref.current?.querySelectorAll<HTMLElement>("[data-tree-node]") ?? []);
    const i = rows.indexOf(target);
    const level = (el: HTMLElement) => Number(el.getAttribute("aria-level"));
    let next: HTMLElement | undefined;
    if (e.key === "ArrowDown") next = rows[i + 1];
    else if (e.key === "ArrowUp") next = rows[i - 1];
    else if (e.key === "Home") next = rows[0];
    else if (e.key === "End") next = rows.at(-1);
    else if (e.key === "ArrowRight") {
      if (hasChildren && !open) {
        e.preventDefault();
        props.onToggle(id, depth);
        return;
      }
      // Open: to the first child (the next row, one level down).
      if (hasChildren && rows[i + 1] && level(rows[i + 1]) > level(target)) next = rows[i + 1];
    } else if (e.key === "ArrowLeft") {
      if (hasChildren && open) {
        e.preventDefault();
        props.onToggle(id, depth);
        return;
      }
      // Closed or a leaf: to the parent (the nearest row above, one level up).
      for (let j = i - 1; j >= 0; j--) {
        if (level(rows[j]) < level(target)) {
          next = rows[j];
          break;
        }
      }
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      props.onSelect(id);
      return;
    } else return;
    e.preventDefault();
    if (next) next.focus();
  }

  const rootsPending = props.pendingChildren(null);
  return (
    <div
      ref={ref}
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        const row = e.target as HTMLElement;
        if (row.dataset.treeNode) setFocusedId(row.dataset.queryId!);
      }}
      data-testid="query-tree"
    >
      {props.roots.length > 0 ? (
        <ul role="tree" aria-label="Research queries" className="space-y-0.5">
          {props.roots.map((n, i) => (
            <TreeRow key={n.query.query_id} node={n} tabStop={tabStop} setSize={props.roots.length} posInSet={i + 1} {...props} />
          ))}
        </ul>
      ) : null}
      {rootsPending > 0 ? (
        <div className="mt-0.5">
          <GhostRow count={rootsPending} label={rootsPending === 1 ? "research query" : "research queries"} />
        </div>
      ) : null}
    </div>
  );
}

interface RowProps extends Props {
  node: QueryNode;
  tabStop: string | null;
  setSize: number;
  posInSet: number;
}

/**
 * A row re-renders only when something it shows changed: its branch (nodes keep their identity
 * while unchanged), the counts of a query in it, its place among its siblings, or the tree-wide props
 * (the roving tab stop among them). While a big research streams in, a batch of events then renders
 * the few rows it touched, not all of them.
 */
function sameRow(a: RowProps, b: RowProps): boolean {
  if (a.node !== b.node || a.isCollapsed !== b.isCollapsed || a.onToggle !== b.onToggle || a.selectedId !== b.selectedId) return false;
  if (a.onSelect !== b.onSelect || a.pendingChildren !== b.pendingChildren || a.matched !== b.matched) return false;
  if (a.tabStop !== b.tabStop || a.setSize !== b.setSize || a.posInSet !== b.posInSet) return false;
  const same = (n: QueryNode): boolean =>
    a.counts.get(n.query.query_id) === b.counts.get(n.query.query_id) && a.sizes.get(n.query.query_id) === b.sizes.get(n.query.query_id) && n.children.every(same);
  return same(b.node);
}

const TreeRow = memo(function TreeRow({ node, tabStop, setSize, posInSet, ...p }: RowProps) {
  const q = node.query;
  const open = !p.isCollapsed(q.query_id, q.depth);
  const selected = p.selectedId === q.query_id;
  const c = p.counts.get(q.query_id);
  const pending = p.pendingChildren(node);
  const hasChildren = node.children.length > 0 || pending > 0;
  const hidden = p.sizes.get(q.query_id) ?? 0;
  const context = p.matched !== null && !p.matched.has(q.query_id);

  return (
    <li role="none">
      <div
        role="treeitem"
        aria-level={q.depth}
        aria-setsize={setSize}
        aria-posinset={posInSet}
        aria-expanded={hasChildren ? open : undefined}
        aria-selected={selected}
        tabIndex={tabStop === q.query_id ? 0 : -1}
        data-tree-node="1"
        data-testid="tree-node"
        data-query-id={q.query_id}
        data-status={q.status}
        data-depth={q.depth}
        data-has-children={hasChildren ? "1" : "0"}
        data-match={p.matched === null ? undefined : context ? "0" : "1"}
        onClick={() => p.onSelect(q.query_id)}
        className={`group flex cursor-pointer items-center gap-1 rounded-lg pr-2 transition-colors ${
          selected ? "bg-accent-soft ring-1 ring-accent/40" : "hover:bg-surface-2"
        }`}
      >
        {hasChildren ? (
          // For the mouse; the keyboard expands with the arrow keys on the row itself.
          <span
            aria-hidden="true"
            onClick={(e) => {
              e.stopPropagation();
              p.onToggle(q.query_id, q.depth);
            }}
            data-testid="tree-toggle"
            title={open ? "Collapse" : "Expand"}
            className="grid size-7 shrink-0 place-items-center rounded-md text-muted hover:text-fg"
          >
            <Icon name="chevronRight" className={`size-4 transition-transform ${open ? "rotate-90" : ""}`} />
          </span>
        ) : (
          <span className="size-7 shrink-0" aria-hidden="true" />
        )}
        <span className="flex min-w-0 flex-1 items-center gap-2.5 py-1.5 text-left">
          <StatusDot status={q.status} className="size-2.5" />
          <span className="sr-only">{q.status}: </span>
          <span className={`line-clamp-2 min-w-0 flex-1 break-words text-sm leading-snug sm:truncate ${q.status === "failed" ? "text-muted line-through decoration-danger/60" : q.status === "stopped" || context ? "text-muted" : ""}`} title={q.text}>
            {q.text}
          </span>
          {!open && hidden > 0 ? (
            <span data-testid="tree-collapsed-count" data-count={hidden} className="shrink-0 rounded-full bg-surface-2 px-1.5 py-0.5 text-[11px] tabular-nums text-muted" title={`${hidden} ${hidden === 1 ? "query" : "queries"} in this branch`}>
              +{hidden}
              <span className="sr-only"> {hidden === 1 ? "query" : "queries"} inside</span>
            </span>
          ) : null}
          {c && c.total > 0 ? (
            <span className="hidden shrink-0 text-xs tabular-nums text-subtle sm:inline" title={`${c.analyzed} of ${c.total} pages analysed, ${c.items} findings`}>
              {c.analyzed}/{c.total} pages · {c.items} findings
            </span>
          ) : null}
          <span className="hidden shrink-0 text-right text-[11px] capitalize text-subtle sm:inline sm:w-[4.75rem]" aria-hidden="true">{q.status}</span>
        </span>
      </div>
      {hasChildren && open ? (
        <ul role="group" className="ml-[13px] space-y-0.5 border-l border-border pl-2.5">
          {node.children.map((n, i) => (
            <TreeRow key={n.query.query_id} node={n} tabStop={tabStop} setSize={node.children.length} posInSet={i + 1} {...p} />
          ))}
          {pending > 0 ? (
            <li role="none">
              <GhostRow count={pending} label={pending === 1 ? "follow-up query" : "follow-up queries"} />
            </li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}, sameRow);

function GhostRow({ count, label }: { count: number; label: string }) {
  return (
    <div className="flex items-center gap-2.5 py-1.5 pl-9 text-sm text-subtle" data-testid="tree-pending">
      <Spinner className="size-3" />
      Generating {count} {label}…
    </div>
  );
}
