import { z } from "zod";
import type { AdaptiveLimit } from "../adaptive-limit";
import { backoffDelay, retryAfterOf, sleep } from "../concurrency";
import { errorMessage } from "../errors";
import { leanFetch } from "../lean-fetch";
import { storable } from "../validation/text";
import { SearchError, type SearchProvider, type SearchResult } from "./types";

const responseSchema = z.object({
  results: z
    .array(
      z.object({
        url: z.string(),
        title: z.string().optional().default(""),
        content: z.string().optional().nullable(),
      }),
    )
    .default([]),
});

/** Normalises a URL for de-duplication: no fragment, lower-case host. Returns null for non-http URLs. */
export function normalizeResultUrl(raw: string): string | null {
  try {
    const url = new URL(raw);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    url.hash = "";
    return url.toString();
  } catch {
    return null;
  }
}

export class SearxngProvider implements SearchProvider {
  readonly name = "searxng";

  constructor(
    private readonly baseUrl: string,
    /** `adaptive`: told of every answer, so that 429s lower the search limit and answers raise it back. */
    private readonly options: { timeoutMs: number; maxRetries: number; adaptive?: AdaptiveLimit },
  ) {}

  async search(query: string, { limit, signal, categories }: { limit: number; signal?: AbortSignal; categories?: string[] }): Promise<SearchResult[]> {
    const url = new URL("search", this.baseUrl.endsWith("/") ? this.baseUrl : `${this.baseUrl}/`);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "json");
    if (categories?.length) url.searchParams.set("categories", categories.join(","));
    const body = await this.fetchJson(url, signal);
    const parsed = responseSchema.safeParse(body);
    if (!parsed.success) throw new SearchError("SearXNG returned an unexpected JSON shape");
    // SearXNG returns the same URL from several engines; keep the first of each.
    const seen = new Set<string>();
    const results: SearchResult[] = [];
    for (const r of parsed.data.results) {
      const normalized = normalizeResultUrl(r.url);
      if (!normalized || seen.has(normalized)) continue;
      seen.add(normalized);
      // Outside text, saved with the page: made storable on both databases (NUL, lone surrogates).
      results.push({ url: normalized, title: storable(r.title), snippet: storable(r.content ?? "") });
      if (results.length >= limit) break;
    }
    return results;
  }

  private async fetchJson(url: URL, signal?: AbortSignal): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(this.options.timeoutMs);
      let problem: string;
      let retryAfter: number | undefined;
      try {
        const response = await leanFetch(url, {
          headers: { accept: "application/json" },
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        if (response.ok) {
          this.options.adaptive?.succeeded();
          return await response.json();
        }
        if (response.status === 429) this.options.adaptive?.rateLimited();
        problem = response.status === 403
          ? "SearXNG answered 403: enable the json format in its settings.yml (search.formats)"
          : `SearXNG answered HTTP ${response.status}`;
        retryAfter = retryAfterOf(response.headers);
        await response.body?.cancel().catch(() => undefined);
        if (response.status < 500 && response.status !== 429) throw new SearchError(problem);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (error instanceof SearchError) throw error;
        problem = timeout.aborted ? `SearXNG did not answer within ${this.options.timeoutMs} ms` : `SearXNG unreachable: ${errorMessage(error)}`;
      }
      if (attempt >= this.options.maxRetries) throw new SearchError(`${problem} (after ${attempt + 1} attempts)`);
      await sleep(retryAfter ?? backoffDelay(attempt, 300, 5_000), signal);
    }
  }
}
