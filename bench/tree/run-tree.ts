// One tree-research benchmark run: a fresh production server (its own database, SQLite or PostgreSQL,
// created by TestApp), warmed up with a tiny research, then one research of the given depth × breadth
// through the HTTP API with a stream client attached. Measures wall time, the bound, server CPU and
// memory, rows, SQL statements, LLM work, pages fetched, prompt tokens per depth and stream latency.
import fs from "node:fs";
import path from "node:path";
import { TestApp } from "../../test/helpers/app-server";
import { tagOf } from "../../test/fakes/llm-parse";
import { largeWebPages } from "../../test/fakes/web-large";
import { TOPICS } from "../../test/fakes/web-topics";
import type { FaultOptions, FaultStats, LlmLogEntry, WebLogEntry } from "../../test/fakes";
import { totalQueries } from "@/lib/explore/tree";
import { computeBound, verificationRounds, type Bound, type BoundLatencies, type BoundLimits, type BoundQuery } from "./bound";
import { cpuSeconds, sampleProcessTree } from "./proc";
import { quantile } from "../extraction-measure";
import { followStream } from "./stream-client";
import type { FakesProcess } from "./fakes-process";
import { readStatements, statementCounter, statementsBetween, type LoopDelay, type StatementCounts } from "./statements";
import type { BenchDatabase } from "./database";
import { clearQueuePrefix, TestWorker } from "../../test/helpers/worker";
import { warmUp } from "./warm-up";

export interface TreeRunOptions {
  depth: number;
  breadth: number;
  /** The server's database (TestApp creates and drops it); default SQLite. */
  database?: BenchDatabase;
  latencies: BoundLatencies;
  limits: BoundLimits;
  contextTokenBudget: number;
  fakes: FakesProcess;
  /** Write the server's CPU profile (.cpuprofile) into this folder. */
  profileDir?: string;
  /** Extra flags for the server's node process. */
  serverNodeArgs?: string[];
  /**
   * The fault mix the proxy applies to the measured research (not to the warm-up or the questions);
   * the fakes must run with the proxy. A fault run records how the research ended instead of throwing.
   */
  faults?: Partial<FaultOptions>;
  /** Give up waiting for the terminal status after this long (fault runs; default 10 min). */
  timeoutMs?: number;
  /**
   * Queue mode (issue 26): the research runs on this many `npm run worker` processes over Redis and
   * PostgreSQL (the web process only serves); `server` CPU is then the web process's alone.
   */
  queue?: { workers: number; redisUrl: string };
}

export interface FaultRunResult {
  options: Partial<FaultOptions>;
  /** Queries by status at the end, and against the tree arithmetic's count for depth × breadth. */
  plannedQueries: number;
  completedQueries: number;
  queriesByStatus: Record<string, number>;
  /** The stream had not ended when timeoutMs ran out. */
  timedOut: boolean;
  /**
   * The fault-free bound the wall time is held against: the fault-free row's of the same depth ×
   * breadth when the bench ran one (run.ts sets it), else the bound over the tree this run built.
   */
  faultFreeBoundMs: number;
  boundFrom: "fault-free row" | "tree built";
  ratioToFaultFreeBound: number;
  error: string | null;
  /** The proxy's counters: injected faults, retries (repeated bodies), completions and their usage. */
  proxy: FaultStats;
}

export interface DepthTokens {
  depth: number;
  queries: number;
  /** All prompt tokens charged to the queries of this depth (their page analyses and child generation), per query. */
  promptTokensPerQuery: number;
  /** Prompt tokens of the child-generation calls made by queries of this depth (null at the last depth). */
  childGeneration: { calls: number; meanPromptTokens: number; maxPromptTokens: number; maxChainTokens: number } | null;
}

