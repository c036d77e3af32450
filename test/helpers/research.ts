// Drives a tree research through the HTTP API, as a client would.
import assert from "node:assert/strict";
import type { ResearchView } from "@/lib/types";
import { waitFor, type TestApp } from "./app-server";

export async function createAndStart(
  app: TestApp,
  { prompt = "Grid-scale battery storage economics", depth, breadth, questions = 2 }: { prompt?: string; depth: number; breadth: number; questions?: number },
): Promise<string> {
  const q = await app.postJson("/api/research/questions", { initial_prompt: prompt, num_questions: questions });
  assert.equal(q.status, 200, await q.clone().text());
  const { research_id, followup_questions } = (await q.json()) as { research_id: string; followup_questions: string[] };
  const start = await app.postJson("/api/research/start", {
    research_id,
    initial_prompt: prompt,
    followup_questions,
    followup_answers: followup_questions.map((_, i) => `Answer ${i + 1}: focus on Europe since 2020`),
    depth,
    breadth,
  });
  assert.equal(start.status, 202, await start.clone().text());
  return research_id;
}

export async function getView(app: TestApp, id: string): Promise<ResearchView> {
  const res = await app.fetch(`/api/research/${id}`);
  assert.equal(res.status, 200);
  return (await res.json()) as ResearchView;
}

export async function waitForStatus(app: TestApp, id: string, statuses: string[], timeoutMs = 90_000): Promise<ResearchView> {
  return waitFor(
    async () => {
      const view = await getView(app, id);
      return statuses.includes(view.status) ? view : undefined;
    },
    timeoutMs,
    `research ${id} to reach ${statuses.join("/")}`,
  );
}

/** Level sizes as the tree arithmetic defines them, for assertions. */
export function countByDepth(view: ResearchView): number[] {
  const out: number[] = [];
  for (const q of view.serp_queries) out[q.depth - 1] = (out[q.depth - 1] ?? 0) + 1;
  return out;
}

export function citedUrls(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1]))];
}

/**
 * The page analyses in a fake LLM's log, as [page URL, search query] pairs: one for each query a page read
 * served (`<query search="…">` in a website-analyzer prompt) and one for each page an item selection chose
 * from for its query. A pair seen twice is a page analysed twice for a query: work redone. (A page may be
 * read more than once: a query reaching it just after its read went out reads it too, a hedged read; never
 * twice for the same query.)
 */
export function pageAnalyses(entries: { agent?: string | null; status?: number | null; messages: { content: unknown }[] }[]): string[] {
  const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  const promptOf = (e: (typeof entries)[number]) => e.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
  const pairs: string[] = [];
  for (const e of entries) {
    if (e.status !== 200) continue;
    const prompt = promptOf(e);
    if (e.agent === "website-analyzer") {
      const url = /<page url="([^"]*)"/.exec(prompt)?.[1] ?? "";
      for (const m of prompt.matchAll(/<query id="Q\d+" search="([^"]*)"/g)) pairs.push(`${unescape(url)} ← ${unescape(m[1])}`);
    } else if (e.agent === "item-selector") {
      const query = /<search_query>\s*([\s\S]*?)\s*<\/search_query>/.exec(prompt)?.[1] ?? "";
      for (const m of prompt.matchAll(/<page url="([^"]*)"/g)) pairs.push(`${unescape(m[1])} ← ${unescape(query)}`);
    }
  }
  return pairs;
}
