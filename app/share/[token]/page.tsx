// /share/:token – a shared research (report, sources, query tree) or Deep Research conversation
// (replies, plan, hypothesis, discoveries), read-only and without sign-in.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SharedConversationView } from "@/components/deep-research/shared-conversation";
import { ExportLinks } from "@/components/export-links";
import { StaticMarkdown } from "@/components/static-markdown";
import { VerifiedArticle } from "@/components/verified-article";
import { loadShared } from "@/lib/api/shared";
import type { SharedQuery, SharedResearch } from "@/lib/research/shared-view";

export const dynamic = "force-dynamic";

// The URL holds the token: never send it onwards as a Referer, and keep it out of search engines.
export const metadata: Metadata = { title: "Shared – Quarry", referrer: "no-referrer", robots: { index: false, follow: false } };

function QueryTree({ queries, parentRef }: { queries: SharedQuery[]; parentRef: string | null }) {
  const children = queries.filter((q) => q.parentRef === parentRef);
  if (children.length === 0) return null;
  return (
    <ul className={parentRef ? "ml-4 border-l border-border pl-3" : ""}>
      {children.map((q) => (
        <li key={q.ref} className="py-1" data-testid="shared-query">
          <span className="font-medium">{q.text}</span> <span className="text-xs text-muted">({q.status})</span>
          <p className="text-xs text-muted">{q.objective}</p>
          <QueryTree queries={queries} parentRef={q.ref} />
        </li>
      ))}
    </ul>
  );
}

function Sources({ research }: { research: SharedResearch }) {
  const byUrl = new Map<string, { title: string | null; learnings: string[] }>();
  for (const s of research.sources) {
    const entry = byUrl.get(s.url) ?? { title: s.title, learnings: [] };
    entry.learnings.push(...s.learnings);
    byUrl.set(s.url, entry);
  }
  if (byUrl.size === 0) return <p className="text-sm text-muted">No sources.</p>;
  return (
    <ol className="list-decimal pl-5 text-sm">
      {[...byUrl].map(([url, s]) => (
        <li key={url} className="py-1" data-testid="shared-source">
          <a href={url} rel="noopener noreferrer nofollow" target="_blank" className="underline break-all">
            {s.title || url}
          </a>
        </li>
      ))}
    </ol>
  );
}

export default async function SharedResearchPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const shared = await loadShared(token);
  if (!shared) notFound();
  if ("conversation" in shared) {
    const replied = shared.conversation.messages.some((m) => m.role === "assistant");
    return (
      <>
        {replied ? <div className="pt-4"><ExportLinks href={`/api/share/${encodeURIComponent(token)}/export`} testid="shared-export" /></div> : null}
        <SharedConversationView conversation={shared.conversation} />
      </>
    );
  }
  const { research } = shared;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-8 px-4 py-8" data-testid="shared-research">
      <header className="flex flex-col gap-1">
        <p className="text-xs uppercase tracking-wide text-muted">Shared research · read-only</p>
        <h1 className="text-2xl font-semibold" data-testid="shared-prompt">{research.prompt}</h1>
        <p className="text-sm text-muted">
          {research.status}
          {research.completedAt ? ` · ${new Date(research.completedAt).toUTCString()}` : ""}
        </p>
      </header>
      <section aria-labelledby="report-heading">
        <h2 id="report-heading" className="sr-only">Report</h2>
        {research.report ? <div className="mb-4"><ExportLinks href={`/api/share/${encodeURIComponent(token)}/export`} testid="shared-export" /></div> : null}
        {research.report ? (
          <VerifiedArticle verification={research.verification} testid="shared-report">
            <StaticMarkdown>{research.report}</StaticMarkdown>
          </VerifiedArticle>
        ) : (
          <p className="text-sm text-muted" data-testid="shared-report-missing">The report is not written yet.</p>
        )}
      </section>
      {/* The report ends with its own "Sources" (the cited pages); this list is every page read. */}
      <section aria-labelledby="sources-heading" className="flex flex-col gap-2 border-t border-border pt-6">
        <h2 id="sources-heading" className="text-lg font-semibold">Pages read</h2>
        <Sources research={research} />
      </section>
      <section aria-labelledby="tree-heading" className="flex flex-col gap-2 border-t border-border pt-6">
        <h2 id="tree-heading" className="text-lg font-semibold">Query tree</h2>
        <QueryTree queries={research.queries} parentRef={null} />
      </section>
    </div>
  );
}