export interface TreeRunResult {
  depth: number;
  breadth: number;
  /** Absent in results recorded before the --database option: those ran on SQLite (see databaseOf). */
  database?: BenchDatabase;
  status: string;
  wallMs: number;
  bound: Bound;
  ratio: number;
  /** peakRssMb: the process tree's summed RSS; peakPssMb: its memory, shared pages split (bench/tree/proc.ts). */
  server: { cpuSeconds: number; cpuShareOfWall: number; peakRssMb: number; peakPssMb?: number; byProcess: { name: string; cpuSeconds: number; peakPssMb: number }[] };
  rows: { research: number; serpQueries: number; pages: number; queryPages: number; extractedItems: number; total: number };
  /**
   * SQL statements the server sent from the start request to the stream's end, counted in the
   * drivers (bench/tree/count-statements.cjs); absent in results recorded before it was counted.
   */
  statements?: StatementCounts;
  llm: { calls: number; promptTokens: number; completionTokens: number; callsByAgent: Record<string, number> };
  pages: { fetched: number; distinctUrls: number; analysed: number; failed: number };
  queriesByDepth: number[];
  tokensByDepth: DepthTokens[];
  stream: { parts: number; byType?: Record<string, number>; medianMs: number; p95Ms: number; maxMs: number };
  /**
   * Planted facts (the fixture topics' fact sentences) on the pages the research read, and the share
   * of them that reached the extracted items and the report. Absent in results recorded before.
   */
  quality?: { plantedFacts: number; inItems: number; inReport: number };
  /** Queue mode's workers, when the research ran on them (absent: the embedded mode), and their CPU seconds together over the research. */
  queueWorkers?: number;
  queueCpuSeconds?: number;
  /** Bytes of `GET /api/research/:id` once the research finished (what a polling client downloads). */
  statusBytes?: number;
  /** Bytes of `GET /api/research/:id?view=status` (the lean status view) then. */
  statusLeanBytes?: number;
  /** The server's event-loop delay from the start request to the stream's end (absent in results recorded before). */
  loopDelay?: LoopDelay;
  /** Server CPU (ms) per LLM call of the research. */
  cpuMsPerLlmCall?: number;
  /** The large fixture web (`--web-pages`, 0: the 26 small pages): its size, and the distinct pages of it fetched, their HTML's bytes and how many were over 1 MB or slow. */
  web?: { pages: number; distinctFetched: number; bytesFetched: number; over1Mb: number; slow: number };
  /** How busy the LLM slots were: overall, and per 500 ms from the start (mean calls in flight). */
  llmSlots: { busyShare: number; perHalfSecond: number[]; firstCallMs: number; reportStartMs: number };
  faults?: FaultRunResult;
}

function largeWebFetched(count: number, paths: string[]): NonNullable<TreeRunResult["web"]> {
  const fetched = new Set(paths);
  const read = largeWebPages(count).filter((p) => fetched.has(p.path));
  return {
    pages: count,
    distinctFetched: read.length,
    bytesFetched: read.reduce((n, p) => n + p.bytes, 0),
    over1Mb: read.filter((p) => p.bytes > 1_000_000).length,
    slow: read.filter((p) => p.slowMs > 0).length,
  };
}

const estimateTokens = (text: string) => Math.ceil(text.length / 4);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** The app's settings for a bench run: the fakes, the limits measured, no rate limit in the way. */
export function serverEnv(o: Pick<TreeRunOptions, "limits" | "contextTokenBudget" | "fakes" | "faults">): Record<string, string> {
  if (o.faults && !o.fakes.faultsUrl) throw new Error("a fault run needs the fakes started with the fault proxy");
  return {
    ...o.fakes.env,
    // Only fault runs go through the proxy, so that the other rows measure no extra hop.
    ...(o.faults ? { OPENAI_BASE_URL: o.fakes.faultsUrl! } : {}),
    LLM_CONCURRENCY: String(o.limits.llmConcurrency),
    SEARCH_CONCURRENCY: String(o.limits.searchConcurrency),
    SCRAPE_CONCURRENCY: String(o.limits.fetchConcurrency),
    ANALYZE_CONCURRENCY_PER_QUERY: String(o.limits.analyzeConcurrencyPerQuery),
    CONTEXT_TOKEN_BUDGET: String(o.contextTokenBudget),
    RATE_LIMIT_STARTS_PER_HOUR: "1000",
    RATE_LIMIT_PLANNING_CALLS_PER_HOUR: "1000",
    RESUME_ON_START: "0",
  };
}

/**
 * A research's queries as the bound counts them: pages found, pages read (fetched), and whether the Query
 * Generator planned its children (a call after its reads; children chosen from what its reads proposed
 * cost none), read from the run's LLM log.
 */
