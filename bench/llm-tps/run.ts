// The llm-tps row (issue 57): one tree research with the fake LLM generating at a realistic speed
// (40 tokens a second by default: every reply takes its tokens at that rate after the fixed latency,
// streamed or not), measured as a user sees it: the time to the report's first token and to the
// research's end, each against its bound computed with the generation time (./bound.ts); and what
// the report's verification adds after the report's last token, against the report's own span
// (target < 10%). The verification of a streamed report runs on its parts as they are written
// (lib/verification/streamed.ts), so that only its last part's checks are left after the report.
// Also: server CPU per LLM call (target ≤ 2.5 ms).
import { loadavg } from "node:os";
import { TestApp } from "../../test/helpers/app-server";
import type { LlmLogEntry } from "../../test/fakes";
import type { FakesProcess } from "../tree/fakes-process";
import { verificationRounds, type BoundLatencies, type BoundLimits } from "../tree/bound";
import { sampleProcessTree } from "../tree/proc";
import { warmUp } from "../tree/warm-up";
import { boundQueriesOf, serverEnv } from "../tree/run-tree";
import { streamParts } from "../tree/stream-client";
import { computeTpsBound, type TpsBound } from "./bound";

export interface LlmTpsOptions {
  depth: number;
  breadth: number;
  tokensPerSecond: number;
  latencies: BoundLatencies;
  limits: BoundLimits;
  contextTokenBudget: number;
  fakes: FakesProcess;
  log: (line: string) => void;
}

export interface LlmTpsResult {
  depth: number;
  breadth: number;
  tokensPerSecond: number;
  status: string;
  /** From the start request, ms: the report's first token arriving at the stream client, the report call's end at the LLM, the research's end at the client. */
  firstTokenMs: number;
  reportEndMs: number;
  wallMs: number;
  reportStartMs: number;
  bound: TpsBound;
  firstTokenRatio: number;
  endRatio: number;
  /** What the verification adds after the report's last token (ms), and that over the report's span (first call to last token). */
  verificationAfterMs: number;
  verificationShare: number;
  /** Verification calls made while the report was written, and after it. */
  verifyCalls: { during: number; after: number; rounds: number };
  /** When the last check ended, after the report's last token (ms; ≤ 0: before it): the rest of what the verification adds is the writes and the final events. */
  lastCheckAfterReportMs: number;
  reportTokens: number;
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  cpuMsPerLlmCall: number;
  /** Server CPU over the run's wall time: at a real speed a run is mostly waiting, and what is spent per second (the report's streamed deltas, timers) weighs on each of its fewer calls. */
  cpuShareOfWall: number;
  load: number;
}

const now = () => performance.timeOrigin + performance.now();

/** Follows the research's stream: when the report's first delta and the terminal status arrived. */
async function followReport(url: string, headers: Record<string, string>): Promise<{ firstDeltaAt?: number; endedAt?: number; status?: string }> {
  const out: { firstDeltaAt?: number; endedAt?: number; status?: string } = {};
  for await (const { part, arrived } of streamParts(url, headers)) {
    if (part.type === "data-report-delta") out.firstDeltaAt ??= arrived;
    if (part.type === "data-run" && part.data?.status && part.data.status !== "running") {
      out.status = part.data.status;
      out.endedAt = arrived;
    }
  }
  return out;
}

