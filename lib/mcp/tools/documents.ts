// search_documents: passages of the caller's collections ranked for a query (GET
// /api/collections/:id/search, over one collection or all the caller may read), each with its document
// and page or section; and get_report: any written result by id, as Markdown.
import { z } from "zod";
import { assertReadable, listCollections } from "../../knowledge/collections";
import { searchQuerySchema } from "../../knowledge/schema";
import { searchKnowledge } from "../../knowledge/search";
import { withUserEmbeddingUsage } from "../../knowledge/usage";
import type { ToolContext } from "../context";
import { parseWith } from "../inputs";
import { reportById } from "../reports";
import { toolResult } from "../results";

export const searchDocumentsInput = {
  query: z.string().min(1).max(1_000).describe("What to look for: words or a question."),
  collections: z.array(z.string().min(1).max(100)).max(20).optional().describe("Collection ids to search (default: every collection you can read, the shared one included)."),
  limit: z.number().int().min(1).max(50).default(10).describe("Passages to return (1–50, default 10)."),
};

const passage = z.object({
  text: z.string(),
  document: z.object({ id: z.string(), name: z.string(), title: z.string().nullable(), format: z.string() }),
  collectionId: z.string(),
  page: z.number().nullable().describe("The page of a PDF, else null."),
  section: z.string().nullable().describe("The heading the passage is under, when the document has headings."),
  score: z.number().describe("Higher is better."),
});

export const searchDocumentsOutput = { results: z.array(passage) };

export async function searchDocuments(args: { query: string; collections?: string[]; limit: number }, ctx: ToolContext) {
  const { q, limit } = parseWith(searchQuerySchema, { q: args.query, limit: args.limit }, "search", { q: "query" });
  const ids = args.collections ?? (await listCollections(ctx.userId)).map((c) => c.id);
  // Another user's collection is a 404, as on the HTTP API: never searched, never silently dropped.
  for (const id of args.collections ?? []) await assertReadable(ctx.userId, id);
  const hits = ids.length === 0 ? [] : await withUserEmbeddingUsage({ userId: ctx.userId, kind: "knowledge-search", subjectId: ids.length === 1 ? ids[0] : undefined }, (onUsage) =>
    searchKnowledge({ userId: ctx.userId, collectionIds: ids, query: q, limit, onUsage }),
  );
  const results = hits.map((h) => ({
    text: h.text,
    document: { id: h.documentId, name: h.documentName, title: h.documentTitle, format: h.format },
    collectionId: h.collectionId,
    page: h.page,
    section: h.section,
    score: h.score,
  }));
  const where = (r: (typeof results)[number]) => [r.document.title || r.document.name, r.page !== null ? `p. ${r.page}` : null, r.section].filter(Boolean).join(", ");
  const text = results.length ? results.map((r, i) => `[${i + 1}] ${where(r)}\n${r.text}`).join("\n\n") : "No passage matches.";
  return toolResult({ results }, text);
}

export const getReportInput = {
  id: z.string().min(1).max(200).describe("A research id (research), a Deep Research conversationId (deep_research), or an answer's requestId (quick_answer)."),
};

export const getReportOutput = {
  kind: z.enum(["research", "deep-research", "answer"]),
  id: z.string(),
  title: z.string(),
  markdown: z.string().describe("The report with its header, numbered citations and sources."),
  uri: z.string(),
};

export async function getReport(args: { id: string }, ctx: ToolContext) {
  const report = await reportById(args.id, ctx.userId);
  return toolResult({ ...report }, report.markdown);
}