export function boundQueriesOf(queries: { id: string; parentId: string | null; text: string; queryPages: { page: { status: string } }[]; children: unknown[] }[], llmLog: LlmLogEntry[]): BoundQuery[] {
  const planned = new Set<string>();
  for (const e of llmLog) {
    if (e.agent !== "query-generator") continue;
    const parent = /<query level="parent">\s*Query: (.*)/.exec(promptText(e))?.[1]?.trim();
    if (parent) planned.add(parent);
  }
  return queries.map((sq) => ({
    id: sq.id,
    parentId: sq.parentId,
    pages: sq.queryPages.length,
    // Every page that was fetched got an analysis call, whatever its outcome.
    analyses: sq.queryPages.filter((qp) => qp.page.status === "scraped").length,
    generatedChildren: sq.children.length > 0 && planned.has(sq.text),
  }));
}

/** An LLM call's messages as one text (the fake LLM logs them as sent), for reading what a call was about. */
export const promptText = (e: LlmLogEntry): string => e.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join(" ");

/**
 * BENCH_TIMELINE_DIR: a run's LLM calls (agent, the first URL of the prompt: an analysis's page), searches and
 * page requests with their start times (ms since the epoch; t0 is the start request), for reading where its
 * time went. One file per row: `<name>-<database>.json` (the SQLite and PostgreSQL rows of a tree size apart).
 */
/** A BENCH_TIMELINE_DIR file (read by bench/tree/hops.ts). */
export interface Timeline {
  t0: number;
  wallMs: number;
  /** The run's start and end on the monotonic clock, in µs: the clock of --cpu-prof's profiles (their startTime and timeDeltas), for reading a process's profile over the run alone. */
  hrStartUs: number;
  hrEndUs: number;
  search: { at: number; q: string }[];
  llm: { at: number; agent: string; status: number | null; url?: string; q?: string }[];
  web: WebLogEntry[];
}

/** The monotonic clock in µs (as --cpu-prof's profiles count). */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