async function configureLlm(fakes: FakesProcess, patch: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${new URL(fakes.env.OPENAI_BASE_URL).origin}/__control`, { method: "POST", body: JSON.stringify(patch) });
  if (!res.ok) throw new Error(`fake LLM /__control: HTTP ${res.status} ${await res.text()}`);
}

export async function runLlmTpsBench(o: LlmTpsOptions): Promise<LlmTpsResult> {
  const app = await TestApp.start({
    name: `bench-llm-tps-${o.depth}x${o.breadth}`,
    database: "sqlite",
    env: serverEnv(o),
  });
  try {
    // Warmed up at full speed (the fake's rate off), then measured at the rate.
    await warmUp(app);
    await o.fakes.resetLogs();
    await configureLlm(o.fakes, { tokensPerSecond: o.tokensPerSecond });
    const q = await app.postJson("/api/research/questions", { initial_prompt: `How do grid-scale batteries earn money? (llm-tps ${o.depth}x${o.breadth})`, num_questions: 2 });
    const { research_id: id, followup_questions: questions } = (await q.json()) as { research_id: string; followup_questions: string[] };
    const llmCallsBefore = (await o.fakes.llmLog()).length;
    const load = loadavg()[0];
    const sampler = sampleProcessTree(app.pid!);
    const t0 = now();
    const start = await app.postJson("/api/research/start", { research_id: id, followup_answers: questions.map(() => "Europe and the US since 2020, with figures."), depth: o.depth, breadth: o.breadth });
    if (start.status !== 202) throw new Error(`start: HTTP ${start.status} ${await start.text()}`);
    const stream = await followReport(`${app.url}/api/research/${id}/stream`, app.headers);
    const usage = sampler.stop();
    // Back to full speed for whatever runs next on these fakes (resetLogs restores the start options too).
    await configureLlm(o.fakes, { tokensPerSecond: 0 });
    if (stream.status !== "completed" || stream.endedAt === undefined || stream.firstDeltaAt === undefined) throw new Error(`the llm-tps research ended ${stream.status ?? "without a status"}`);

    const llmLog: LlmLogEntry[] = (await o.fakes.llmLog()).slice(llmCallsBefore);
    const research = await app.db.research.findUniqueOrThrow({ where: { id } });
    const queries = await app.db.serpQuery.findMany({ where: { researchId: id }, include: { queryPages: { include: { page: { select: { status: true } } } }, children: { select: { id: true } } } });
    const boundQueries = boundQueriesOf(queries, llmLog);
    const rounds = verificationRounds(llmLog);
    const bound = computeTpsBound({ latencies: o.latencies, limits: o.limits, tokensPerSecond: o.tokensPerSecond, queries: boundQueries, calls: llmLog, verificationRounds: rounds });
    const report = llmLog.filter((e) => e.agent === "report-writer").at(-1);
    if (!report?.endedAt) throw new Error("no report call ended");
    const verify = llmLog.filter((e) => e.agent === "citation-verifier" || e.agent === "uncited-claim-finder");
    const reportStartMs = report.at - t0;
    const reportEndMs = report.endedAt - t0;
    const wallMs = stream.endedAt - t0;
    const firstTokenMs = stream.firstDeltaAt - t0;
    const result: LlmTpsResult = {
      depth: o.depth,
      breadth: o.breadth,
      tokensPerSecond: o.tokensPerSecond,
      status: research.status,
      firstTokenMs,
      reportEndMs,
      wallMs,
      reportStartMs,
      bound,
      firstTokenRatio: firstTokenMs / bound.firstTokenMs,
      endRatio: wallMs / bound.endMs,
      verificationAfterMs: wallMs - reportEndMs,
      verificationShare: (wallMs - reportEndMs) / (reportEndMs - reportStartMs),
      lastCheckAfterReportMs: Math.max(...verify.map((e) => e.endedAt ?? e.at)) - report.endedAt,
      verifyCalls: { during: verify.filter((e) => e.at < report.endedAt!).length, after: verify.filter((e) => e.at >= report.endedAt!).length, rounds },
      reportTokens: report.completionTokens,
      llmCalls: research.llmCalls,
      promptTokens: research.promptTokens,
      completionTokens: research.completionTokens,
      cpuMsPerLlmCall: research.llmCalls > 0 ? (usage.cpuSeconds * 1000) / research.llmCalls : Number.NaN,
      cpuShareOfWall: usage.cpuSeconds / (wallMs / 1000),
      load,
    };
    o.log(
      `llm-tps ${o.depth}x${o.breadth} at ${o.tokensPerSecond} tokens/s: first token ${(firstTokenMs / 1000).toFixed(2)} s (bound ${(bound.firstTokenMs / 1000).toFixed(2)}, ${result.firstTokenRatio.toFixed(3)}), ` +
        `end ${(wallMs / 1000).toFixed(2)} s (bound ${(bound.endMs / 1000).toFixed(2)}, ${result.endRatio.toFixed(3)}); the report ${((reportEndMs - reportStartMs) / 1000).toFixed(2)} s, ` +
        `its verification adds ${(result.verificationAfterMs / 1000).toFixed(2)} s (${(100 * result.verificationShare).toFixed(1)}%; checks ${result.verifyCalls.during} during, ${result.verifyCalls.after} after, the last ending ${(result.lastCheckAfterReportMs / 1000).toFixed(2)} s after the report); ` +
        `CPU ${result.cpuMsPerLlmCall.toFixed(2)} ms per LLM call (${(100 * result.cpuShareOfWall).toFixed(1)}% of the wall)`,
    );
    return result;
  } finally {
    await app.stop();
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function formatLlmTpsMarkdown(rows: LlmTpsResult[]): string {
  const lines = [
    "## LLM at a realistic speed (llm-tps)",
    "",
    "One tree research with the fake LLM generating at the given rate after its latency; the bound of each instant is computed with the calls' generation time (bench/llm-tps/bound.ts). Target: the report's verification adds < 10% to the report's span. (CPU per LLM call here is over a run that mostly waits: the 2.5 ms target is the tree row's.)",
    "",
    "| size | tokens/s | first token (bound, ratio) | end (bound, ratio) | report span | verification after the report (share) | checks during / after | CPU per LLM call (of the wall) | load |",
    "| --- | ---: | --- | --- | ---: | --- | ---: | ---: | ---: |",
  ];
  for (const r of rows) {
    lines.push(
      `| (${r.depth}, ${r.breadth}) | ${r.tokensPerSecond} | ${s(r.firstTokenMs)} (${s(r.bound.firstTokenMs)}, ${r.firstTokenRatio.toFixed(3)}) | ${s(r.wallMs)} (${s(r.bound.endMs)}, ${r.endRatio.toFixed(3)}) | ${s(r.reportEndMs - r.reportStartMs)} | ` +
        `${s(r.verificationAfterMs)} (${(100 * r.verificationShare).toFixed(1)}% ${r.verificationShare < 0.1 ? "✓" : "✗"}) | ${r.verifyCalls.during} / ${r.verifyCalls.after} | ${r.cpuMsPerLlmCall.toFixed(2)} ms (${(100 * r.cpuShareOfWall).toFixed(1)}%) | ${r.load.toFixed(1)} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
