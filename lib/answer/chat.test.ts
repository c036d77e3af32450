// POST /v1/chat/completions in process, against the loopback fakes and a real migrated database:
// quarry-chat's one plain call within the user's limits and on the user's record; a chat UI's
// housekeeping sent to quarry-answer never starts a research, a question always does (its
// classification in the run's usage); a disconnect is not a cancel, and a retry joins the run.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { startFakes, type Fakes } from "../../test/fakes";

await useTestDatabase();
const fakes: Fakes = await startFakes({ llm: { latencyMs: 150 } });
Object.assign(process.env, fakes.env, {
  SCRAPE_TIMEOUT_MS: "2000",
  LLM_RETRY_BUDGET_MS: "0",
  RATE_LIMIT_STARTS_PER_HOUR: "1000",
  MAX_CONCURRENT_RUNS_PER_USER: "50",
  ANSWER_DISCONNECT_GRACE_MS: "1500",
  MAX_CONCURRENT_CHAT_CALLS_PER_USER: "3",
  RATE_LIMIT_CHAT_CALLS_PER_HOUR: "6",
});
const { db } = await import("../db/client");
// The page extraction process started before the first page: its start-up (TypeScript compiled, from
// sources) must not spend a page's SCRAPE_TIMEOUT_MS, as the server's start warms it too.
await (await import("../scrape/extract-pool")).warmExtractPool();
const { chatCompletion } = await import("./chat");
const { chatRequestSchema } = await import("./openai");

after(async () => {
  await db.$disconnect();
  await fakes.stop();
});

const QUESTION = "How much storage did grid batteries add in 2024?";
const fixture = (file: string, name: string) => {
  const { fixtures } = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../test/fixtures/chat-clients", file), "utf8")) as { fixtures: { name: string; body: unknown }[] };
  return fixtures.find((f) => f.name === name)!.body as Record<string, unknown>;
};
const newUser = async (email: string) => (await db.user.create({ data: { email, passwordHash: "x" } })).id;
const call = (userId: string, body: Record<string, unknown>, extra: { signal?: AbortSignal; retry?: boolean; idempotencyKey?: string } = {}) =>
  chatCompletion({ body: chatRequestSchema.parse(body), userId, signal: extra.signal ?? new AbortController().signal, retry: extra.retry, idempotencyKey: extra.idempotencyKey });
const json = async (res: Response) => (await res.json()) as { model: string; choices: { message: { content: string }; finish_reason: string }[]; usage: { prompt_tokens: number; total_tokens: number }; error?: { param: string } };
const agentCalls = (agent: string) => fakes.llm.log.filter((e) => e.agent === agent).length;
const waitFor = async (what: () => Promise<boolean>, ms = 20_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (await what()) return;
  throw new Error("timed out");
};

