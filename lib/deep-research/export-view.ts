// A Deep Research conversation as an export document (lib/exports) and a paper: the final
// write-up (the last reply) and the discoveries with their evidence, cited to the pages the
// evidence was extracted from. Built from the conversation's public view, so an owner's export
// and a share link's hold the same things and nothing else.
import { fileStem, percent, type ExportDocument } from "../exports/document";
import type { PaperInput } from "../exports/latex/paper";
import { numberCitations, splitNumberedSources } from "../report-citations";
import { conversationSnapshot } from "./snapshot";
import { toSharedConversation, type SharedConversation } from "./shared-view";

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

/** The write-up: the last reply, then every current discovery with its evidence quotes, cited. */
function writeUp(c: SharedConversation): string {
  const reply = [...c.messages].reverse().find((m) => m.role === "assistant")?.content ?? "";
  const discoveries = c.discoveries.filter((d) => d.status !== "rejected");
  const parts = [reply.replace(/^\s*#\s+.+\n+/, "").trim()];
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
          ...evidence.map((e) => `\n> ${line(e.quote ?? "")} [source](${e.url})`),
        ].join("\n"),
      );
    }
  }
  return parts.filter(Boolean).join("\n\n");
}

export function conversationDocument(c: SharedConversation): { doc: ExportDocument; shared: SharedConversation } {
  const titles = new Map<string, string | null>();
  for (const d of c.discoveries) for (const e of d.evidenceItems) if (e.url) titles.set(e.url, host(e.url));
  const { body, sources } = splitNumberedSources(numberCitations(writeUp(c), titles).markdown);
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
      ],
      // The write-up's citations are not verified yet: only the tree report's are.
      supportRate: null,
      body,
      sources,
      fileStem: fileStem(c.objective, date),
    },
  };
}

export function conversationPaper(doc: ExportDocument, c: SharedConversation): PaperInput {
  const iterations = Math.max(0, ...c.messages.map((m) => m.iteration));
  const literature = c.plan.filter((t) => t.type === "LITERATURE");
  const analysis = c.plan.filter((t) => t.type === "ANALYSIS");
  const confidence = c.discoveries.filter((d) => d.confidence === "high").length;
  return {
    doc,
    author: "Quarry Deep Research (automated research)",
    clarifications: [],
    methods: {
      paragraphs: [
        `The research ran as Deep Research in ${c.researchMode} mode: ${plural(iterations, "iteration")} over ${plural(c.currentLevel, "level")}. Each iteration planned tasks for the objective, ran them, revised a working hypothesis, reflected on the findings, recorded discoveries with their evidence, and decided whether to continue.`,
        `Literature tasks (${literature.length}) each explored a search tree: queries to a web search engine, the pages found read, and the findings extracted for the task's objective, then summarised with citations. Analysis tasks (${analysis.length}) are meant to query uploaded datasets; ${analysis.length ? "they are recorded here with their objectives, but this version of Quarry does not run them yet (recorded as skipped), so no dataset results enter the findings" : "none were planned"}.`,
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
      ...(analysis.length ? [`${plural(analysis.length, "analysis task")} did not run: dataset analysis is not implemented yet.`] : []),
      "The write-up's citations were not checked against the sources' text (only tree reports are verified so far).",
    ],
    verification: doc.supportRate === null ? [] : [`${percent(doc.supportRate)} of the claims are supported.`],
    sources: doc.sources.map((s) => ({ n: s.n, url: s.url, title: s.title, accessed: doc.date })),
  };
}

/** The export of a conversation, scoped by owner (`userId` undefined: a share link has authorised it). */
export async function conversationExport({ id, userId }: { id: string; userId?: string }): Promise<ConversationExport | null> {
  const snapshot = await conversationSnapshot({ id, userId });
  if (!snapshot) return null;
  // Nothing to export before the first reply.
  if (!snapshot.messages.some((m) => m.role === "assistant")) return null;
  const { doc, shared } = conversationDocument(toSharedConversation(snapshot));
  return { doc, paper: async () => conversationPaper(doc, shared) };
}
