// Queue mode as a fleet: 20 runs from 5 users across the three engines (tree research, Deep
// Research, the answer agent), started through two web instances and executed by two workers, all
// complete with consistent data; the per-user running limit holds across the instances (a start over
// it is a 429 rate_limit:concurrent_runs, and the user's live runs sampled from the Run table never
// pass it), and the shared LLM limit holds for all processes together (the fake LLM's peak).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { createTestUser, type TestUser } from "../helpers/auth";
import { redisOrSkip, testRedisPrefix } from "../helpers/redis";
import { queueModeEnv, tearDownQueueMode, TestWorker } from "../helpers/worker";
import { queriesPerLevel } from "@/lib/explore/tree";

const PER_USER = 2;
const LLM_LIMIT = 4;
const PREFIX = testRedisPrefix("fleet");
let fakes: Fakes;
let apps: TestApp[] = [];
let workers: TestWorker[] = [];

const skip = await redisOrSkip();
if (skip) test(`queue fleet (SKIPPED: ${skip})`, { skip: true }, () => {});
else run();

function run() {

before(async () => {
  fakes = await startFakes();
  const env = queueModeEnv(fakes.env, PREFIX, {
    QUEUE_LOCK_MS: "10000",
    LLM_CONCURRENCY: String(LLM_LIMIT),
    MAX_CONCURRENT_RUNS_PER_USER: String(PER_USER),
    ANSWER_MAX_BUDGET: "2000000",
    // 20 runs on two web instances, two workers, PostgreSQL, Redis and the fakes share 2 cores here: a page's
    // fetch and its extraction took over queue mode's 2 s test timeout, failing every page of a literature tree.
    SCRAPE_TIMEOUT_MS: "8000",
  });
  // PostgreSQL always: queue mode is several processes on one server database (as queue-mode.test.ts).
  const a = await TestApp.start({ name: "queue-fleet", env, database: "postgres" });
  apps = [a, await TestApp.alongside(a, { env: {} })];
  workers = [await TestWorker.start(a, "w1"), await TestWorker.start(a, "w2")];
});
after(() => tearDownQueueMode({ prefix: PREFIX, workers, apps, fakes }));

type Kind = "tree" | "deep-research" | "answer";
/** The limit's pools: tree researches and Deep Research share one, quick answers have their own (lib/runs/limits.ts). */
const poolOf = (kind: string) => (kind === "answer" ? "answer" : "research");

interface Started {
  kind: Kind;
  user: TestUser;
  /** The instance that started it; its data is read back through the other one. */
  via: number;
  /** The research id, the conversation id, or the answer's request id. */
  subjectId: string;
  depth?: number;
  pollUrl?: string;
}

const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

/** Posts a start; a 429 over the running limit is waited out and retried (any other answer fails). */
async function startWithRetry(app: TestApp, user: TestUser, path: string, body: unknown, status: number, refusals: string[]): Promise<Record<string, string>> {
  for (;;) {
    const res = await app.postJson(path, body, { headers: as(user) });
    const json = (await res.json()) as Record<string, string>;
    if (res.status === status) return json;
    assert.equal(res.status, 429, `${path}: ${res.status} ${JSON.stringify(json)}`);
    assert.ok(Number(res.headers.get("retry-after")) >= 1, "a Retry-After");
    // Another start of the same user holding its start lock for long is the only other 429 expected.
    if (json.code !== "rate_limit:start_busy") {
      assert.equal(json.code, "rate_limit:concurrent_runs", JSON.stringify(json));
      assert.match(json.error, new RegExp(`the limit is ${PER_USER}\\)`));
      refusals.push(`${user.email} ${path}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function start(kind: Kind, user: TestUser, via: number, n: number, refusals: string[]): Promise<Started> {
  const app = apps[via];
  if (kind === "tree") {
    const depth = 1 + (n % 2);
    const prompt = `Grid battery storage economics, part ${n}`;
    const q = await app.postJson("/api/research/questions", { initial_prompt: prompt, num_questions: 2 }, { headers: as(user) });
    assert.equal(q.status, 200, await q.clone().text());
    const { research_id, followup_questions } = (await q.json()) as { research_id: string; followup_questions: string[] };
    await startWithRetry(app, user, "/api/research/start", {
      research_id, initial_prompt: prompt, followup_questions, followup_answers: followup_questions.map(() => "Europe since 2020"), depth, breadth: 2,
    }, 202, refusals);
    return { kind, user, via, subjectId: research_id, depth };
  }
  if (kind === "deep-research") {
    const body = await startWithRetry(app, user, "/api/deep-research/start", { message: `Solid-state batteries for grid storage, part ${n}`, researchMode: "steering" }, 202, refusals);
    assert.equal(body.status, "queued");
    return { kind, user, via, subjectId: body.conversationId, pollUrl: body.pollUrl };
  }
  const body = await startWithRetry(app, user, "/api/v1/query", { q: `How much storage did grid batteries add in 2024? (${n})` }, 202, refusals);
  return { kind, user, via, subjectId: body.requestId };
}

test("20 runs from 5 users over two web instances and two workers: all complete, consistent, within the per-user and LLM limits", async (t) => {
  fakes.reset();
  fakes.llm.configure({ latencyMs: 30 });
  const db = apps[0].db;
  const users = await Promise.all(Array.from({ length: 5 }, () => createTestUser(db)));
  const kinds: Kind[] = ["tree", "deep-research", "answer"];

  // The user's live runs per pool, sampled from the Run table (top-level runs: a Deep Research
  // task's tree is a child run of its conversation's).
  const peak = new Map<string, number>();
  const overLimit: string[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const live = await db.run.findMany({ where: { status: { in: ["queued", "running"] }, parentRunId: null }, select: { userId: true, kind: true, subjectId: true, status: true } });
      const now = new Map<string, typeof live>();
      for (const r of live) now.set(`${r.userId} ${poolOf(r.kind)}`, [...(now.get(`${r.userId} ${poolOf(r.kind)}`) ?? []), r]);
      for (const [k, rows] of now) {
        peak.set(k, Math.max(peak.get(k) ?? 0, rows.length));
        if (rows.length > PER_USER) overLimit.push(rows.map((r) => `${r.kind} ${r.subjectId} ${r.status}`).join(", "));
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();

  // Each user asks for 4 runs at once (7 trees, 7 Deep Research starts, 6 answers in all), through
  // both instances in turn: a user's third research is refused until one of the first two ends.
  const refusals: string[] = [];
  const plan = users.flatMap((user, u) => Array.from({ length: 4 }, (_, i) => ({ user, n: u * 4 + i, kind: kinds[(u * 4 + i) % 3] })));
  let started: Started[];
  try {
    started = await Promise.all(plan.map(({ user, n, kind }) => start(kind, user, n % 2, n, refusals)));
    await Promise.all(started.map((s) => waitForEnd(s)));
  } finally {
    sampling = false;
    await sampler;
  }

  // Every run completed once, with consistent data, read through the instance that did not start it.
  for (const s of started) await assertConsistent(s);
  const runs = await db.run.findMany({ where: { subjectId: { in: await Promise.all(started.map(runSubject)) } } });
  assert.equal(runs.length, started.length, "one Run row per start");
  assert.deepEqual(runs.filter((r) => r.status !== "completed").map((r) => `${r.kind} ${r.status} ${r.error}`), [], "every run completed");

  // The limits held across the fleet.
  assert.ok(refusals.length > 0, "starts over the running limit were refused");
  assert.deepEqual(overLimit.slice(0, 3), [], `a user's live runs of a pool never passed ${PER_USER}`);
  assert.ok([...peak.values()].some((n) => n === PER_USER), "users did reach the limit");
  assert.ok(fakes.llm.peakInFlight <= LLM_LIMIT, `LLM calls at once: ${fakes.llm.peakInFlight} > ${LLM_LIMIT}`);
  assert.ok(fakes.llm.peakInFlight >= 2, `the LLM limit was approached (peak ${fakes.llm.peakInFlight})`);
  const [a, b] = workers.map((w) => w.executed());
  t.diagnostic(`refused starts: ${refusals.length}; peak live per user and pool: ${Math.max(...peak.values())}; LLM calls at once: ${fakes.llm.peakInFlight}; jobs w1/w2: ${a.length}/${b.length}`);
  assert.ok(a.length > 0 && b.length > 0, `both workers executed runs (w1: ${a.length}, w2: ${b.length})`);
});

const other = (s: Started) => apps[1 - s.via];

/** The Run row's subject: the research, the conversation, or the answer's row (not its request id). */
async function runSubject(s: Started): Promise<string> {
  if (s.kind !== "answer") return s.subjectId;
  return (await apps[0].db.answerRun.findFirstOrThrow({ where: { userId: s.user.id, requestId: s.subjectId } })).id;
}

/** Polls the start's own status (through the other instance) until it has ended. */
async function waitForEnd(s: Started): Promise<void> {
  const app = other(s);
  const path = s.kind === "tree" ? `/api/research/${s.subjectId}` : s.kind === "answer" ? `/api/v1/answers/${encodeURIComponent(s.subjectId)}` : s.pollUrl!;
  await waitFor(async () => {
    const res = await app.fetch(path, { headers: as(s.user) });
    assert.equal(res.status, 200, `${path}: ${res.status}`);
    const { status } = (await res.json()) as { status: string };
    return ["completed", "failed", "cancelled"].includes(status) ? status : undefined;
  }, 150_000, `${s.kind} ${s.subjectId} to end`);
  // The Run row ends just after (once the run's last events are out).
  await waitFor(async () => {
    const run = await app.db.run.findFirst({ where: { kind: s.kind, subjectId: await runSubject(s) } });
    return run && run.status !== "queued" && run.status !== "running" ? true : undefined;
  }, 30_000, `the run row of ${s.kind} ${s.subjectId} to end`);
}

/** Every query of a tree once and completed, each page, link and item once. */
async function assertTree(db: TestApp["db"], researchId: string, depth: number, breadth: number) {
  const queries = await db.serpQuery.findMany({ where: { researchId } });
  const byDepth = queries.reduce<number[]>((n, q) => ((n[q.depth - 1] = (n[q.depth - 1] ?? 0) + 1), n), []);
  assert.deepEqual(byDepth, queriesPerLevel(depth, breadth), `every query of ${researchId} once`);
  assert.deepEqual(queries.filter((q) => q.status !== "completed").map((q) => q.status), [], "every query completed");
  const pages = await db.page.findMany({ where: { researchId } });
  assert.equal(pages.length, new Set(pages.map((p) => p.url)).size, "no duplicate pages");
  const links = await db.queryPage.findMany({ where: { query: { researchId } } });
  assert.equal(links.length, new Set(links.map((l) => `${l.queryId}|${l.pageId}`)).size, "no page analysed twice for a query");
  const items = await db.extractedItem.findMany({ where: { researchId } });
  // No findings at all: the pages' and analyses' ends say why (a fetch, an extraction or a model failure).
  const why = () => JSON.stringify({
    pages: pages.map((p) => `${p.status}${p.error ? `: ${p.error}` : ""}`),
    analyses: links.map((l) => `${l.status}${l.error ? `: ${l.error}` : ""}`),
  });
  assert.ok(items.length > 0, `findings of ${researchId}: ${why()}`);
  assert.equal(items.length, new Set(items.map((i) => `${i.queryPageId}|${i.content}`)).size, "no item extracted twice");
}

async function assertConsistent(s: Started) {
  const app = other(s);
  const db = app.db;
  const get = async <T>(path: string) => {
    const res = await app.fetch(path, { headers: as(s.user) });
    assert.equal(res.status, 200, path);
    return (await res.json()) as T;
  };
  if (s.kind === "tree") {
    const view = await get<{ status: string; error: string | null; report: string | null }>(`/api/research/${s.subjectId}`);
    assert.equal(view.status, "completed", view.error ?? "");
    assert.ok(view.report, "the report was written");
    await assertTree(db, s.subjectId, s.depth!, 2);
  } else if (s.kind === "deep-research") {
    const status = await get<{ status: string; error?: string; result?: { text: string } }>(s.pollUrl!);
    assert.equal(status.status, "completed", status.error ?? "");
    assert.ok(status.result?.text, "a reply");
    const conv = await get<{ messages: { role: string; status: string; content: string }[]; plan: { type: string; status: string; childResearchId: string | null }[] }>(`/api/deep-research/conversations/${s.subjectId}`);
    const replies = conv.messages.filter((m) => m.role === "assistant");
    assert.equal(replies.length, 1, "one reply");
    assert.equal(replies[0].status, "completed");
    assert.ok(conv.plan.length > 0, "a plan");
    assert.deepEqual(conv.plan.filter((t) => t.status !== "completed" && t.status !== "skipped").map((t) => t.status), [], "every task ended");
    for (const t of conv.plan.filter((t) => t.type === "LITERATURE" && t.status === "completed")) await assertTree(db, t.childResearchId!, 1, 2);
  } else {
    const stored = await get<{ status: string; answer: string | null; error: string | null; steps: { step: number }[] }>(`/api/v1/answers/${encodeURIComponent(s.subjectId)}`);
    assert.equal(stored.status, "completed", stored.error ?? "");
    assert.ok(stored.answer, "an answer");
    assert.ok(stored.steps.length > 0, "steps");
    assert.equal(new Set(stored.steps.map((x) => x.step)).size, stored.steps.length, "each step once");
  }
}

}