test("quarry-chat: one plain call with the client's settings, its tokens on the user's record, no run", async () => {
  const userId = await newUser("chat@example.com");
  fakes.reset();
  const res = await call(userId, { model: "quarry-chat", messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Say hello." }], temperature: 0.3, max_tokens: 40, stop: ["END"], seed: 3 });
  assert.equal(res.status, 200);
  const body = await json(res);
  assert.equal(body.model, "quarry-chat");
  assert.ok(body.choices[0].message.content.length > 0);
  assert.equal(fakes.llm.log.length, 1);
  const sent = fakes.llm.log[0];
  assert.deepEqual([sent.agent, sent.temperature, sent.maxTokens], ["unknown", 0.3, 40]);
  const rows = await db.planningCall.findMany({ where: { userId } });
  assert.deepEqual(rows.map((r) => [r.kind, r.llmCalls, r.promptTokens > 0, r.endedAt !== null]), [["chat-task", 1, true, true]]);
  assert.equal(body.usage.prompt_tokens, rows[0].promptTokens);
  assert.equal(await db.answerRun.count({ where: { userId } }), 0);
});

test("quarry-chat within the user's chat limits: a 429 with Retry-After past the hourly count", async () => {
  const userId = await newUser("limits@example.com");
  for (let i = 0; i < 6; i++) assert.equal((await call(userId, { model: "quarry-chat", messages: [{ role: "user", content: `Hi ${i}` }] })).status, 200);
  await assert.rejects(call(userId, { model: "quarry-chat", messages: [{ role: "user", content: "One more" }] }), (e: { code?: string; retryAfterSeconds?: number }) => e.code === "rate_limit:chat_calls" && (e.retryAfterSeconds ?? 0) > 0);
});

test("housekeeping sent to quarry-answer (Open WebUI's title, LibreChat's legacy title): one plain call, never a research", async () => {
  const userId = await newUser("housekeeping@example.com");
  fakes.reset();
  const title = await call(userId, fixture("open-webui.json", "title (current, English)"));
  assert.equal(title.status, 200);
  const legacy = await call(userId, fixture("librechat.json", "legacy title (one system message)"));
  assert.equal(legacy.status, 200, "system messages alone are a request, not a 400");
  assert.equal(fakes.llm.log.length, 2);
  assert.equal(agentCalls("answer-agent") + agentCalls("chat-classifier"), 0, "settled by their templates: no classification, no research");
  assert.equal(await db.answerRun.count({ where: { userId } }), 0);
  assert.equal(await db.planningCall.count({ where: { userId, kind: "chat-task" } }), 2);
});

test("a question is classified once and researched; the classification is in the run's usage and the reply's", async () => {
  const userId = await newUser("question@example.com");
  fakes.reset();
  const res = await call(userId, { model: "quarry-answer", messages: [{ role: "system", content: "You are a helpful assistant." }, { role: "user", content: QUESTION }], max_tokens: 800 });
  const body = await json(res);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.equal(agentCalls("chat-classifier"), 1);
  assert.ok(agentCalls("answer-agent") >= 1);
  const run = await db.answerRun.findFirstOrThrow({ where: { userId } });
  const usage = JSON.parse(run.usage) as Record<string, { promptTokens: number; calls: number }>;
  assert.equal(usage.classify.calls, 1);
  assert.ok(usage.classify.promptTokens > 100 && usage.classify.promptTokens < 900, `${usage.classify.promptTokens} tokens`);
  assert.equal(body.usage.total_tokens, run.totalTokens);
});

test("a disconnect is not a cancel: the run goes on, a retry (x-stainless-retry-count) joins it; nobody back in the grace period cancels it", async () => {
  const userId = await newUser("disconnect@example.com");
  fakes.reset();
  fakes.llm.configure({ latencyMs: 400 });
  try {
    const first = new AbortController();
    const body = { model: "quarry-answer", stream: true, messages: [{ role: "user", content: QUESTION }] };
    const res = await call(userId, body, { signal: first.signal });
    const reader = res.body!.getReader();
    await reader.read();
    first.abort();
    await reader.cancel().catch(() => {});
    const run = await db.answerRun.findFirstOrThrow({ where: { userId } });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await db.answerRun.findUniqueOrThrow({ where: { id: run.id } })).status, "running", "still running after its client left");
    // The openai client's retry: the same body, x-stainless-retry-count 1.
    const classified = agentCalls("chat-classifier");
    const retry = await call(userId, { ...body, stream: false }, { retry: true });
    assert.equal(retry.headers.get("x-request-id"), run.requestId, "the retry joined the run");
    assert.equal((await json(retry)).choices[0].finish_reason, "stop");
    assert.equal(agentCalls("chat-classifier"), classified, "a retry is not classified again");
    assert.equal(await db.answerRun.count({ where: { userId } }), 1);

    // Nobody comes back: cancelled after the grace period, in the middle of a (slow) LLM call, whose tokens are in its usage.
    fakes.llm.configure({ latencyMs: 4_000 });
    const gone = new AbortController();
    const lonely = await call(userId, { ...body, messages: [{ role: "user", content: "Which country added the most battery storage in 2024?" }] }, { signal: gone.signal });
    const r2 = lonely.body!.getReader();
    await r2.read();
    gone.abort();
    await r2.cancel().catch(() => {});
    const second = await db.answerRun.findFirstOrThrow({ where: { userId, question: { startsWith: "Which country" } } });
    await waitFor(async () => (await db.answerRun.findUniqueOrThrow({ where: { id: second.id } })).status === "cancelled");
    const stored = await db.answerRun.findUniqueOrThrow({ where: { id: second.id } });
    const sent = fakes.llm.log.filter((e) => e.at >= second.createdAt.getTime() && e.agent !== "chat-classifier");
    const usage = JSON.parse(stored.usage) as Record<string, { calls: number; promptTokens: number }>;
    const storedCalls = Object.entries(usage).filter(([p]) => p !== "classify").reduce((n, [, u]) => n + u.calls, 0);
    assert.ok(sent.some((e) => e.status === null), "a call was in flight when the run was cancelled");
    assert.equal(storedCalls, sent.length, "every LLM call of the run is in its stored usage, the aborted one too");
    const aborted = sent.find((e) => e.status === null)!;
    assert.ok(usage.agent.promptTokens >= aborted.promptTokens * 0.5, "the aborted call's prompt is counted (estimated)");
  } finally {
    fakes.llm.configure({ latencyMs: 150 });
  }
});

