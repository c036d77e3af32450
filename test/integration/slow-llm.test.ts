// A provider that sometimes answers too slowly: the attempt times out (LLM_TIMEOUT_MS), is retried
// within the budget, and the research completes every branch with nothing lost.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { countByDepth, createAndStart, waitForStatus } from "../helpers/research";
import { queriesPerLevel } from "@/lib/explore/tree";

let fakes: Fakes & { faults: NonNullable<Fakes["faults"]> };
let app: TestApp;

before(async () => {
  // One request in four waits 4 s before it is forwarded; the product gives an attempt 1 s.
  fakes = await startFakes({ faults: { slowMs: 4_000, slowShare: 0.25, seed: 3 } });
  app = await TestApp.start({ name: "slow-llm", env: { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000", LLM_TIMEOUT_MS: "1000" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

test("slow LLM responses time out, are retried, and the research completes every branch", async () => {
  const id = await createAndStart(app, { depth: 2, breadth: 2, questions: 1 });
  const view = await waitForStatus(app, id, ["completed", "failed"], 180_000);
  assert.equal(view.status, "completed", view.error ?? "");
  assert.deepEqual(countByDepth(view), queriesPerLevel(2, 2));
  assert.ok(view.serp_queries.every((q) => q.status === "completed"));
  assert.deepEqual(view.successful_scraped_websites.filter((w) => /language model/i.test(w.error_message ?? "")), [], "no analysis lost");
  const stats = fakes.faults.stats();
  assert.ok(stats.repeats > 0 && stats.completed < stats.requests, `some attempts timed out and were sent again: ${JSON.stringify(stats)}`);
  assert.equal(stats.duplicateCompletions, 0);
});
