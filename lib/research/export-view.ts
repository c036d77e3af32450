// A tree research's report as an export document (lib/exports): the stored report split into its
// body and numbered sources, with the header's question, date, settings and support rate. The
// research's data comes along for the LaTeX paper's methods and results.
import { loadResearchGraph } from "../db/research";
import { verificationOfResearch } from "../db/verifications";
import { toResearchView } from "../explore/public-shape";
import { fileStem, reportTitle, withoutTitle, type ExportDocument } from "../exports/document";
import { splitNumberedSources } from "../report-citations";
import type { ResearchData } from "../types";
import { toVerificationView, unverifiedNote, type VerificationView } from "../verification/view";

export interface ResearchExport {
  doc: ExportDocument;
  research: ResearchData;
  verification: VerificationView | null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The export of a research with a report, scoped by owner (`userId` undefined: a share link has
 * authorised it). Null when there is no such research or no report.
 */
export async function researchExport({ id, userId }: { id: string; userId?: string }): Promise<ResearchExport | null> {
  const graph = await loadResearchGraph({ id, userId });
  if (!graph?.report) return null;
  const research = toResearchView(graph);
  const row = await verificationOfResearch({ researchId: id });
  const verification = row ? toVerificationView(row) : null;
  const { body, sources } = splitNumberedSources(graph.report);
  const date = (research.completed_at ?? research.created_at).slice(0, 10);
  const analysed = research.successful_scraped_websites.filter((w) => w.status === "analyzed");
  const settings = [
    ...(research.depth && research.breadth ? [{ label: "Depth × breadth", value: `${research.depth} × ${research.breadth}` }] : []),
    {
      label: "Counts",
      value: `${plural(research.serp_queries.filter((q) => q.status === "completed").length, "query", "queries")} · ${plural(analysed.length, "page analysis", "page analyses")} · ${plural(new Set(analysed.map((w) => w.url)).size, "source")} read · ${sources.length} cited`,
    },
    ...(unverifiedNote(verification) ? [{ label: "Not verified", value: unverifiedNote(verification) as string }] : []),
  ];
  return {
    doc: {
      title: reportTitle(graph.report, research.initial_prompt),
      question: research.initial_prompt,
      date,
      settings,
      supportRate: verification?.status === "done" ? verification.support_rate : null,
      body: withoutTitle(body),
      sources,
      fileStem: fileStem(research.initial_prompt, date),
    },
    research,
    verification,
  };
}