test("one joined client leaving never cancels the run for the other", async () => {
  const userId = await newUser("joined@example.com");
  fakes.llm.configure({ latencyMs: 300 });
  try {
    const body = { model: "quarry-answer", messages: [{ role: "user", content: "What was the average battery pack price in 2024?" }] };
    const leaving = new AbortController();
    const a = call(userId, body, { signal: leaving.signal, idempotencyKey: "k-joined" });
    const b = call(userId, body, { idempotencyKey: "k-joined" });
    await waitFor(async () => (await db.answerRun.count({ where: { userId } })) === 1);
    await new Promise((r) => setTimeout(r, 200));
    leaving.abort();
    await a.catch(() => {});
    const res = await b;
    const out = await json(res);
    assert.equal(res.status, 200, JSON.stringify(out));
    assert.ok(out.choices[0].message.content.length > 0);
    assert.equal((await db.answerRun.findFirstOrThrow({ where: { userId } })).status, "completed");
  } finally {
    fakes.llm.configure({ latencyMs: 150 });
  }
});

test("a max_tokens cut ends at a sentence boundary with its markers whole and no note after it; stop ends the answer before its sequence", async () => {
  const userId = await newUser("cut@example.com");
  const cut = await json(await call(userId, { model: "quarry-answer", messages: [{ role: "user", content: `Answer in sentences: ${QUESTION}` }], max_tokens: 40, reasoning_effort: "low" }));
  const text = cut.choices[0].message.content;
  assert.equal(cut.choices[0].finish_reason, "length");
  assert.ok(text.length <= 160, text);
  assert.match(text, /([.!?。！？](\[\^\d+\])*|…)$/, `ends with a whole sentence: ${JSON.stringify(text)}`);
  assert.doesNotMatch(text, /\p{L}\[\^|\[\^\d*$|No sources/u, text);
  const stopped = await json(await call(userId, { model: "quarry-answer", messages: [{ role: "user", content: `Answer in sentences: ${QUESTION}` }], stop: ["GW"], reasoning_effort: "low" }));
  assert.equal(stopped.choices[0].finish_reason, "stop");
  assert.doesNotMatch(stopped.choices[0].message.content, /GW/);
});

test("a plain call cut off by its client going away is on the user's record with its prompt's estimate", async () => {
  const userId = await newUser("aborted-plain@example.com");
  fakes.llm.configure({ latencyMs: 3_000 });
  try {
    const gone = new AbortController();
    const pending = call(userId, { model: "quarry-chat", messages: [{ role: "user", content: "A long prompt. ".repeat(100) }] }, { signal: gone.signal });
    await waitFor(async () => fakes.llm.log.some((e) => e.messages.some((m) => String(m.content).startsWith("A long prompt."))));
    gone.abort();
    await assert.rejects(pending);
    const [row] = await db.planningCall.findMany({ where: { userId } });
    assert.equal(row.llmCalls, 1);
    assert.equal(row.promptTokens, Math.ceil("A long prompt. ".repeat(100).length / 4));
    assert.notEqual(row.endedAt, null);
  } finally {
    fakes.llm.configure({ latencyMs: 150 });
  }
});
