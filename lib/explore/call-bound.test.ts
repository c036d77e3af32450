// The wizard's LLM-call estimate against the engine's real count: the tree (exploreTree) run on the
// loopback fakes, once with every reply valid and once with repairs and lost planning calls, must
// stay within the estimate's bounds, and the estimate's retry limits must be the engine's own.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { startFakes, type Fakes } from "../../test/fakes";

await useTestDatabase();
const fakes: Fakes = await startFakes();
Object.assign(process.env, fakes.env, { SCRAPE_TIMEOUT_MS: "2000", LLM_RETRY_BUDGET_MS: "0", PLAN_RETRY_DELAY_MS: "50" });
const { db } = await import("../db/client");
// The page extraction process started before the first page: its start-up (TypeScript compiled, from
// sources) must not spend a page's SCRAPE_TIMEOUT_MS, as the server's start warms it too.
await (await import("../scrape/extract-pool")).warmExtractPool();
const { getEnv } = await import("../env");
const { exploreTree } = await import("./explore");
const { planRetryDelays } = await import("./runner");
const { QUERY_REPAIR_ROUNDS } = await import("../agents/generate-serp-queries");
const { CALL_RETRY_LIMITS, estimateResearch } = await import("../client/estimate");

after(async () => {
  await db.$disconnect();
  await fakes.stop();
});

/** The tree's own share of the estimate: without the questions call and the report calls. */
function treeBounds(depth: number, breadth: number) {
  const e = estimateResearch(depth, breadth);
  const structured = CALL_RETRY_LIMITS.repairAttempts + 1;
  const report = 1 + e.levels[0];
  return { typical: e.maxLlmCalls - 1 - report, worst: e.worstLlmCalls - structured - report };
}

async function explore(prompt: string, depth: number, breadth: number): Promise<number> {
  const research = await db.research.create({ data: { initialPrompt: prompt, status: "running", depth, breadth } });
  const scope = { researchId: research.id, prompt, qa: [], depth, breadth };
  await exploreTree({ scope, sink: { emit: () => {} }, signal: new AbortController().signal });
  return (await db.research.findUniqueOrThrow({ where: { id: research.id } })).llmCalls;
}

test("the estimate's retry limits are the engine's", () => {
  assert.equal(CALL_RETRY_LIMITS.repairAttempts, getEnv().LLM_REPAIR_ATTEMPTS);
  assert.equal(CALL_RETRY_LIMITS.queryRepairRounds, QUERY_REPAIR_ROUNDS);
  assert.equal(CALL_RETRY_LIMITS.planRetries, planRetryDelays(1).length);
});

test("with every reply valid, the tree makes at most the estimate's typical maximum of calls", async () => {
  const calls = await explore("Heat pumps in cold climates", 2, 3);
  const b = treeBounds(2, 3);
  assert.ok(calls > 0 && calls <= b.typical, `${calls} calls, typical bound ${b.typical}`);
});

test("with repairs and lost planning calls, every call is counted and the count stays under the hard ceiling", async () => {
  // Every planning returns one query too few (repair rounds), the first JSON replies are broken
  // (structured repairs), and one planning call is lost twice (tried again later).
  fakes.llm.configure({
    queryCountOverride: "fewer",
    brokenJsonTimes: 2,
    agentFailures: [{ agent: "query-generator", status: 500, skip: 2, times: 2 }],
  });
  try {
    const logStart = fakes.llm.log.length;
    const calls = await explore("Grid batteries in Spain", 2, 3);
    const b = treeBounds(2, 3);
    const answered = fakes.llm.log.slice(logStart).filter((e) => e.status === 200);
    const planningCalls = answered.filter((e) => e.agent === "query-generator").length;
    const e = estimateResearch(2, 3);
    assert.ok(planningCalls > 1 + e.parentQueries, `repairs cost planning calls: ${planningCalls}`);
    assert.equal(calls, answered.length, "every answered call is counted");
    assert.ok(calls <= b.worst, `${calls} calls, hard bound ${b.worst}`);
  } finally {
    fakes.reset();
  }
});
