// The write-up of a Deep Research start (its final reply) cites the stored snippets its sentences
// come from; here the snippet ids become numbered links to the snippets' pages, and after the reply
// is saved its citations are verified against those pages' stored text and unsupported sentences
// repaired (lib/verification, as for tree reports). A verification that cannot finish costs the
// write-up nothing: it stays as written, and its verification reads "failed".
import { isLostCall } from "../ai/errors";
import { pageTexts } from "../db/tree";
import { failVerification } from "../db/verifications";
import { itemsOfResearches, tasksOf } from "../db/research-tasks";
import { errorMessage } from "../errors";
import { numberCitations } from "../report-citations";
import type { SourceText } from "../verification/verify-report";
import { verifyReport } from "../verification/verify-report";
import { renderItems, type EvidenceItem } from "./agents/discovery";
import type { DrContext } from "./context";

export interface WriteUpSources {
  /** The snippets as the reply agent is shown them. */
  text: string;
  shown: EvidenceItem[];
  /** The stored text of every page a snippet came from, by URL. */
  pages: Map<string, SourceText>;
}

/** The conversation's stored snippets from web pages (newest level first) and their pages' text. */
export async function writeUpSources(conversationId: string, budgetTokens: number): Promise<WriteUpSources> {
  const tasks = (await tasksOf(conversationId)).filter((t) => t.childResearchId).reverse();
  const researchIds = tasks.map((t) => t.childResearchId!);
  const keyOf = new Map(tasks.map((t) => [t.childResearchId!, t.taskKey]));
  const items = (await itemsOfResearches(researchIds))
    .filter((i) => /^https?:\/\//.test(i.url))
    .sort((a, b) => researchIds.indexOf(a.researchId) - researchIds.indexOf(b.researchId))
    .map((i) => ({ id: i.id, taskKey: keyOf.get(i.researchId)!, content: i.content, url: i.url }));
  const { text, shown } = renderItems(items, budgetTokens);
  const pages = new Map<string, SourceText>();
  for (const id of researchIds) for (const [url, page] of await pageTexts(id)) if (!pages.has(url)) pages.set(url, page);
  return { text, shown, pages };
}

/**
 * The reply with its snippet citations ("[id]", "[id1, id2]") as numbered links to the snippets'
 * pages and a numbered source list; ids that were not shown are dropped. Brackets that hold no id
 * and hold no digit ("[sic]") are left alone.
 */
export function citeSnippets(reply: string, shown: EvidenceItem[], pages: ReadonlyMap<string, SourceText>): string {
  const byId = new Map(shown.map((i) => [i.id, i]));
  const linked = reply.replace(/\[([^\]\n]+)\](?!\()/g, (whole, inner: string) => {
    const ids = inner.split(/[,;]\s*|\s+/).map((s) => s.trim()).filter(Boolean);
    const known = ids.filter((id) => byId.has(id));
    // An id the agent invented (it holds digits, like every snippet id) goes; "[sic]" or "[see below]" stays.
    if (known.length === 0) return ids.length === 1 && /\d/.test(inner) ? "" : whole;
    return [...new Set(known.map((id) => byId.get(id)!.url))].map((url) => `[0](${url})`).join("");
  });
  // "fact [1](…)[2](…)" after the drop of an invented id may leave "fact ." — tidy the space.
  const tidy = linked.replace(/[ \t]+([.,;:!?])/g, "$1").replace(/[ \t]{2,}/g, " ");
  const titles = new Map([...pages].map(([url, p]) => [url, p.title]));
  return numberCitations(tidy, titles).markdown.trim();
}

/** Verifies (or resumes verifying) a saved write-up; resolves with the text to keep. */
export async function verifiedWriteUp(ctx: DrContext, reply: { id: string; content: string }, question: string): Promise<string> {
  if (!/\]\(https?:\/\//.test(reply.content)) return reply.content;
  try {
    const { pages } = await writeUpSources(ctx.conversationId, 0);
    return await verifyReport({
      subject: { messageId: reply.id },
      question,
      report: reply.content,
      sources: pages,
      sourceBudgetTokens: ctx.env.PAGE_TOKEN_BUDGET,
      onUsage: ctx.usage,
      signal: ctx.signal,
    });
  } catch (error) {
    if (ctx.signal.aborted || !isLostCall(error)) throw error;
    console.warn(`[quarry] conversation ${ctx.conversationId}: the write-up's citations could not be verified (${errorMessage(error)}); it is kept as written.`);
    await failVerification({ messageId: reply.id });
    return reply.content;
  }
}
