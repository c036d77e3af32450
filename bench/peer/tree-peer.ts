// The lean peer of issue 25's comparison: the tree design of dzhng/deep-research (the best-known open
// implementation of it), written here from its published description, so that `npm run bench` measures the
// two side by side in one fake world. Per level: one call plans up to `breadth` search queries (each with
// a research goal); each query, at most `concurrency` at a time per level and branch, is searched, its first
// five results are read whole, and one call turns them into learnings and follow-up questions; a query
// above the last level starts a branch of its own, ceil(breadth / 2) wide, from its goal and follow-ups
// and the learnings so far. One call writes the report from every learning. No database, no events, no
// limit across branches, no per-page analysis and no citations per claim: what makes it lean is what
// Quarry keeps. Only the bench runs it; the fake LLM answers its agents (test/fakes/llm-peer.ts).
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, Output, type LanguageModel } from "ai";
import { z } from "zod";
import { Semaphore } from "../../lib/concurrency";

export interface PeerOptions {
  prompt: string;
  depth: number;
  breadth: number;
  /** Queries at once per level and branch (the peer's `ConcurrencyLimit`; 16 in the issue's comparison). */
  concurrency: number;
  /** The fake LLM's OpenAI-compatible base URL, and its SearXNG's. */
  llmBaseUrl: string;
  searxngUrl: string;
  /** Results read per query. */
  resultsPerQuery?: number;
}

export interface PeerResult {
  wallMs: number;
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  queries: number;
  searches: number;
  pagesRead: number;
  learnings: number;
  reportChars: number;
  /** Queries that failed (the peer drops a failed branch and goes on). */
  failedQueries: number;
}

/** A page's text is cut to this many characters before it goes into a prompt (about 25k tokens). */
const PAGE_CHARS = 100_000;

const plannedQueries = z.object({
  queries: z.array(z.object({ query: z.string(), researchGoal: z.string() })),
});
const serpLearnings = z.object({ learnings: z.array(z.string()), followUpQuestions: z.array(z.string()) });
const finalReport = z.object({ reportMarkdown: z.string() });

/** The visible text of an HTML page (the peer's search service returns pages as markdown). */
export function pageText(html: string): string {
  return html
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<\/(p|div|h[1-6]|li|tr|section|article|header|footer|blockquote)\s*>|<br\s*\/?>/gi, "\n")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/[ \t]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
}

class Peer {
  private readonly model: LanguageModel;
  readonly stats = { llmCalls: 0, promptTokens: 0, completionTokens: 0, queries: 0, searches: 0, pagesRead: 0, failedQueries: 0 };

  constructor(private readonly o: PeerOptions) {
    this.model = createOpenAI({ baseURL: o.llmBaseUrl, apiKey: "bench-peer" }).chat("fake-model");
  }

  private async object<T>(agent: string, prompt: string, schema: z.ZodType<T>): Promise<T> {
    const result = await generateText({
      model: this.model,
      system: `You are the bench peer's ${agent} agent. You are an expert researcher: be detailed, accurate and specific.`,
      prompt,
      output: Output.object({ schema }),
      maxRetries: 2,
    });
    this.stats.llmCalls++;
    this.stats.promptTokens += result.usage.inputTokens ?? 0;
    this.stats.completionTokens += result.usage.outputTokens ?? 0;
    return result.output as T;
  }

  private plan(prompt: string, count: number, learnings: string[]) {
    return this.object(
      "peer-planner",
      `Plan up to <count>${count}</count> distinct search queries for the research below.\n<prompt>${prompt}</prompt>` +
        (learnings.length ? `\nLearnings so far, to make the queries more specific:\n<learnings>\n${learnings.join("\n")}\n</learnings>` : ""),
      plannedQueries,
    );
  }

