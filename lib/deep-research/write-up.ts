// The write-up of a Deep Research start (its final reply) cites the stored snippets its sentences
// come from, by the handles it was shown them under (S1, S2 …); here the handles become numbered
// links to the snippets' pages, and its citations are verified against those pages' stored text and
// unsupported sentences repaired (lib/verification, as for tree reports). Its parts are checked while
// it streams (checkWhileWritten), so that the verification after it is saved takes their verdicts and
// ends with its last part, not one full round of calls after it. A verification that cannot finish
// costs the write-up nothing: it stays as written, and its verification reads "failed".
import { isLostCall } from "../ai/errors";
import { pageTexts } from "../db/tree";
import { failVerification } from "../db/verifications";
import { itemsOfResearches, tasksOf } from "../db/research-tasks";
import { errorMessage } from "../errors";
import { canonicalCitations, linkReferenceMarkers, numberCitations } from "../report-citations";
import { verifyCitations } from "../verification/cited-urls";
import type { SourceText } from "../verification/verify-report";
import { verifyReport } from "../verification/verify-report";
import { PartSplitter, StreamedVerification } from "../verification/streamed";
import { BoundedMap } from "../bounded-map";
import type { Choice } from "../ai/resolve";
import { analysisSources } from "./analysis-evidence";
import { resolveCitations } from "./agents/choices";
import { renderItems, type EvidenceItem } from "./agents/snippets";
import type { DrContext } from "./context";

export interface WriteUpSources {
  /** The snippets as the reply agent is shown them. */
  text: string;
  shown: EvidenceItem[];
  /** Each shown snippet's handle, for resolving the reply's citations. */
  choices: Choice<EvidenceItem>[];
  /** The stored text of every page a snippet came from, by URL. */
  pages: Map<string, SourceText>;
}

/**
 * The conversation's stored snippets (newest level first): from web pages, with their pages' text, and
 * its analyses' queries, with their SQL and results (analysisSources), so that a write-up states a
 * finding of the data with a citation as it does a page's.
 */
export async function writeUpSources(conversationId: string, budgetTokens: number): Promise<WriteUpSources> {
  const tasks = (await tasksOf(conversationId)).reverse();
  const literature = tasks.filter((t) => t.childResearchId);
  const researchIds = literature.map((t) => t.childResearchId!);
  const keyOf = new Map(literature.map((t) => [t.childResearchId!, t.taskKey]));
  const webItems = (await itemsOfResearches(researchIds))
    .filter((i) => /^https?:\/\//.test(i.url))
    .map((i) => ({ id: i.id, taskKey: keyOf.get(i.researchId)!, content: i.content, url: i.url }));
  const analyses = analysisSources(tasks);
  // Each task's snippets in the tasks' order (the newest level's first), a page's and a query's alike.
  const order = new Map(tasks.map((t, i) => [t.taskKey, i]));
  const items = [...webItems, ...analyses.items].sort((a, b) => order.get(a.taskKey)! - order.get(b.taskKey)!);
  const { text, shown, choices } = renderItems(items, budgetTokens);
  const pages = new Map<string, SourceText>(analyses.pages);
  for (const id of researchIds) for (const [url, page] of await pageTexts(id)) if (!pages.has(url)) pages.set(url, page);
  return { text, shown, choices, pages };
}

/**
 * The reply with its snippet citations ("[S1]", "[S1, S3]", or a snippet's stored id or URL) as
 * numbered links to the snippets' pages and a numbered source list; citations that name no snippet
 * shown are dropped. Brackets that name none and hold no digit ("[sic]") are left alone.
 */
export function citeSnippets(reply: string, choices: readonly Choice<EvidenceItem>[], pages: ReadonlyMap<string, SourceText>): string {
  // A model citing by number into its own reference list: its markers become links first.
  const { text: resolved } = resolveCitations(canonicalCitations(linkReferenceMarkers(reply), "S", choices.length), choices, (cited) => [...new Set(cited.map((c) => c.value.url))].map((url) => `[0](${url})`).join(""));
  // Links it wrote itself go to a snippet's page (one named in other words is repaired), or go, as in a tree report.
  const text = verifyCitations(resolved, [...pages.keys(), ...choices.map((c) => c.value.url)], { handles: false }).markdown;
  const titles = new Map([...pages].map(([url, p]) => [url, p.title]));
  return numberCitations(text, titles).markdown.trim();
}

/**
 * The checks of write-ups being written or written in this process, by the start message they answer,
 * until the verify step takes them (a verify step in another process, after a restart or a takeover,
 * verifies the whole write-up).
 */
const written = new BoundedMap<string, StreamedVerification>(64);

/** What the reply step feeds a write-up's text to as it streams. */
export interface WriteUpChecks {
  push(delta: string): void;
  /** The reply begins again (the server cut its prompt): what came is not split further. */
  restart(): void;
  /** The reply ended: its last part is checked too. */
  end(): void;
  /** The reply was not written after all (its checks stop, and are not taken). */
  cancel(): void;
}

/**
 * Checks a write-up's parts while it streams: each finished line as the saved write-up will have it
 * (its handles as numbered links), its cited sentences judged at once and its uncited ones with its
 * section's (lib/verification/streamed.ts). The verify step of the same start takes their verdicts.
 */
export function checkWhileWritten(ctx: DrContext, replyToId: string, sources: WriteUpSources, question: string): WriteUpChecks {
  const early = new StreamedVerification({
    question,
    sources: sources.pages,
    sourceBudgetTokens: ctx.budgetOf("PAGE_TOKEN_BUDGET"),
    onUsage: ctx.usage,
    signal: ctx.signal,
  });
  written.delete(replyToId);
  written.getOrAdd(replyToId, () => early);
  const parts = new PartSplitter(
    (part) => early.add(citeSnippets(part, sources.choices, sources.pages)),
    () => early.endSection(),
  );
  return {
    push: (delta) => parts.push(delta),
    restart: () => parts.reset(),
    end: () => parts.end(),
    cancel: () => {
      early.cancel();
      written.delete(replyToId);
    },
  };
}

/** Verifies (or resumes verifying) a saved write-up; resolves with the text to keep. */
export async function verifiedWriteUp(ctx: DrContext, reply: { id: string; content: string; replyToId?: string | null }, question: string): Promise<string> {
  // Its parts' checks, when they ran here while it was written.
  const early = reply.replyToId ? written.get(reply.replyToId) : undefined;
  if (reply.replyToId) written.delete(reply.replyToId);
  // A write-up without links is verified too: its factual sentences are uncited claims.
  try {
    const { pages } = await writeUpSources(ctx.conversationId, 0);
    return await verifyReport({
      subject: { messageId: reply.id },
      question,
      report: reply.content,
      early,
      sources: pages,
      sourceBudgetTokens: ctx.budgetOf("PAGE_TOKEN_BUDGET"),
      onUsage: ctx.usage,
      signal: ctx.signal,
      onWarning: (message) => console.warn(`[quarry] conversation ${ctx.conversationId}: ${message}`),
    });
  } catch (error) {
    if (ctx.signal.aborted || !isLostCall(error)) throw error;
    console.warn(`[quarry] conversation ${ctx.conversationId}: the write-up's citations could not be verified (${errorMessage(error)}); it is kept as written.`);
    await failVerification({ messageId: reply.id });
    return reply.content;
  }
}
