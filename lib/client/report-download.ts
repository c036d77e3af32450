// The downloaded report: the stored Markdown (same numbered citations as the viewer and the API)
// under a header that says what it is, with a file name a person can recognise later.
import { citedSourceCount } from "@/lib/report-citations";
import type { LiveResearchView } from "@/lib/types";
import type { ResearchStats } from "./research-stats";

export interface ReportCounts {
  queries: number;
  pageAnalyses: number;
  sourcesRead: number;
  sourcesCited: number;
}

export function reportCounts(r: LiveResearchView, stats: Pick<ResearchStats, "queriesDone" | "pagesAnalyzed" | "sourcesRead">): ReportCounts {
  return {
    queries: stats.queriesDone,
    pageAnalyses: stats.pagesAnalyzed,
    sourcesRead: stats.sourcesRead,
    sourcesCited: r.report ? citedSourceCount(r.report) : 0,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function countsLine(c: ReportCounts): string {
  return `${plural(c.queries, "query", "queries")} · ${plural(c.pageAnalyses, "page analysis", "page analyses")} · ${plural(c.sourcesRead, "source")} read · ${c.sourcesCited} cited`;
}

/** The report's own "# " title, else the prompt. */
export function reportTitle(markdown: string, prompt: string): string {
  const h1 = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
  return h1 || prompt.trim().split("\n")[0];
}

export function slugify(text: string, max = 60): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  // Cut at a word boundary, not inside a word.
  const cut = slug.length > max ? slug.slice(0, slug.lastIndexOf("-", max) > 0 ? slug.lastIndexOf("-", max) : max) : slug;
  return cut.replace(/-+$/, "") || "report";
}

/** `quarry-<title words>-<yyyy-mm-dd>.md`, from the prompt (the report title is often generic). */
export function reportFileName(r: Pick<LiveResearchView, "initial_prompt" | "completed_at" | "created_at">): string {
  const date = (r.completed_at ?? r.created_at).slice(0, 10);
  return `quarry-${slugify(r.initial_prompt)}-${date}.md`;
}

const quoteLines = (text: string) => text.trim().split("\n").map((l) => `> ${l}`.trimEnd()).join("\n");

export function reportDownload(r: LiveResearchView, markdown: string, counts: ReportCounts): { fileName: string; text: string } {
  const title = reportTitle(markdown, r.initial_prompt);
  // The report's own title becomes the document's; the body follows without repeating it.
  const body = markdown.replace(/^\s*#\s+.+\n+/, "");
  const date = (r.completed_at ?? r.created_at).slice(0, 10);
  const header = [
    `# ${title}`,
    "",
    "**Question**",
    "",
    quoteLines(r.initial_prompt),
    "",
    `- **Date:** ${date}`,
    r.depth && r.breadth ? `- **Depth × breadth:** ${r.depth} × ${r.breadth}` : "",
    `- **Counts:** ${countsLine(counts)}`,
    `- **Written by:** Quarry`,
  ].filter((l, i, all) => l !== "" || all[i - 1] !== "");
  return { fileName: reportFileName(r), text: `${header.join("\n")}\n\n---\n\n${body.trimEnd()}\n` };
}