async function writeTimeline(file: string, r: { t0: number; wallMs: number; hrStartUs: number; hrEndUs: number; fakes: FakesProcess; llmLog: LlmLogEntry[]; webLog: WebLogEntry[] }): Promise<void> {
  const searches = (await (await fetch(`${new URL(r.fakes.env.SEARXNG_URL).origin}/__log`)).json()) as { entries: { at: number; q: string }[] };
  const llm = r.llmLog.flatMap((e) => {
    const text = promptText(e);
    // The first URL of the prompt (an analysis's page), and the query the call serves: an item
    // selection's search query, or the parent whose children a planning call plans (the chain's last).
    // A page read serves every query it names (<query search="…">): an entry for each.
    const url = /https?:\/\/[^\s"<>)]+/.exec(text)?.[0];
    const read = [...text.matchAll(/<query id="[^"]*" search="([^"]*)">/g)].map((m) => m[1].replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&amp;/g, "&"));
    if (read.length > 0) return read.map((q) => ({ at: e.at, agent: e.agent, status: e.status, url, q }));
    const q = /<search_query>\s*([\s\S]*?)\s*<\/search_query>/.exec(text)?.[1] ?? [...text.matchAll(/Query: (.*)/g)].at(-1)?.[1];
    return [{ at: e.at, agent: e.agent, status: e.status, url, q }];
  });
  const timeline: Timeline = {
    t0: r.t0,
    wallMs: r.wallMs,
    hrStartUs: r.hrStartUs,
    hrEndUs: r.hrEndUs,
    search: searches.entries.map((e) => ({ at: e.at, q: e.q })),
    llm,
    web: r.webLog,
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(timeline));
}

/** The research question of a tree row (the lean peer's rows ask it too). */
export const benchPrompt = (depth: number, breadth: number) => `How do grid-scale batteries earn money? (benchmark ${depth}x${breadth})`;

export async function runTree(o: TreeRunOptions): Promise<TreeRunResult> {
  // Queue mode needs PostgreSQL (workers in other processes share the database).
  const database = o.queue ? "postgres" : (o.database ?? "sqlite");
  const name = `bench-${o.depth}x${o.breadth}${o.faults ? "-faults" : ""}${o.queue ? `-queue${o.queue.workers}w` : ""}`;
  const counter = statementCounter(name);
  const prefix = o.queue ? `quarry-bench-tree-${process.pid}-${Date.now()}` : undefined;
  const queueEnv: Record<string, string> = o.queue ? { REDIS_URL: o.queue.redisUrl, REDIS_KEY_PREFIX: prefix! } : {};
  const app = await TestApp.start({ name, database, env: { ...serverEnv(o), ...queueEnv, ...counter.env },
    nodeArgs: [...counter.nodeArgs, ...(o.serverNodeArgs ?? []), ...(o.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${o.profileDir}`] : [])],
  });
  const workers: TestWorker[] = [];
  try {
    // Queue mode: the workers, on the web process's database, Redis and environment.
    for (let i = 0; i < (o.queue?.workers ?? 0); i++) workers.push(await TestWorker.start(app, `${name}-w${i + 1}`, {}, [
      ...(o.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${o.profileDir}`] : []),
      // Which statements the workers send, by count (bench/tree/count-statements.cjs), as the queue rows' workers.
      ...(process.env.QUARRY_BENCH_STATEMENT_TEXTS ? counter.nodeArgs : []),
    ]));
    // Warm-up: every route and module loaded, the hot code compiled, in each worker too (bench/tree/warm-up.ts).
    await warmUp(app, o.queue?.workers ?? 1);
    await o.fakes.resetLogs();

    const prompt = benchPrompt(o.depth, o.breadth);
    const q = await app.postJson("/api/research/questions", { initial_prompt: prompt, num_questions: 2 });
    const { research_id: id, followup_questions: questions } = (await q.json()) as { research_id: string; followup_questions: string[] };
    const llmCallsBefore = (await o.fakes.llmLog()).length;
    if (o.faults) await o.fakes.configureFaults(o.faults);

    const statementsBefore = await readStatements(app.pid!, counter.file);
    const sampler = sampleProcessTree(app.pid!);
    const workersCpu = () => workers.reduce((n, w) => n + (w.pid === undefined ? 0 : cpuSeconds(w.pid)), 0);
    const workersCpu0 = workersCpu();
    const t0 = performance.timeOrigin + performance.now();
    const hrStartUs = monotonicUs();
    const start = await app.postJson("/api/research/start", {
      research_id: id,
      followup_answers: questions.map(() => "Europe and the US since 2020, with figures."),
      depth: o.depth,
      breadth: o.breadth,
    });
    if (start.status !== 202) throw new Error(`start: HTTP ${start.status} ${await start.text()}`);
    const timeoutMs = o.faults ? (o.timeoutMs ?? 600_000) : undefined;
    const stream = await followStream(`${app.url}/api/research/${id}/stream`, app.headers, timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined)
      .catch((error: unknown) => {
        if (!o.faults || !(error instanceof DOMException && error.name === "TimeoutError")) throw error;
        return undefined;
      });
    const usage = sampler.stop();
    const hrEndUs = monotonicUs();
    const queueCpuSeconds = workersCpu() - workersCpu0;
    const statementsAfter = await readStatements(app.pid!, counter.file);
    const statements = statementsBetween(statementsBefore, statementsAfter);
    if (o.faults) await o.fakes.configureFaults({ rate429: 0, rate500: 0, outage: false, outageUntil: 0, slowMs: 0 });
    if (!stream) {
      // Timed out: cancel the run so that the server stops promptly, then measure what is there.
      await app.postJson(`/api/research/${id}/cancel`, {}).catch(() => undefined);
    }
    const latencies = [...(stream?.latenciesMs ?? [])].sort((a, b) => a - b);
    const wallMs = (stream?.endedAt ?? performance.timeOrigin + performance.now()) - t0;

    const research = await app.db.research.findUniqueOrThrow({ where: { id } });
    const statusBytes = (await (await app.fetch(`/api/research/${id}`)).arrayBuffer()).byteLength;
    const leanStatus = await app.fetch(`/api/research/${id}?view=status`);
    const statusLeanBytes = leanStatus.ok ? (await leanStatus.arrayBuffer()).byteLength : undefined;
    const queries = await app.db.serpQuery.findMany({
      where: { researchId: id },
      include: { queryPages: { include: { page: { select: { status: true } } } }, children: { select: { id: true } } },
    });
    const pages = await app.db.page.findMany({ where: { researchId: id } });
    const rows = {
      research: 1,
      serpQueries: queries.length,
      pages: pages.length,
      queryPages: await app.db.queryPage.count({ where: { query: { researchId: id } } }),
      extractedItems: await app.db.extractedItem.count({ where: { researchId: id } }),
      total: 0,
    };
    rows.total = rows.research + rows.serpQueries + rows.pages + rows.queryPages + rows.extractedItems;

    const llmLog = (await o.fakes.llmLog()).slice(llmCallsBefore);
    const webLog = await o.fakes.webLog();
    if (process.env.BENCH_TIMELINE_DIR) {
      await writeTimeline(path.join(process.env.BENCH_TIMELINE_DIR, `${name}-${database}.json`), { t0, wallMs, hrStartUs, hrEndUs, fakes: o.fakes, llmLog, webLog });
    }
    const callsByAgent: Record<string, number> = {};
    for (const e of llmLog) callsByAgent[e.agent] = (callsByAgent[e.agent] ?? 0) + 1;

    const boundQueries = boundQueriesOf(queries, llmLog);
    const bound = computeBound({
      latencies: o.latencies,
      limits: o.limits,
      queries: boundQueries,
      llmCalls: llmLog.length,
      pagesFetched: pages.filter((p) => p.status === "scraped" || p.status === "failed").length,
      reportSteps: callsByAgent["branch-summarizer"] ? 2 : 1,
      verificationRounds: verificationRounds(llmLog),
    });

    const quality = plantedFactRecall(
      pages.filter((p) => p.status === "scraped").map((p) => p.content ?? ""),
      (await app.db.extractedItem.findMany({ where: { researchId: id }, select: { content: true } })).map((i) => i.content),
      research.report ?? "",
    );

    const llmSlots = slotUsage(llmLog, t0, wallMs, o.latencies.llmMs, o.limits.llmConcurrency);

    const queriesByDepth: number[] = [];
    for (const sq of queries) queriesByDepth[sq.depth - 1] = (queriesByDepth[sq.depth - 1] ?? 0) + 1;

    const result: TreeRunResult = {
      depth: o.depth,
      breadth: o.breadth,
      database,
      status: research.status,
      wallMs,
      bound,
      ratio: wallMs / bound.boundMs,
      server: {
        cpuSeconds: usage.cpuSeconds,
        cpuShareOfWall: usage.cpuSeconds / (wallMs / 1000),
        byProcess: usage.byProcess,
        peakRssMb: usage.peakRssBytes / 1024 / 1024,
        peakPssMb: usage.peakPssBytes / 1024 / 1024,
      },
      rows,
      statements,
      llm: { calls: research.llmCalls, promptTokens: research.promptTokens, completionTokens: research.completionTokens, callsByAgent },
      pages: {
        fetched: webLog.filter((e) => e.path !== "/").length,
        distinctUrls: new Set(webLog.map((e) => e.path)).size,
        analysed: queries.reduce((n, sq) => n + sq.queryPages.filter((qp) => qp.status === "analyzed").length, 0),
        failed: pages.filter((p) => p.status === "failed").length,
      },
      queriesByDepth,
      tokensByDepth: tokensByDepth(queries, llmLog),
      llmSlots,
      quality,
      statusBytes,
      statusLeanBytes,
      loopDelay: statementsAfter.loopDelay,
      // In queue mode the workers did the work: the web process's CPU says nothing per call.
      cpuMsPerLlmCall: research.llmCalls > 0 && !o.queue ? (usage.cpuSeconds * 1000) / research.llmCalls : undefined,
      ...(o.queue ? { queueWorkers: o.queue.workers, queueCpuSeconds } : {}),
      web: largeWebFetched(o.fakes.webPages, webLog.map((e) => e.path)),
      stream: {
        parts: stream?.parts ?? 0,
        byType: stream?.byType ?? {},
        medianMs: quantile(latencies, 0.5),
        p95Ms: quantile(latencies, 0.95),
        maxMs: latencies.at(-1) ?? Number.NaN,
      },
    };
    if (o.faults) {
      const queriesByStatus: Record<string, number> = {};
      for (const sq of queries) queriesByStatus[sq.status] = (queriesByStatus[sq.status] ?? 0) + 1;
      result.faults = {
        options: o.faults,
        plannedQueries: totalQueries(o.depth, o.breadth),
        completedQueries: queriesByStatus.completed ?? 0,
        queriesByStatus,
        timedOut: !stream,
        faultFreeBoundMs: bound.boundMs,
        boundFrom: "tree built",
        ratioToFaultFreeBound: result.ratio,
        error: research.error,
        proxy: await o.fakes.faultStats(),
      };
      return result;
    }
    if (research.status !== "completed") throw new Error(`the ${o.depth}x${o.breadth} research ended ${research.status}: ${research.error}`);
    if (!stream?.finished) throw new Error("the stream ended without its finish part");
    return result;
  } finally {
    for (const w of workers) await (o.profileDir ? w.terminate() : w.stop());
    await app.stop({ graceful: Boolean(o.profileDir) });
    if (o.queue) await clearQueuePrefix(o.queue.redisUrl, prefix!);
    fs.rmSync(counter.file, { force: true });
  }
}

