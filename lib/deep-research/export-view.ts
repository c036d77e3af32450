// A Deep Research conversation as an export document (lib/exports) and a paper: the final
// write-up (the last reply), its analyses, and the discoveries with their evidence, cited to the
// pages the evidence was extracted from. Built from the conversation's public view, so an owner's
// export and a share link's hold the same things and nothing else — but for the analyses' SQL and
// result rows, which come from the owner's datasets and only the owner's export carries.
import { pageReferenceFacts } from "../db/tree";
import { tasksOf } from "../db/research-tasks";
import { fileStem, percent, type ExportDocument } from "../exports/document";
import type { PaperInput } from "../exports/latex/paper";
import { numberCitations, splitNumberedSources } from "../report-citations";
import { queryAnchor } from "../exports/query-links";
import { analysesMarkdown } from "./export-analyses";
import { conversationSnapshot } from "./snapshot";
import { toSharedConversation, withWriteUpVerification, type SharedConversation } from "./shared-view";
import { unverifiedNote, type VerificationView } from "../verification/view";

export interface ConversationExport {
  doc: ExportDocument;
  paper: () => Promise<PaperInput>;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const host = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
};
const line = (text: string) => text.replace(/\s+/g, " ").trim();

/** Where the analyses go in the write-up: after the reply, before the discoveries (an HTML comment: no URL in it). */
const ANALYSES_HERE = "<!-- quarry:analyses -->";

/** A discovery's evidence that is an analysis query: the task and the query (q1). */
export type QueryRefs = ReadonlyMap<string, { taskId: string; queryId: string }[]>;

/**
 * The write-up: the last reply, the analyses (Markdown from export-analyses.ts; a share link's
 * without their SQL and rows), then every current discovery with its evidence quotes, cited, and
 * its evidence queries linked to their place under Analyses (`linked`: the owner's export, which has them).
 */
