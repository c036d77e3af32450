// Any written result by id, as Markdown, scoped to its owner (another user's id is not found): a tree
// research's report and a Deep Research conversation's write-up as their Markdown exports (the same
// file as GET …/export?format=md: header, body with numbered citations, sources), an answer with its
// references and quotes. get_report and the report resources read through here.
import { getAnswer } from "../answer/service";
import { getConversation, listConversations } from "../db/conversations";
import { getResearch, listResearches } from "../db/research";
import { conversationExport } from "../deep-research/export-view";
import { AppError } from "../errors";
import { markdownExport } from "../exports/markdown";
import { researchExport } from "../research/export-view";

export type ReportKind = "research" | "deep-research" | "answer";

export interface Report {
  kind: ReportKind;
  id: string;
  title: string;
  markdown: string;
  uri: string;
}

const PATHS: Record<ReportKind, (id: string) => string> = {
  research: (id) => `quarry://research/${encodeURIComponent(id)}/report`,
  "deep-research": (id) => `quarry://deep-research/${encodeURIComponent(id)}/write-up`,
  answer: (id) => `quarry://answer/${encodeURIComponent(id)}`,
};

export const reportUri = (kind: ReportKind, id: string) => PATHS[kind](id);

const noReport = (what: string, status: string) => new AppError("not_found:report", `This ${what} has no report yet (status: ${status})`);

export async function researchReport(id: string, userId: string): Promise<Report> {
  const research = await getResearch({ id, userId });
  if (!research) throw new AppError("not_found:research", "Research not found");
  const exported = await researchExport({ id, userId });
  if (!exported) throw noReport("research", research.status);
  return { kind: "research", id, title: exported.doc.title, markdown: markdownExport(exported.doc), uri: reportUri("research", id) };
}

export async function conversationReport(id: string, userId: string): Promise<Report> {
  const conversation = await getConversation({ id, userId });
  if (!conversation) throw new AppError("not_found:conversation", "Conversation not found");
  const exported = await conversationExport({ id, userId });
  if (!exported) throw new AppError("not_found:report", conversation.active ? "This conversation has no reply yet: it is running (deep_research_status follows it)" : "This conversation has no reply");
  return { kind: "deep-research", id, title: exported.doc.title, markdown: markdownExport(exported.doc), uri: reportUri("deep-research", id) };
}

export async function answerReport(requestId: string, userId: string): Promise<Report> {
  const view = await getAnswer({ requestId, userId });
  if (view.status !== "completed" || !view.answer) throw noReport("answer", view.status);
  const sources = view.references.map((r, i) => `${i + 1}. ${r.title.replace(/\s+/g, " ").trim()} — <${r.url}>\n\n   > ${r.exactQuote.replace(/\s+/g, " ").trim()}`);
  const markdown = [`# ${view.question.split("\n")[0]}`, "", view.answer.trim(), ...(sources.length ? ["", "## Sources", "", ...sources] : [])].join("\n");
  return { kind: "answer", id: requestId, title: view.question.split("\n")[0], markdown: `${markdown}\n`, uri: reportUri("answer", requestId) };
}

/** A research's, a conversation's or an answer's report, whichever the id names. */
export async function reportById(id: string, userId: string): Promise<Report> {
  if (await getResearch({ id, userId })) return researchReport(id, userId);
  if (await getConversation({ id, userId })) return conversationReport(id, userId);
  try {
    return await answerReport(id, userId);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found:answer") {
      throw new AppError("not_found:report", "No research, Deep Research conversation or answer of yours has this id", { field: "id" });
    }
    throw error;
  }
}

/** The caller's finished reports, newest first, for resources/list (a page of each kind). */
export async function listReports(userId: string, limit = 50): Promise<{ uri: string; name: string; kind: ReportKind }[]> {
  const [researches, conversations] = await Promise.all([
    listResearches({ userId, status: "completed", limit }),
    listConversations({ userId, limit, status: "completed" }),
  ]);
  return [
    ...researches.rows.map((r) => ({ uri: reportUri("research", r.id), name: r.initialPrompt.split("\n")[0].slice(0, 120), kind: "research" as const })),
    ...conversations.rows.map((c) => ({ uri: reportUri("deep-research", c.id), name: (c.conversationTitle ?? c.objective).split("\n")[0].slice(0, 120), kind: "deep-research" as const })),
  ];
}