/** LLM calls in flight over the run, from the fake's request log (each call lasts its fixed latency). */
function slotUsage(log: LlmLogEntry[], t0: number, wallMs: number, latencyMs: number, slots: number): TreeRunResult["llmSlots"] {
  const bucketMs = 500;
  const perHalfSecond = Array.from({ length: Math.ceil(wallMs / bucketMs) }, () => 0);
  let busy = 0;
  for (const e of log) {
    const start = e.at - t0;
    const end = start + latencyMs;
    busy += latencyMs;
    for (let b = Math.max(0, Math.floor(start / bucketMs)); b < perHalfSecond.length && b * bucketMs < end; b++) {
      const overlap = Math.min(end, (b + 1) * bucketMs) - Math.max(start, b * bucketMs);
      if (overlap > 0) perHalfSecond[b] += overlap / bucketMs;
    }
  }
  const report = log.find((e) => e.agent === "report-writer" || e.agent === "branch-summarizer");
  return {
    busyShare: busy / (wallMs * slots),
    perHalfSecond: perHalfSecond.map((v) => Math.round(v * 10) / 10),
    firstCallMs: log.length ? log[0].at - t0 : 0,
    reportStartMs: report ? report.at - t0 : wallMs,
  };
}

/** Prompt tokens per query by depth, and the child-generation prompts' size against the context budget. */
function tokensByDepth(
  queries: { id: string; depth: number; text: string; promptTokens: number }[],
  llmLog: LlmLogEntry[],
): DepthTokens[] {
  const depthOfText = new Map(queries.map((q) => [q.text, q.depth]));
  const generations = new Map<number, { prompt: number; chain: number }[]>();
  for (const e of llmLog) {
    if (e.agent !== "query-generator") continue;
    const user = e.messages.find((m) => m.role === "user");
    const text = typeof user?.content === "string" ? user.content : "";
    const chain = tagOf(text, "parent_chain")?.content;
    if (!chain) continue; // root generation
    const parentText = /level="parent">\s*Query: (.*)/.exec(chain)?.[1]?.trim();
    const depth = parentText ? depthOfText.get(parentText) : undefined;
    if (depth === undefined) continue;
    const list = generations.get(depth) ?? [];
    list.push({ prompt: e.promptTokens, chain: estimateTokens(chain) });
    generations.set(depth, list);
  }
  const maxDepth = Math.max(...queries.map((q) => q.depth));
  return Array.from({ length: maxDepth }, (_, i) => {
    const depth = i + 1;
    const atDepth = queries.filter((q) => q.depth === depth);
    const gens = generations.get(depth) ?? [];
    return {
      depth,
      queries: atDepth.length,
      promptTokensPerQuery: mean(atDepth.map((q) => q.promptTokens)),
      childGeneration: gens.length
        ? {
            calls: gens.length,
            meanPromptTokens: mean(gens.map((g) => g.prompt)),
            maxPromptTokens: Math.max(...gens.map((g) => g.prompt)),
            maxChainTokens: Math.max(...gens.map((g) => g.chain)),
          }
        : null,
    };
  });
}


const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

/**
 * Of the planted facts on the pages read (each topic's fact sentences), the share found in the
 * extracted items and in the report (whole sentence, case and punctuation aside).
 */
export function plantedFactRecall(pageTexts: string[], items: string[], report: string): { plantedFacts: number; inItems: number; inReport: number } {
  const pages = squash(pageTexts.join(" \n "));
  const facts = [...new Set(TOPICS.flatMap((t) => t.facts).map(squash))].filter((f) => pages.includes(f));
  const itemText = squash(items.join(" \n "));
  const reportText = squash(report);
  const share = (text: string) => (facts.length ? facts.filter((f) => text.includes(f)).length / facts.length : 0);
  return { plantedFacts: facts.length, inItems: share(itemText), inReport: share(reportText) };
}
