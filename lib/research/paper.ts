// A tree research as a paper (lib/exports/latex): its methods are the tree as it ran — the
// questions, the queries level by level with their status, the pages read — and its limitations
// come from what failed or could not be verified.
import { pageReferenceFacts } from "../db/tree";
import { percent } from "../exports/document";
import type { PaperInput } from "../exports/latex/paper";
import type { ResearchExport } from "./export-view";
import { unverifiedNote } from "../verification/view";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export async function researchPaper({ doc, research, verification }: ResearchExport): Promise<PaperInput> {
  const facts = await pageReferenceFacts(research.research_id);
  const queries = [...research.serp_queries].sort((a, b) => a.depth - b.depth || a.position - b.position);
  const sites = research.successful_scraped_websites;
  const analysed = sites.filter((w) => w.status === "analyzed");
  const failedPages = new Set(sites.filter((w) => w.status === "failed").map((w) => w.url));
  const levels = Math.max(0, ...queries.map((q) => q.depth));
  const methods = [
    `The research ran as a search tree of depth ${research.depth ?? levels} and breadth ${research.breadth ?? "?"}: a language model wrote ${plural(queries.filter((q) => q.depth === 1).length, "search query", "search queries")} for the question, each with an objective; for each query the top web results were fetched and read, and a model extracted from each page what serves the query's objective. Each finished query then led to narrower follow-up queries on the next level, built on what its branch had found, until the tree's depth was reached (${plural(levels, "level")}, ${plural(queries.length, "query", "queries")} in all).`,
    `In all ${plural(new Set(analysed.map((w) => w.url)).size, "page")} were read and analysed (${plural(analysed.length, "page analysis", "page analyses")}; a page found by several queries is read once and analysed for each). The report was written from the extracted findings alone, each finding cited to its page, and the citations were numbered by the program, not by the model.`,
    verification?.status === "done"
      ? `Every sentence of the report that cites a source was then checked against the stored text of the pages it cites: a verifier model judged each as supported, partly supported or unsupported and had to quote the supporting passage, and a verdict stood only if its quote was found in the stored text (aligned word by word, the page's own wording kept) and carried the sentence's figures and key terms; a sentence without a usable verdict was kept and marked as not verified. Sentences stating facts without a citation were flagged. Unsupported sentences were rewritten to what the sources state or removed, and checked again (${plural(verification.repair.removed, "sentence")} removed, ${verification.repair.rewritten} rewritten).`
      : "The report's citations were not verified against the sources' text.",
  ];
  const tables = [
    {
      caption: "The search queries, level by level, with their objectives and outcome.",
      header: ["Level", "Query", "Objective", "Status"],
      rows: queries.map((q) => [String(q.depth), q.text, q.objective, q.status]),
    },
  ];
  const limitations = [
    // Statuses only: a paper can leave through a share link, which shows no error messages.
    ...queries.filter((q) => q.status !== "completed").map((q) => `The query "${q.text}" did not complete (${q.status}); its branch is missing from the findings.`),
    ...(failedPages.size ? [`${plural(failedPages.size, "page")} found by the searches could not be fetched or read.`] : []),
    "The sources are what a web search returned for the generated queries; pages behind paywalls or not indexed were not read, and a page's claims were taken as stated there.",
    ...(verification?.status === "done" && verification.counts.partial + verification.counts.uncited > 0
      ? [`${plural(verification.counts.partial, "claim")} are only partly supported by their sources and ${verification.counts.uncited} state facts without a citation; they are marked in the report viewer.`]
      : []),
    ...(unverifiedNote(verification) ? [unverifiedNote(verification) as string] : []),
  ];
  const verificationText =
    verification?.status === "done" && verification.support_rate !== null
      ? [`Of the report's ${plural(verification.counts.claims, "claim")}, ${verification.counts.supported} (${percent(verification.support_rate)}) are fully supported by the stored text of their cited sources, ${verification.counts.partial} partly supported and ${verification.counts.uncited} uncited.`]
      : [];
  return {
    doc,
    author: "Quarry (automated research)",
    clarifications: research.followup_questions.map((question, i) => ({ question, answer: research.followup_answers[i] ?? "" })),
    methods: { paragraphs: methods, tables },
    results: { paragraphs: [], tables: [] },
    limitations,
    verification: verificationText,
    check: verification ? { status: verification.status, claims: verification.claims } : null,
    sources: doc.sources.map((s) => {
      const page = facts.get(s.url);
      const at = page?.fetchedAt;
      return { n: s.n, url: s.url, title: s.title, accessed: at ? at.toISOString().slice(0, 10) : doc.date, author: page?.author ?? null, published: page?.published ?? null };
    }),
  };
}
