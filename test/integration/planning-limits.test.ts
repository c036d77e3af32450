// Planning calls — tree research's follow-up questions and Deep Research's clarification questions
// and plans — are limited per user (in flight and per hour: 429 with Retry-After), and every LLM call
// they make is recorded against the user (and the clarification session) with its tokens.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { createTestUser } from "../helpers/auth";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "planning-limits", env: { ...fakes.env, MAX_CONCURRENT_PLANNING_CALLS_PER_USER: "2", RATE_LIMIT_PLANNING_CALLS_PER_HOUR: "5" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});
beforeEach(() => fakes.reset());

function post(token: string, pathname: string, body: unknown): Promise<Response> {
  return app.postJson(pathname, body, { headers: { authorization: `Bearer ${token}` } });
}

const QUESTIONS = ["/api/research/questions", { initial_prompt: "Grid-scale storage", num_questions: 2 }] as const;
const CLARIFY = ["/api/clarification/generate-questions", { query: "Soil carbon sequestration" }] as const;

test("planning calls in flight are limited per user: the ones over the limit get a 429 with Retry-After", async () => {
  const user = await createTestUser(app.db);
  const other = await createTestUser(app.db);
  fakes.llm.configure({ latencyMs: 1_500 });
  const sent = Array.from({ length: 8 }, (_, i) => (i % 2 ? CLARIFY : QUESTIONS));
  const replies = await Promise.all([...sent.map(([p, b]) => post(user.token, p, b)), post(other.token, ...CLARIFY)]);
  const mine = replies.slice(0, 8);
  assert.equal(mine.filter((r) => r.status === 200).length, 2, mine.map((r) => r.status).join(","));
  const refused = mine.filter((r) => r.status === 429);
  assert.equal(refused.length, 6);
  for (const r of refused) {
    assert.ok(Number(r.headers.get("retry-after")) > 0);
    const body = await r.json();
    assert.equal(body.code, "rate_limit:concurrent_planning_calls");
    assert.match(body.error, /the limit is 2/);
  }
  assert.equal(replies[8].status, 200, "another user's call is not limited by these");
  // Once they have ended, the user may ask again.
  fakes.llm.configure({ latencyMs: 0 });
  assert.equal((await post(user.token, ...QUESTIONS)).status, 200);
});

test("planning calls per hour are limited; every LLM call of each is recorded against the user and the session", async () => {
  const user = await createTestUser(app.db);
  const ok = async (res: Promise<Response>) => {
    const r = await res;
    const body = await r.json();
    assert.equal(r.status, 200, JSON.stringify(body));
    return body;
  };
  await ok(post(user.token, ...QUESTIONS));
  const q = await ok(post(user.token, ...CLARIFY));
  await ok(post(user.token, "/api/clarification/submit-answers", { sessionId: q.sessionId, answers: [{ questionIndex: 0, answer: "Since 2015" }] }));
  await ok(post(user.token, "/api/clarification/plan-feedback", { sessionId: q.sessionId, approved: false, feedback: "More on costs" }));
  // Approving makes no LLM call: it is not counted.
  await ok(post(user.token, "/api/clarification/plan-feedback", { sessionId: q.sessionId, approved: true }));
  await ok(post(user.token, ...QUESTIONS));
  const over = await post(user.token, ...CLARIFY);
  const body = await over.json();
  assert.equal(over.status, 429, JSON.stringify(body));
  assert.equal(body.code, "rate_limit:planning_calls");
  assert.ok(Number(over.headers.get("retry-after")) > 3_000, "a slot frees when the oldest call is an hour old");

  // Every LLM call the fake answered is recorded against the user, with its tokens.
  const made = fakes.llm.log.filter((e) => e.status === 200);
  assert.equal(made.length, 5);
  const recorded = await app.db.planningCall.aggregate({ where: { userId: user.id }, _sum: { llmCalls: true, promptTokens: true, completionTokens: true } });
  assert.deepEqual(
    { calls: recorded._sum.llmCalls, prompt: recorded._sum.promptTokens, completion: recorded._sum.completionTokens },
    { calls: 5, prompt: made.reduce((s, e) => s + e.promptTokens, 0), completion: made.reduce((s, e) => s + e.completionTokens, 0) },
  );
  // The session shows its three calls (questions, plan, revised plan).
  const session = await (await app.fetch(`/api/clarification/${q.sessionId}`, { headers: { authorization: `Bearer ${user.token}` } })).json();
  const clarifying = made.filter((e) => e.agent.startsWith("dr-"));
  assert.equal(clarifying.length, 3);
  assert.deepEqual(session.usage, {
    promptTokens: clarifying.reduce((s, e) => s + e.promptTokens, 0),
    completionTokens: clarifying.reduce((s, e) => s + e.completionTokens, 0),
    llmCalls: 3,
  });
});
