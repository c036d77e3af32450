// The answer agent's figure: per question, its steps, tokens and wall time (POST /api/v1/query to the
// stream's final event) against the sum of its dependent calls' latencies — every LLM call, search
// and page read of a run happens one after another (a visit reads its pages at once: one web latency).
import type { BoundLatencies } from "../tree/bound";
import type { FakesProcess } from "../tree/fakes-process";
import { TestApp } from "../../test/helpers/app-server";
import { askAndWait } from "../../test/helpers/answer";

export const BENCH_QUESTIONS = [
  "What is 1+1=?",
  "How much storage did grid batteries add in 2024?",
  "What is the fabricated figure for lead service lines?",
  "What is probably the cost of replacing lead service lines?",
];

export interface AnswerRunResult {
  question: string;
  status: string;
  steps: number;
  actions: string[];
  tokens: number;
  llmCalls: number;
  searches: number;
  visits: number;
  wallMs: number;
  dependentMs: number;
  ratio: number;
}

export async function runAnswerBench({ fakes, latencies, questions = BENCH_QUESTIONS, log }: { fakes: FakesProcess; latencies: BoundLatencies; questions?: string[]; log: (line: string) => void }): Promise<AnswerRunResult[]> {
  const app = await TestApp.start({ name: "bench-answer", env: { ...fakes.env } });
  const out: AnswerRunResult[] = [];
  try {
    // Warm-up: the first request compiles routes and opens the database.
    await askAndWait(app, { q: "What is 1+1=? (warm-up)" });
    for (const question of questions) {
      await fakes.resetLogs();
      const started = performance.now();
      const { stored } = await askAndWait(app, { q: question });
      const wallMs = performance.now() - started;
      const llmCalls = (await fakes.llmLog()).filter((e) => e.agent.startsWith("answer-")).length;
      const searches = stored.steps.reduce((n, s) => n + ((s.payload.searched as string[] | undefined)?.length ?? 0), 0);
      const visits = stored.steps.filter((s) => s.action === "visit").length;
      const dependentMs = llmCalls * latencies.llmMs + searches * latencies.searchMs + visits * latencies.webMs;
      const r = { question, status: stored.status, steps: stored.steps.length, actions: stored.steps.map((s) => s.action), tokens: stored.usage.totalTokens, llmCalls, searches, visits, wallMs, dependentMs, ratio: dependentMs ? wallMs / dependentMs : 0 };
      log(`answer "${question}": ${r.status}, ${r.steps} steps, ${r.tokens} tokens, ${(wallMs / 1000).toFixed(2)} s wall vs ${(dependentMs / 1000).toFixed(2)} s of dependent calls (×${r.ratio.toFixed(2)})`);
      out.push(r);
    }
  } finally {
    await app.stop();
  }
  return out;
}

export function formatAnswerMarkdown(rows: AnswerRunResult[]): string {
  if (rows.length === 0) return "";
  const lines = [
    "## Answer agent",
    "",
    "Wall time from `POST /api/v1/query` to the stream's final event, against the sum of the latencies of the run's dependent calls (LLM calls, searches, one page-read latency per visit step), which run one after another.",
    "",
    "| question | status | steps (actions) | tokens | LLM calls | searches | wall s | dependent s | ratio |",
    "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) => `| ${r.question} | ${r.status} | ${r.steps} (${r.actions.join(" → ")}) | ${r.tokens} | ${r.llmCalls} | ${r.searches} | ${(r.wallMs / 1000).toFixed(2)} | ${(r.dependentMs / 1000).toFixed(2)} | ${r.ratio.toFixed(2)} |`),
    "",
  ];
  return lines.join("\n");
}