  /** The query's first results, each read whole (pages that fail are left out). */
  private async search(query: string): Promise<{ url: string; text: string }[]> {
    this.stats.searches++;
    const url = new URL("/search", this.o.searxngUrl);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "json");
    const res = await fetch(url);
    if (!res.ok) throw new Error(`search: HTTP ${res.status}`);
    const { results } = (await res.json()) as { results: { url: string }[] };
    const urls = [...new Set(results.map((r) => r.url))].slice(0, this.o.resultsPerQuery ?? 5);
    const pages = await Promise.all(
      urls.map(async (pageUrl) => {
        try {
          const page = await fetch(pageUrl, { signal: AbortSignal.timeout(15_000) });
          if (!page.ok) return null;
          this.stats.pagesRead++;
          return { url: pageUrl, text: pageText(await page.text()).slice(0, PAGE_CHARS) };
        } catch {
          return null;
        }
      }),
    );
    return pages.filter((p) => p !== null);
  }

  private learn(query: string, contents: string[], followUps: number) {
    return this.object(
      "peer-learner",
      `List up to <learnings_count>3</learnings_count> distinct, information-dense learnings from the results of the search ` +
        `<query>${query}</query>, and up to <follow_ups>${followUps}</follow_ups> follow-up questions.\n` +
        `<contents>${contents.map((c) => `<content>\n${c}\n</content>`).join("\n")}</contents>`,
      serpLearnings,
    );
  }

  async explore(prompt: string, depth: number, breadth: number, learnings: string[], urls: string[]): Promise<{ learnings: string[]; urls: string[] }> {
    const { queries } = await this.plan(prompt, breadth, learnings);
    // One limit per level and branch, as in the peer (not one across the tree).
    const limit = new Semaphore(this.o.concurrency);
    const branches = await Promise.all(
      queries.slice(0, breadth).map((q) =>
        limit.run(async () => {
          this.stats.queries++;
          try {
            const pages = await this.search(q.query);
            const childBreadth = Math.ceil(breadth / 2);
            const found = await this.learn(q.query, pages.map((p) => p.text), childBreadth);
            const allLearnings = [...learnings, ...found.learnings];
            const allUrls = [...urls, ...pages.map((p) => p.url)];
            if (depth <= 1) return { learnings: allLearnings, urls: allUrls };
            const next = `Previous research goal: ${q.researchGoal}\nFollow-up research directions:\n${found.followUpQuestions.join("\n")}`;
            return this.explore(next, depth - 1, childBreadth, allLearnings, allUrls);
          } catch {
            this.stats.failedQueries++;
            return { learnings: [], urls: [] };
          }
        }),
      ),
    );
    return { learnings: [...new Set(branches.flatMap((b) => b.learnings))], urls: [...new Set(branches.flatMap((b) => b.urls))] };
  }

  async report(prompt: string, learnings: string[]): Promise<string> {
    const { reportMarkdown } = await this.object(
      "peer-writer",
      `Write a detailed report on the prompt from every learning below.\n<prompt>${prompt}</prompt>\n<learnings>\n${learnings.map((l) => `<learning>${l}</learning>`).join("\n")}\n</learnings>`,
      finalReport,
    );
    return reportMarkdown;
  }
}

/** One research by the peer, from its first call to its report. */
export async function runTreePeer(o: PeerOptions): Promise<PeerResult> {
  const peer = new Peer(o);
  const t0 = performance.now();
  const found = await peer.explore(o.prompt, o.depth, o.breadth, [], []);
  const report = await peer.report(o.prompt, found.learnings);
  const wallMs = performance.now() - t0;
  return { wallMs, ...peer.stats, learnings: found.learnings.length, reportChars: report.length };
}

/**
 * The peer's bound: its critical path (per level a planning call, a search, a page and a learning call,
 * then the report call). It has no shared limit, so no throughput term.
 */
export function peerBoundMs(depth: number, latencies: { llmMs: number; searchMs: number; webMs: number }): number {
  return depth * (2 * latencies.llmMs + latencies.searchMs + latencies.webMs) + latencies.llmMs;
}
