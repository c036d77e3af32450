// A model served with a small context window that refuses a longer prompt with a 400 naming the window
// (vLLM past max_model_len; llama.cpp's n_ctx, LM Studio, TGI alike): the report, whose findings were
// within REPORT_TOKEN_BUDGET but not within the window, is built again held to it (its findings
// summarised by branch) instead of failing the research at its end; later prompts are held to it at once.
// In process against the fakes (test/helpers/misbehaving-runs.ts), the tree alone.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { startMisbehaveHarness } from "../helpers/misbehaving-runs";

// The tree's prompts here: its report's about 2,100 tokens, every other call's under 1,000. The window is
// well under the report's (at 1,800 a run beside CI's other lanes once read fewer pages, and its report
// fit without a refusal).
const WINDOW = 1_400;
const harness = await startMisbehaveHarness({ depth: 2, breadth: 2, engines: ["tree"], llm: { contextLimit: WINDOW } });
after(() => harness.stop());

test("a report longer than the server's context window is built again within it, and the research completes with its citations", async () => {
  const result = await harness.run(null);
  const tree = result.runs[0];
  assert.ok(tree.completed, `tree ended ${tree.status}: ${tree.error}`);
  const log = harness.fakes.llm.log;
  const refused = log.filter((e) => e.status === 400);
  assert.deepEqual(refused.map((e) => e.agent), ["report-writer"], "one prompt refused: the report's first");
  const reports = log.filter((e) => e.agent === "report-writer" && e.status === 200);
  assert.equal(reports.length, 1);
  assert.ok(reports[0].promptTokens <= WINDOW, `the report's prompt ${reports[0].promptTokens} tokens`);
  assert.ok(log.some((e) => e.agent === "branch-summarizer" && e.status === 200), "its findings were summarised by branch to fit");
  assert.ok((tree.citations?.writtenCited ?? 0) > 0, "the report cites its sources");
  assert.deepEqual(tree.citations?.lost, []);
});
