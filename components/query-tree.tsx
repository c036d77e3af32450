"use client";
// The query tree as an indented, collapsible outline: one row per query, coloured by status, with
// its pages and findings. Rows never overlap however wide the tree grows; arrow keys move focus.
import { useRef } from "react";
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

  function onKeyDown(e: React.KeyboardEvent) {
    const target = e.target as HTMLElement;
    if (!target.dataset.treeNode) return;
    const id = target.dataset.queryId!;
    const depth = Number(target.dataset.depth);
    const collapsed = props.isCollapsed(id, depth);
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const rows = Array.from(ref.current?.querySelectorAll<HTMLElement>("[data-tree-node]") ?? []);
      const i = rows.indexOf(target);
      const next = rows[e.key === "ArrowDown" ? i + 1 : i - 1];
      if (next) {
        e.preventDefault();
        next.focus();
      }
    } else if (e.key === "ArrowRight" && collapsed && target.dataset.hasChildren === "1") {
      e.preventDefault();
      props.onToggle(id, depth);
    } else if (e.key === "ArrowLeft" && !collapsed && target.dataset.hasChildren === "1") {
      e.preventDefault();
      props.onToggle(id, depth);
    }
  }

  const rootsPending = props.pendingChildren(null);
  return (
    <div ref={ref} onKeyDown={onKeyDown} data-testid="query-tree">
      <ul className="space-y-0.5">
        {props.roots.map((n) => (
          <TreeRow key={n.query.query_id} node={n} {...props} />
        ))}
        {rootsPending > 0 ? <GhostRow count={rootsPending} label={rootsPending === 1 ? "research query" : "research queries"} /> : null}
      </ul>
    </div>
  );
}

function TreeRow({ node, ...p }: { node: QueryNode } & Props) {
  const q = node.query;
  const open = !p.isCollapsed(q.query_id, q.depth);
  const selected = p.selectedId === q.query_id;
  const c = p.counts.get(q.query_id);
  const pending = p.pendingChildren(node);
  const hasChildren = node.children.length > 0 || pending > 0;
  const hidden = p.sizes.get(q.query_id) ?? 0;
  const context = p.matched !== null && !p.matched.has(q.query_id);

  return (
    <li>
      <div
        className={`group flex items-center gap-1 rounded-lg pr-2 transition-colors ${
          selected ? "bg-accent-soft ring-1 ring-accent/40" : "hover:bg-surface-2"
        }`}
      >
        {hasChildren ? (
          <button
            type="button"
            onClick={() => p.onToggle(q.query_id, q.depth)}
            aria-expanded={open}
            aria-label={open ? "Collapse" : "Expand"}
            tabIndex={-1}
            data-testid="tree-toggle"
            className="grid size-7 shrink-0 place-items-center rounded-md text-subtle hover:text-fg"
          >
            <Icon name="chevronRight" className={`size-4 transition-transform ${open ? "rotate-90" : ""}`} />
          </button>
        ) : (
          <span className="size-7 shrink-0" aria-hidden="true" />
        )}
        <button
          type="button"
          data-tree-node="1"
          data-testid="tree-node"
          data-query-id={q.query_id}
          data-status={q.status}
          data-depth={q.depth}
          data-has-children={hasChildren ? "1" : "0"}
          aria-pressed={selected}
          data-match={p.matched === null ? undefined : context ? "0" : "1"}
          onClick={() => p.onSelect(q.query_id)}
          className="flex min-w-0 flex-1 items-center gap-2.5 rounded-md py-1.5 text-left"
        >
          <StatusDot status={q.status} className="size-2.5" />
          <span className="sr-only">{q.status}: </span>
          <span className={`line-clamp-2 min-w-0 flex-1 break-words text-sm leading-snug sm:truncate ${q.status === "failed" ? "text-muted line-through decoration-danger/60" : q.status === "stopped" || context ? "text-muted" : ""}`} title={q.text}>
            {q.text}
          </span>
          {!open && hidden > 0 ? (
            <span data-testid="tree-collapsed-count" data-count={hidden} className="shrink-0 rounded-full bg-surface-2 px-1.5 py-0.5 text-[11px] tabular-nums text-muted" title={`${hidden} ${hidden === 1 ? "query" : "queries"} in this branch`}>
              +{hidden}
            </span>
          ) : null}
          {c && c.total > 0 ? (
            <span className="hidden shrink-0 text-xs tabular-nums text-subtle sm:inline" title={`${c.analyzed} of ${c.total} pages analysed, ${c.items} findings`}>
              {c.analyzed}/{c.total} pages · {c.items} findings
            </span>
          ) : null}
          <span className="hidden shrink-0 text-right text-[11px] capitalize text-subtle sm:inline sm:w-[4.75rem]" aria-hidden="true">{q.status}</span>
        </button>
      </div>
      {hasChildren && open ? (
        <ul className="ml-[13px] space-y-0.5 border-l border-border pl-2.5">
          {node.children.map((n) => (
            <TreeRow key={n.query.query_id} node={n} {...p} />
          ))}
          {pending > 0 ? <GhostRow count={pending} label={pending === 1 ? "follow-up query" : "follow-up queries"} /> : null}
        </ul>
      ) : null}
    </li>
  );
}

function GhostRow({ count, label }: { count: number; label: string }) {
  return (
    <li className="flex items-center gap-2.5 py-1.5 pl-9 text-sm text-subtle" data-testid="tree-pending">
      <Spinner className="size-3" />
      Generating {count} {label}…
    </li>
  );
}
