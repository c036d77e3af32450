"use client";
// The research page frame: title, status, counters and progress, cancel, failure, and the tabs.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useResearchLive } from "@/hooks/use-research-live";
import { ResearchContext } from "./research-context";
import { ResearchHeader } from "./research-header";
import { ResearchNotFound } from "./research-not-found";
import { researchStats } from "@/lib/client/research-stats";
import type { ResearchLimits } from "@/lib/research/estimate";

export function ResearchShell({ researchId, limits, children }: { researchId: string; limits: ResearchLimits; children: React.ReactNode }) {
  const { live, connection, notFound, reconnect, refreshing } = useResearchLive(researchId);
  const [selectedQueryId, setSelected] = useState<string | null>(null);
  const selectQuery = useCallback((id: string | null) => setSelected(id), []);
  const value = useMemo(
    () => (live ? { live, connection, selectedQueryId, selectQuery, reconnect, refreshing, limits } : null),
    [live, connection, selectedQueryId, selectQuery, reconnect, refreshing, limits],
  );

  const prompt = live?.research.initial_prompt;
  const pathname = usePathname();
  useEffect(() => {
    if (!prompt) return;
    // After Next has applied the route's own metadata title.
    const t = setTimeout(() => {
      document.title = `${prompt.length > 60 ? `${prompt.slice(0, 57)}…` : prompt} · Quarry`;
    }, 0);
    return () => clearTimeout(t);
  }, [prompt, pathname]);

  if (notFound) return <ResearchNotFound />;
  if (!value) return <ShellSkeleton reconnecting={connection === "reconnecting"} />;

  return (
    <ResearchContext.Provider value={value}>
      <ResearchHeader />
      <Tabs researchId={researchId} sourcesRead={researchStats(value.live.research, null).sourcesRead} />
      <div className="mt-5">{children}</div>
    </ResearchContext.Provider>
  );
}

function Tabs({ researchId, sourcesRead }: { researchId: string; sourcesRead: number }) {
  const pathname = usePathname() ?? "";
  const base = `/research/${researchId}`;
  const tabs = [
    { href: base, label: "Query tree", testid: "tab-tree", active: pathname === base },
    { href: `${base}/sources`, label: "Sources", count: sourcesRead, countTitle: "sources read", testid: "tab-sources", active: pathname.startsWith(`${base}/sources`) },
    { href: `${base}/report`, label: "Report", testid: "tab-report", active: pathname.startsWith(`${base}/report`) },
  ];
  return (
    <nav aria-label="Research views" className="mt-6 flex gap-1 overflow-x-auto border-b border-border">
      {tabs.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          data-testid={t.testid}
          aria-current={t.active ? "page" : undefined}
          scroll={false}
          className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2.5 text-sm font-medium transition-colors ${
            t.active ? "border-accent text-fg" : "border-transparent text-muted hover:border-border-strong hover:text-fg"
          }`}
        >
          {t.label}
          {"count" in t ? (
            <span data-testid={`${t.testid}-count`} title={t.countTitle} className="ml-1.5 rounded-full bg-surface-2 px-1.5 py-0.5 text-xs tabular-nums text-muted">
              {t.count}
            </span>
          ) : null}
        </Link>
      ))}
    </nav>
  );
}

function ShellSkeleton({ reconnecting }: { reconnecting: boolean }) {
  return (
    <div aria-busy="true" aria-label="Loading research" className="animate-pulse space-y-4">
      <div className="h-4 w-24 rounded bg-surface-2" />
      <div className="h-8 w-3/4 rounded bg-surface-2" />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-20 rounded-xl bg-surface-2" />
        ))}
      </div>
      <div className="h-72 rounded-xl bg-surface-2" />
      {reconnecting ? <p className="text-sm text-muted">Connecting to the research…</p> : null}
    </div>
  );
}