function writeUp(c: SharedConversation, analyses: string, queryRefs: QueryRefs, linked: boolean): string {
  const reply = [...c.messages].reverse().find((m) => m.role === "assistant")?.content ?? "";
  const discoveries = c.discoveries.filter((d) => d.status !== "rejected");
  // The write-up's own numbered source list goes: the export numbers its citations anew, discoveries included.
  const parts = [splitNumberedSources(reply).body.replace(/^\s*#\s+.+\n+/, "").trim(), analyses ? ANALYSES_HERE : ""];
  if (discoveries.length) {
    parts.push("## Discoveries");
    for (const d of discoveries) {
      const evidence = d.evidenceItems.filter((e) => e.url);
      parts.push(
        [
          `### ${line(d.claim)}`,
          "",
          `Confidence: ${d.confidence} · novelty: ${d.novelty} · status: ${d.status}.`,
          "",
          line(d.evidence),
          ...(d.linkedEvidence ? [] : ["", "_No linked evidence: the discovery's evidence named no stored source or query._"]),
          ...evidence.map((e) => `\n> ${line(e.quote ?? "")} [source](${e.url})`),
          // Evidence that is an analysis query points at its SQL, table and figure under "Analyses".
          ...(queryRefs.get(d.id) ?? []).map((r) =>
            linked ? `\n> Evidence: [query ${r.queryId} of analysis ${r.taskId}](#${queryAnchor(r.taskId, r.queryId)}) (its SQL, result and chart under Analyses).` : `\n> Evidence: query ${r.queryId} of analysis ${r.taskId}.`,
          ),
        ].join("\n"),
      );
    }
  }
  return parts.filter(Boolean).join("\n\n");
}

/** The verification of the conversation's write-up, when its last reply is the one verified. */
export type WriteUpVerification = VerificationView | null;

export function conversationDocument(
  c: SharedConversation,
  verification: WriteUpVerification = c.writeUpVerification,
  analyses = "",
  queryRefs: QueryRefs = new Map(),
): { doc: ExportDocument; shared: SharedConversation } {
  const titles = new Map<string, string | null>();
  for (const d of c.discoveries) for (const e of d.evidenceItems) if (e.url) titles.set(e.url, host(e.url));
  // The write-up's source list names its pages by their titles.
  const reply = [...c.messages].reverse().find((m) => m.role === "assistant")?.content ?? "";
  for (const s of splitNumberedSources(reply).sources) titles.set(s.url, s.title);
  // The citations are numbered before the analyses go in: a URL in a query's SQL or result is no source.
  const numbered = splitNumberedSources(numberCitations(writeUp(c, analyses, queryRefs, analyses.includes('<a id="query-')), titles).markdown);
  const body = numbered.body.replace(ANALYSES_HERE, () => analyses);
  const { sources } = numbered;
  const last = c.messages.at(-1)?.createdAt ?? c.createdAt;
  const date = last.slice(0, 10);
  const iterations = Math.max(0, ...c.messages.map((m) => m.iteration));
  return {
    shared: c,
    doc: {
      title: c.title,
      question: c.objective,
      date,
      settings: [
        { label: "Mode", value: c.researchMode },
        { label: "Counts", value: `${plural(iterations, "iteration")} · ${plural(c.currentLevel, "level")} · ${plural(c.plan.length, "task")} · ${plural(c.discoveries.length, "discovery", "discoveries")} · ${sources.length} cited` },
        ...(unverifiedNote(verification) ? [{ label: "Not verified", value: unverifiedNote(verification) as string }] : []),
      ],
      supportRate: verification?.status === "done" ? verification.support_rate : null,
      body,
      sources,
      fileStem: fileStem(c.objective, date),
    },
  };
}

/** "2 completed, 1 skipped": how the analysis tasks ended. */
function analysisRan(tasks: SharedConversation["plan"]): string {
  const counts = new Map<string, number>();
  for (const t of tasks) counts.set(t.status, (counts.get(t.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${status}`).join(", ");
}

type PageFacts = Awaited<ReturnType<typeof pageReferenceFacts>>;

export function conversationPaper(doc: ExportDocument, c: SharedConversation, facts: PageFacts = new Map()): PaperInput {
  const v = c.writeUpVerification;
  const iterations = Math.max(0, ...c.messages.map((m) => m.iteration));
  const literature = c.plan.filter((t) => t.type === "LITERATURE");
  const analysis = c.plan.filter((t) => t.type === "ANALYSIS");
  const confidence = c.discoveries.filter((d) => d.confidence === "high").length;
  const unlinked = c.discoveries.filter((d) => !d.linkedEvidence);
  return {
    doc,
    author: "Quarry Deep Research (automated research)",
    clarifications: [],
    methods: {
      paragraphs: [
        `The research ran as Deep Research in ${c.researchMode} mode: ${plural(iterations, "iteration")} over ${plural(c.currentLevel, "level")}. Each iteration planned tasks for the objective, ran them, revised a working hypothesis, reflected on the findings, recorded discoveries with their evidence, and decided whether to continue.`,
        `Literature tasks (${literature.length}) each explored a search tree: queries to a web search engine, the pages found read, and the findings extracted for the task's objective, then summarised with citations. Analysis tasks (${analysis.length}) queried the uploaded datasets with SQL in a read-only sandbox; every figure they report is a value of a stored query result${analysis.length ? ` (${analysisRan(analysis)})` : ", but none were planned"}.`,
        c.hypothesis?.hypothesis ? `The working hypothesis at the end was: ${line(c.hypothesis.hypothesis)}` : "",
      ].filter(Boolean),
      tables: [{ caption: "The tasks, level by level.", header: ["Level", "Type", "Objective", "Status"], rows: c.plan.map((t) => [String(t.level), t.type, t.objective, t.status]) }],
    },
    results: {
      paragraphs: [`The research recorded ${plural(c.discoveries.length, "discovery", "discoveries")}, ${confidence} with high confidence.`],
      tables: c.discoveries.length
        ? [{ caption: "The discoveries.", header: ["Claim", "Confidence", "Novelty", "Status"], rows: c.discoveries.map((d) => [d.claim, d.confidence, d.novelty, d.status]) }]
        : [],
    },
    limitations: [
      ...c.plan.filter((t) => t.status === "failed").map((t) => `The task "${t.objective}" failed; its findings are missing.`),
      ...analysis.filter((t) => t.status === "skipped").map((t) => `The analysis task "${t.objective}" did not run: ${line(t.output ?? "no dataset could be analysed")}`),
      ...(unlinked.length ? [`${plural(unlinked.length, "discovery", "discoveries")} could not be linked to stored evidence (the evidence named no stored source or query).`] : []),
      ...(v?.status === "done" ? [] : ["The write-up's citations were not checked against the sources' text (the check did not run or could not finish)."]),
      ...(unverifiedNote(v) ? [unverifiedNote(v) as string] : []),
      "The discoveries' evidence quotes are stored snippets of the pages; the discoveries themselves are the research's reading of them.",
    ],
    verification:
      v?.status === "done" && v.support_rate !== null
        ? [`Of the write-up's ${plural(v.counts.claims, "claim")}, ${v.counts.supported} (${percent(v.support_rate)}) are fully supported by the stored text of their cited sources, ${v.counts.partial} partly supported and ${v.counts.uncited} uncited${v.repair.removed + v.repair.rewritten ? `; the check removed ${v.repair.removed} and rewrote ${v.repair.rewritten} unsupported sentences` : ""}.`]
        : [],
    check: v ? { status: v.status, claims: v.claims } : null,
    sources: doc.sources.map((s) => {
      const page = facts.get(s.url);
      const at = page?.fetchedAt;
      return { n: s.n, url: s.url, title: s.title, accessed: at ? at.toISOString().slice(0, 10) : doc.date, author: page?.author ?? null, published: page?.published ?? null };
    }),
  };
}

/** The export of a conversation, scoped by owner (`userId` undefined: a share link has authorised it). */
export async function conversationExport({ id, userId }: { id: string; userId?: string }): Promise<ConversationExport | null> {
  const snapshot = await conversationSnapshot({ id, userId });
  if (!snapshot) return null;
  // Nothing to export before the first reply.
  if (!snapshot.messages.some((m) => m.role === "assistant")) return null;
  const shared = await withWriteUpVerification(toSharedConversation(snapshot), id, snapshot);
  // The analyses' queries and rows come from the owner's datasets: a share link's export (no userId) leaves them out, saying so.
  const data = userId !== undefined;
  const readAs = new Map(datasetsReadAs(snapshot.state.uploadedDatasets));
  const analyses = analysesMarkdown(snapshot.plan, { data, readAs });
  const queryRefs = new Map(snapshot.discoveries.map((d) => [d.id, d.evidenceItems.flatMap((e) => (e.query ? [{ taskId: e.taskId, queryId: e.query.queryId }] : []))]));
  const { doc } = conversationDocument(shared, shared.writeUpVerification, analyses, queryRefs);
  return { doc, paper: async () => conversationPaper(doc, shared, await conversationPageFacts(id)) };
}

/** What the pages of the conversation's literature tasks state of themselves (for the references), by URL. */
async function conversationPageFacts(conversationId: string): Promise<PageFacts> {
  const facts: PageFacts = new Map();
  for (const t of await tasksOf(conversationId)) {
    if (!t.childResearchId) continue;
    for (const [url, f] of await pageReferenceFacts(t.childResearchId)) if (!facts.has(url)) facts.set(url, f);
  }
  return facts;
}

/** Each loaded dataset's file name with how it was read, when that was worth saying. */
function datasetsReadAs(datasets: unknown[]): [string, string | null][] {
  return datasets.flatMap((d) => {
    const e = d as { filename?: unknown; readAs?: unknown };
    return typeof e?.filename === "string" ? [[e.filename, typeof e.readAs === "string" ? e.readAs : null] as [string, string | null]] : [];
  });
}
