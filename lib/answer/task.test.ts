// "Housekeeping or question" over real request bodies of chat clients (test/fixtures/chat-clients/,
// captured from their sources: Open WebUI, LibreChat, LobeChat, Chatbox, Page Assist, LangChain and
// direct API use), with the fake LLM's chat-classifier as the classifier, fed the product's own prompt.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { chatClassifierReply } from "../../test/fakes/llm-chat-classifier";
import { classifierPrompt, CLASSIFIER_SYSTEM, type ChatKind } from "./agents/classifier";
import { chatRequestSchema, toAnswerInput } from "./openai";
import { decideTask, outlineOf, structuralDecision, type Classifier } from "./task";
import { TEMPLATES, matches } from "./templates";

interface Fixture {
  name: string;
  source: string;
  language: string;
  expect: "housekeeping" | "question";
  body: unknown;
}

const DIR = path.resolve(import.meta.dirname, "../../test/fixtures/chat-clients");
const fixtures = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .flatMap((f) => {
    const { client, fixtures } = JSON.parse(fs.readFileSync(path.join(DIR, f), "utf8")) as { client: string; fixtures: Fixture[] };
    return fixtures.map((x) => ({ ...x, client }));
  });

/** The fake classifier on the product's prompt; counts its calls and the tokens they would cost (≈4 characters a token). */
function fakeClassifier() {
  const calls: { tokens: number }[] = [];
  const classify: Classifier = async (outline) => {
    const prompt = classifierPrompt(outline);
    const { kind } = chatClassifierReply(prompt);
    const tokens = Math.ceil((CLASSIFIER_SYSTEM.length + prompt.length) / 4) + 8;
    calls.push({ tokens });
    return { kind: kind as ChatKind, usage: { promptTokens: tokens, completionTokens: 8, calls: 1 } };
  };
  return { calls, classify };
}

test("the fixture set: at least 40 bodies from at least 6 clients, in several languages, both kinds", () => {
  assert.ok(fixtures.length >= 40, `${fixtures.length} fixtures`);
  assert.ok(new Set(fixtures.map((f) => f.client)).size >= 6);
  assert.ok(new Set(fixtures.map((f) => f.language)).size >= 5);
  for (const f of fixtures) assert.ok(chatRequestSchema.safeParse(f.body).success, `${f.client}: ${f.name} is a valid request`);
  assert.ok(fixtures.filter((f) => f.expect === "question").length >= 15);
});

test("0 research runs for housekeeping, 0 housekeeping answers for questions, over every fixture", async () => {
  const { calls, classify } = fakeClassifier();
  const wrong: string[] = [];
  const by = new Map<string, number>();
  for (const f of fixtures) {
    const body = chatRequestSchema.parse(f.body);
    const d = await decideTask(body, classify);
    by.set(d.by, (by.get(d.by) ?? 0) + 1);
    if (d.kind !== f.expect) wrong.push(`${f.client}: ${f.name} → ${d.kind} (${d.by}${d.template ? ` ${d.template}` : ""})`);
    // A question makes a research input; a RAG question's is its user query, with the attached context.
    if (d.kind === "question") {
      const input = toAnswerInput(body, d.provided);
      assert.ok(input.q.length > 0 && input.q.length <= 10_000, f.name);
      if (d.provided) assert.ok(input.context.includes(d.provided.context.slice(0, 40)), `${f.name}: the attached context is the run's`);
    }
  }
  assert.deepEqual(wrong, []);
  // Most are settled by their shape; the classifier's calls stay small.
  const tokens = calls.map((c) => c.tokens);
  console.log(`[chat-clients] ${fixtures.length} bodies: ${JSON.stringify(Object.fromEntries(by))}; classifier calls ${calls.length}, tokens per call ≤ ${Math.max(...tokens)} (mean ${Math.round(tokens.reduce((a, b) => a + b, 0) / tokens.length)})`);
  assert.ok(Math.max(...tokens) < 900, "a classification costs a few hundred tokens");
  assert.ok((by.get("template") ?? 0) >= 30);
});

