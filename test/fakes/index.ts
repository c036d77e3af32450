// The loopback fakes in one call: fixture web server, fake SearXNG pointing at it, fake LLM, and
// the environment that points the product at them.
import { LlmFaultProxy, type FaultOptions } from "./llm-fault-proxy";
import { FakeLlm, type LlmOptions } from "./llm-server";
import { FakeSearch, type SearchOptions } from "./search-server";
import { FakeWeb, type WebOptions } from "./web-server";

export { FakeServer, type LatencyRule, type LogResponse } from "./fake-server";
export { LlmFaultProxy, usageOf, type FaultLogEntry, type FaultOptions, type FaultOutcome, type FaultStats } from "./llm-fault-proxy";
export { FakeLlm, estimateTokens, type LlmLogEntry, type LlmOptions } from "./llm-server";
export { FABRICATED_URL } from "./llm-report";
export { PLANTED_OVERSTATEMENT, PLANTED_UNCITED, PLANTED_UNSUPPORTED, type VerifyScenario } from "./llm-verify";
export type { QueryCountOverride } from "./llm-agents";
export { MISBEHAVE_MODES, REASONING_LEAKS, REASONING_MARKER, UNINSTRUCTED_MARKER, type MisbehaveMode } from "./llm-misbehave";
export { FakeSearch, type SearchLogEntry, type SearchOptions, type SearchResponse, type SearchResult } from "./search-server";
export { FakeWeb, type WebLogEntry, type WebOptions } from "./web-server";
export { CONTENT_PAGES, FAILING_PAGES, type FailingPage, type FixturePage } from "./web-pages";
export { buildDocx } from "./docx";
export { DIMENSIONS as FAKE_EMBEDDING_DIMENSIONS, fakeEmbedding } from "./llm-embeddings";
export { buildPdf, buildPdfPages } from "./pdf";

export interface StartFakesOptions {
  llm?: Partial<LlmOptions>;
  search?: Partial<SearchOptions>;
  web?: Partial<WebOptions>;
  /**
   * Put the fault-injecting proxy in front of the fake LLM (true: no faults until configured);
   * env.OPENAI_BASE_URL then points at the proxy, and `faults` is it.
   */
  faults?: Partial<Omit<FaultOptions, "upstream">> | true;
  /** Fixed ports (default 0: ephemeral). */
  ports?: { llm?: number; search?: number; web?: number; faults?: number };
}

export interface FakesEnv {
  OPENAI_BASE_URL: string;
  OPENAI_API_KEY: string;
  SEARXNG_URL: string;
  RESEARCH_MODEL: string;
  SCRAPE_ALLOW_PRIVATE: "1";
  [key: string]: string;
}

export interface Fakes {
  llm: FakeLlm;
  search: FakeSearch;
  web: FakeWeb;
  /** The fault proxy, when started with `faults`. */
  faults?: LlmFaultProxy;
  /** The product's environment: merge into process.env or a child process's env. */
  env: FakesEnv;
  /** Back to the start options, logs cleared, on all of them. */
  reset(): void;
  stop(): Promise<void>;
}

export async function startFakes(opts: StartFakesOptions & { faults: NonNullable<StartFakesOptions["faults"]> }): Promise<Fakes & { faults: LlmFaultProxy }>;
export async function startFakes(opts?: StartFakesOptions): Promise<Fakes>;
export async function startFakes(opts: StartFakesOptions = {}): Promise<Fakes> {
  const web = new FakeWeb(opts.web);
  const llm = new FakeLlm(opts.llm);
  const started: { stop(): Promise<void> }[] = [];
  try {
    await web.start(opts.ports?.web);
    started.push(web);
    const search = new FakeSearch(web.baseUrl, opts.search);
    await search.start(opts.ports?.search);
    started.push(search);
    await llm.start(opts.ports?.llm);
    started.push(llm);
    let faults: LlmFaultProxy | undefined;
    if (opts.faults) {
      faults = new LlmFaultProxy({ ...(opts.faults === true ? {} : opts.faults), upstream: llm.url });
      await faults.start(opts.ports?.faults);
      started.push(faults);
    }
    const all = [llm, search, web, ...(faults ? [faults] : [])];
    return {
      llm,
      search,
      web,
      faults,
      env: {
        OPENAI_BASE_URL: faults?.url ?? llm.url,
        OPENAI_API_KEY: "test-key",
        SEARXNG_URL: search.url,
        RESEARCH_MODEL: llm.currentOptions().model,
        // The fixture pages live on 127.0.0.1, which the SSRF guard refuses otherwise.
        SCRAPE_ALLOW_PRIVATE: "1",
      },
      reset() {
        for (const fake of all) fake.reset();
      },
      stop: () => Promise.all(all.map((fake) => fake.stop())).then(() => undefined),
    };
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()));
    throw error;
  }
}
