// POST /v1/responses in process, against the loopback fakes and a real migrated database: the same
// task decision, idempotency and joining as chat completions; tools a 400; text.format, temperature
// and top_p honoured; previous_response_id for stored responses only; a max_output_tokens cut is
// incomplete, with its reason.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { AppError } from "../errors";
import { startFakes, type Fakes } from "../../test/fakes";

await useTestDatabase();
const fakes: Fakes = await startFakes();
Object.assign(process.env, fakes.env, { SCRAPE_TIMEOUT_MS: "2000", LLM_RETRY_BUDGET_MS: "0", RATE_LIMIT_STARTS_PER_HOUR: "1000", MAX_CONCURRENT_RUNS_PER_USER: "50" });
const { db } = await import("../db/client");
// The page extraction process started before the first page: its start-up (TypeScript compiled, from
// sources) must not spend a page's SCRAPE_TIMEOUT_MS, as the server's start warms it too.
await (await import("../scrape/extract-pool")).warmExtractPool();
const { createResponse, responsesRequestSchema } = await import("./responses");

after(async () => {
  await db.$disconnect();
  await fakes.stop();
});

const QUESTION = "How much storage did grid batteries add in 2024?";
type Reply = { id: string; status: string; store: boolean; model: string; incomplete_details: { reason: string } | null; output: { type: string; content?: { text: string }[] }[]; usage: { total_tokens: number } };
const userId = (await db.user.create({ data: { email: "responses@example.com", passwordHash: "x" } })).id;
const create = async (body: Record<string, unknown>, extra: { idempotencyKey?: string; retry?: boolean } = {}) => {
  const res = await createResponse({ body: responsesRequestSchema.parse({ model: "quarry-answer", ...body }), userId, signal: new AbortController().signal, ...extra });
  return { res, body: (await res.json()) as Reply };
};
const textOf = (r: Reply) => r.output.find((o) => o.type === "message")!.content![0].text;
const refused = (field: string) => (e: unknown) => e instanceof AppError && e.type === "bad_request" && e.field === field && e.message.includes(field.split(".")[0]);

test("tools are a 400 naming tools, as on chat; so are background and a previous_response_id that names no stored response", async () => {
  await assert.rejects(create({ input: QUESTION, tools: [{ type: "function", name: "f", parameters: {} }] }), refused("tools"));
  await assert.rejects(create({ input: QUESTION, background: true }), refused("background"));
  await assert.rejects(create({ input: QUESTION, previous_response_id: "resp_nothing" }), refused("previous_response_id"));
  await assert.rejects(create({ input: [{ role: "assistant", content: "hi" }] }), refused("input"));
  await assert.rejects(create({ model: "quarry-answer", input: QUESTION, top_logprobs: 2 }), refused("top_logprobs"));
});

test("a question is researched and stored; previous_response_id continues it; the same Idempotency-Key gets the same response", async () => {
  const first = await create({ input: QUESTION, reasoning: { effort: "low" } }, { idempotencyKey: "resp-key-1" });
  assert.equal(first.body.status, "completed");
  assert.equal(first.body.store, true);
  assert.match(textOf(first.body), /\[\^1\]/);
  const again = await create({ input: QUESTION, reasoning: { effort: "low" } }, { idempotencyKey: "resp-key-1" });
  assert.equal(again.body.id, first.body.id);
  const next = await create({ input: "And in Europe?", previous_response_id: first.body.id, reasoning: { effort: "low" } });
  assert.equal(next.body.status, "completed");
  const run = await db.answerRun.findFirstOrThrow({ where: { userId, question: "And in Europe?" } });
  assert.match(run.context, new RegExp(`^user: ${QUESTION.replace(/\?/g, "\\?")}\nassistant: `), "the previous turn is the conversation");
  assert.equal(next.body.output.length, 2);
});

test("text.format is the answer's format; temperature and top_p go to the call that writes it", async () => {
  fakes.reset();
  const schema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"], additionalProperties: false };
  const r = await create({ input: QUESTION, reasoning: { effort: "low" }, text: { format: { type: "json_schema", name: "answer", schema, strict: true } }, temperature: 0.2, top_p: 0.9 });
  assert.equal(r.body.status, "completed");
  assert.equal(typeof JSON.parse(textOf(r.body)).answer, "string");
  const final = fakes.llm.log.find((e) => e.agent === "answer-final")!;
  assert.deepEqual([final.temperature, final.topP, final.response_format_name], [0.2, 0.9, "answer"]);
});

test("a max_output_tokens cut is incomplete with its reason, and ends with a whole sentence", async () => {
  const r = await create({ input: `Answer in sentences: ${QUESTION}`, reasoning: { effort: "low" }, max_output_tokens: 40 });
  assert.equal(r.body.status, "incomplete");
  assert.deepEqual(r.body.incomplete_details, { reason: "max_output_tokens" });
  assert.match(textOf(r.body), /([.!?](\[\^\d+\])*|…)$/);
  assert.doesNotMatch(textOf(r.body), /\p{L}\[\^/u);
});

test("housekeeping through /v1/responses (Open WebUI's title as input) is one plain call, not stored; quarry-chat likewise", async () => {
  const { fixtures } = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../test/fixtures/chat-clients/open-webui.json"), "utf8")) as { fixtures: { name: string; body: { messages: { content: string }[] } }[] };
  const title = fixtures.find((f) => f.name === "title (current, English)")!.body.messages[0].content;
  const runs = await db.answerRun.count({ where: { userId } });
  fakes.reset();
  const r = await create({ input: title });
  assert.deepEqual([r.body.status, r.body.store], ["completed", false]);
  assert.equal(fakes.llm.log.length, 1);
  const chat = await create({ model: "quarry-chat", input: "Say hello.", max_output_tokens: 1 });
  assert.deepEqual([chat.body.model, chat.body.status, chat.body.incomplete_details?.reason], ["quarry-chat", "incomplete", "max_output_tokens"]);
  assert.equal(await db.answerRun.count({ where: { userId } }), runs);
  await assert.rejects(create({ input: "x", previous_response_id: r.body.id }), refused("previous_response_id"));
});

test("streamed: a research ends with response.completed (or response.incomplete), a plain reply too", async () => {
  const res = await createResponse({ body: responsesRequestSchema.parse({ model: "quarry-answer", input: `Answer in sentences: ${QUESTION}`, stream: true, reasoning: { effort: "low" }, max_output_tokens: 40 }), userId, signal: new AbortController().signal });
  const text = await res.text();
  const types = [...text.matchAll(/^event: (\S+)/gm)].map((m) => m[1]);
  assert.deepEqual(types.slice(0, 2), ["response.created", "response.in_progress"]);
  assert.equal(types.at(-1), "response.incomplete");
  const plain = await createResponse({ body: responsesRequestSchema.parse({ model: "quarry-chat", input: "Hi", stream: true }), userId, signal: new AbortController().signal });
  assert.equal([...(await plain.text()).matchAll(/^event: (\S+)/gm)].map((m) => m[1]).at(-1), "response.completed");
});
