"use client";
// Table of contents: a sticky column on wide screens, a collapsible block on phones.
import type { TocEntry } from "@/lib/client/markdown";

export function ReportToc({ entries }: { entries: TocEntry[] }) {
  const items = entries.filter((e) => e.depth <= 3);
  if (items.length === 0) return <div className="hidden lg:block" />;
  const min = Math.min(...items.map((e) => e.depth));
  const list = (
    <ol className="space-y-1 text-[13px]">
      {items.map((e, i) => (
        <li key={`${e.id}-${i}`} style={{ paddingLeft: `${(e.depth - min) * 0.75}rem` }}>
          <a href={`#${e.id}`} className="block truncate rounded py-0.5 text-muted hover:text-fg" title={e.text}>
            {e.text}
          </a>
        </li>
      ))}
    </ol>
  );
  return (
    <nav aria-label="Table of contents" data-testid="report-toc">
      <details className="rounded-xl border border-border bg-surface px-4 py-3 lg:hidden">
        <summary className="cursor-pointer text-sm font-medium">Contents</summary>
        <div className="mt-2">{list}</div>
      </details>
      <div className="sticky top-20 hidden max-h-[calc(100dvh-6rem)] overflow-y-auto lg:block">
        <p className="mb-2 text-[11px] font-medium uppercase tracking-wide text-subtle">Contents</p>
        {list}
      </div>
    </nav>
  );
}