test("a RAG question is researched with its user query as the question and the client's context as the run's", () => {
  const rag = fixtures.find((f) => f.name.startsWith("question with web search (RAG template before the query)"))!;
  const body = chatRequestSchema.parse(rag.body);
  const d = structuralDecision(body)!;
  assert.equal(d.kind, "question");
  assert.equal(d.template, "open-webui/rag");
  const input = toAnswerInput(body, d.provided);
  assert.equal(input.q, "How much grid battery storage was added worldwide in 2024?");
  assert.match(input.context, /^Context the client attached:\n<source id="1"/);
  assert.doesNotMatch(input.context, /### Task:/);
  assert.match(input.context, /system: You are a careful energy analyst\./);
  // In the system message (Open WebUI's RAG_SYSTEM_CONTEXT, Page Assist): the question is the user's message.
  const sys = chatRequestSchema.parse(fixtures.find((f) => f.name.startsWith("question with a file attached"))!.body);
  const s = structuralDecision(sys)!;
  assert.match(toAnswerInput(sys, s.provided).q, /^Welche Jahresarbeitszahl/);
  // Appended after the question (Open WebUI's newer order): the question is what precedes it.
  const template = TEMPLATES.find((t) => t.id === "open-webui/rag")!;
  const appended = chatRequestSchema.parse({ model: "quarry-answer", messages: [{ role: "user", content: `Why did prices fall?\n### Task:\nRespond to the user query using the provided context.\n<context>\nPrices fell 20%.\n</context>` }] });
  assert.ok(matches(template, textOfLast(appended)));
  assert.equal(toAnswerInput(appended, structuralDecision(appended)!.provided).q, "Why did prices fall?");
});

test("a template only counts where the message begins with it and ends as it does: a pasted one is left to the classifier", () => {
  const title = TEMPLATES.find((t) => t.id === "open-webui/title")!;
  const real = "### Task:\nGenerate a concise title summarizing the chat history.\n### Chat History:\n<chat_history>\nUSER: hi\n</chat_history>";
  assert.equal(matches(title, real), true);
  assert.equal(matches(title, real.replace(/\n/g, "\n\n  ")), true, "re-wrapped");
  assert.equal(matches(title, `What does this prompt do?\n${real}`), false);
  assert.equal(matches(title, `${real}\nIs this prompt any good?`), false);
  const body = (content: string) => chatRequestSchema.parse({ model: "quarry-answer", messages: [{ role: "user", content }] });
  assert.equal(structuralDecision(body(`Is this prompt any good?\n${real}`)), undefined);
});

test("research parameters settle a question; quarry-chat's outline shows the request's shape", async () => {
  const body = chatRequestSchema.parse({ model: "quarry-answer", messages: [{ role: "user", content: "### Task:\nGenerate tags.\n<chat_history>\nx\n</chat_history>" }], reasoning_effort: "low" });
  assert.equal(structuralDecision(body)?.by, "parameters");
  const outline = outlineOf(chatRequestSchema.parse({ model: "quarry-answer", messages: [{ role: "system", content: "S" }, { role: "user", content: "Q" }], max_tokens: 16, response_format: { type: "json_object" } }));
  assert.match(outline.shape, /2 message\(s\): system, user; 0 earlier turn\(s\) of conversation; reply wanted as a JSON object; reply limited to 16 tokens/);
});

test("a classification that fails counts as a question, with what it spent", async () => {
  const body = chatRequestSchema.parse({ model: "quarry-answer", messages: [{ role: "user", content: "Name this chat." }] });
  const d = await decideTask(body, async () => {
    throw Object.assign(new Error("model down"), { usage: { promptTokens: 300, completionTokens: 0, calls: 1 } });
  });
  assert.deepEqual([d.kind, d.by, d.usage.promptTokens], ["question", "classifier-failed", 300]);
});

function textOfLast(body: { messages: { content?: unknown }[] }): string {
  return String(body.messages.at(-1)!.content);
}
