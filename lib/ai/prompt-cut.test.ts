// A server whose context window is smaller than a prompt (lib/ai/context-limit.ts, lib/ai/call.ts), against a
// loopback OpenAI-compatible server: one that cuts the prompt without a word, as Ollama does past num_ctx (its
// first tokens and its end kept, to about half the window, counted so, and answered without the instructions),
// and one that refuses it naming no window (Ollama with its context shift off). Each structured call's reply
// is the instructed one after one resend, the later calls go held to the window at once, and a streamed reply
// to a cut prompt starts over (onRestart) instead of standing.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The window in the server's tokens (4 characters each, as Quarry estimates). */
const NUM_CTX = 2_000;
const requests: { cut: boolean; chars: number }[] = [];
let refuse: false | "unnamed" | "named" = false;

const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const request = JSON.parse(body) as { stream?: boolean; messages: { role: string; content: string }[] };
    const all = request.messages.map((m) => m.content).join("\n");
    const tokens = Math.ceil(all.length / 4);
    const over = tokens >= NUM_CTX;
    if (over && refuse) {
      res.writeHead(400, { "content-type": "application/json" });
      // Ollama's with its context shift off names no window; OpenAI's names it, with a code a looser match would take for the other.
      const error =
        refuse === "unnamed"
          ? { message: "the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length" }
          : { message: `This model's maximum context length is ${NUM_CTX} tokens. However, your messages resulted in ${tokens} tokens.`, code: "context_length_exceeded" };
      return res.end(JSON.stringify({ error }));
    }
    requests.push({ cut: over, chars: all.length });
    // Cut: the instructions (the system prompt, first) are gone; what is left is answered as text.
    const counted = over ? NUM_CTX - Math.floor((NUM_CTX - 5) / 2) : tokens;
    const content = over ? "I only see the end of a document (uninstructed)." : request.stream ? "# Report\n\nInstructed." : JSON.stringify({ answer: "instructed" });
    const usage = { prompt_tokens: counted, completion_tokens: 10, total_tokens: counted + 10 };
    if (request.stream) {
      res.setHeader("content-type", "text/event-stream");
      const chunk = (delta: object, finish: string | null = null, extra = {}) =>
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      return res.end([chunk({ role: "assistant", content }), chunk({}, "stop"), `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [], usage })}\n\n`, "data: [DONE]\n\n"].join(""));
    }
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ id: "c", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage }));
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
after(() => server.close());
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
process.env.OPENAI_BASE_URL = `${base}/v1`;
process.env.RESEARCH_MODEL = "cut-model";
delete process.env.REDIS_URL;
delete process.env.LLM_CONTEXT_TOKENS;
const { generateStructured, streamPlainText } = await import("./call");
const { contextWindow, heldToWindow } = await import("./context-limit");
const { resetEnvCache } = await import("../env");
const { z } = await import("zod");

const schema = z.object({ answer: z.string() });
/** A prompt of about `tokens` tokens: its objective first, a long page, its instructions last. */
const promptOf = (tokens: number) => `<objective>Find the answer.</objective>\n<page url="https://a.example/">${"Lorem ipsum dolor sit amet. ".repeat(Math.ceil((tokens * 4) / 28))}</page>\nAnswer from the page.`;
const useModel = (model: string) => {
  process.env.RESEARCH_MODEL = model;
  resetEnvCache();
};

test("heldToWindow: nothing known, nothing changed; else the longest turn's largest tagged part is cut, its start and end kept", () => {
  const turns = [{ role: "user", content: promptOf(3_000) }];
  assert.equal(heldToWindow("system", turns, 0, undefined), turns);
  const held = heldToWindow("system", turns, 100, 1_000);
  const text = held[0].content;
  assert.ok(Math.ceil((text.length + 6) / 4) + 100 <= 750, `${text.length} characters`);
  assert.ok(text.startsWith("<objective>Find the answer.</objective>\n<page url=\"https://a.example/\">Lorem"));
  assert.ok(text.endsWith("</page>\nAnswer from the page."));
  assert.match(text, /\[… cut to fit the model's context window …\]/);
  // Already within: as it was.
  assert.equal(heldToWindow("system", turns, 0, 10_000), turns);
});

test("heldToWindow cuts at line ends: a line of findings (its URL) is kept whole or left out, never cut into", () => {
  const findings = Array.from({ length: 80 }, (_, i) => `- Finding ${i + 1} states a figure of ${i * 7} units [${i + 1}](https://source-${i + 1}.example/articles/a-long-path-to-the-page-${i + 1})`).join("\n");
  const turns = [{ role: "user", content: `<objective>Write the report.</objective>\n<findings>\n${findings}\n</findings>\nCite every finding.` }];
  const text = heldToWindow("system", turns, 0, 1_000)[0].content;
  assert.ok(Math.ceil((text.length + 6) / 4) <= 750, `${text.length} characters`);
  const [before, after] = text.split("\n[… cut to fit the model's context window …]\n");
  assert.ok(after !== undefined, "cut");
  for (const line of [...before.split("\n"), ...after.split("\n")].filter((l) => l.startsWith("- "))) {
    assert.match(line, /^- Finding (\d+) states a figure of \d+ units \[\1\]\(https:\/\/source-\1\.example\/articles\/a-long-path-to-the-page-\1\)$/);
  }
  assert.ok(before.endsWith(")") && after.startsWith("- Finding"), "the cut falls between lines");
});

test("heldToWindow cuts several parts, the largest first, and never a question away: a prompt it cannot fit goes out with its question", () => {
  const page = (n: number, chars: number) => `<page id="P${n}">${`Sentence ${n} of the page. `.repeat(Math.ceil(chars / 26))}</page>`;
  const question = "<question>How much storage did the Nordic grid add in 2024?</question>";
  const turns = [{ role: "user", content: `${question}\n<knowledge>\n${page(1, 2_000)}\n</knowledge>\n<visited>\n${page(2, 2_000)}\n</visited>\nAnswer the question.` }];
  // Neither part alone gives what is needed: both are cut, the question and the instruction kept.
  const held = heldToWindow("system", turns, 0, 600)[0].content;
  assert.ok(held.startsWith(question), held.slice(0, 80));
  assert.ok(held.endsWith("Answer the question."));
  assert.equal(held.split("[… cut to fit the model's context window …]").length, 3, "two parts cut");
  assert.ok(Math.ceil((held.length + 6) / 4) <= 450, `${held.length} characters`);
  // Instructions alone larger than the window: the parts are cut as far as they go, the question stays.
  const over = heldToWindow("x".repeat(4_000), turns, 0, 800)[0].content;
  assert.ok(over.startsWith(question) && over.endsWith("Answer the question."), over.slice(0, 80));
  assert.match(over, /<page id="P1">Sentence 1/);
});

test("a structured call whose prompt the server cut without a word is sent again held to the window; once two cuts agree, later calls are held at once", async () => {
  useModel("cut-structured");
  requests.length = 0;
  let held = 0;
  const value = await generateStructured({ agent: "test-agent", system: "You are a test.", prompt: promptOf(3_000), schema, onHeld: () => held++ });
  assert.deepEqual(value, { answer: "instructed" });
  assert.deepEqual(requests.map((r) => r.cut), [true, false], "cut once, then sent held to the window");
  assert.equal(held, 1, "the caller is told its prompt went out held (the resend)");
  // One cut may be a server counting only what it had not cached: nothing is held for it alone.
  assert.equal(contextWindow(), undefined);
  requests.length = 0;
  assert.deepEqual(await generateStructured({ agent: "test-agent", system: "You are a test.", prompt: promptOf(4_000), schema }), { answer: "instructed" });
  assert.deepEqual(requests.map((r) => r.cut), [true, false]);
  // Counted alike (a cut to the same count, as Ollama's): the server's window.
  const window = contextWindow();
  assert.ok(window !== undefined && window < NUM_CTX, `learned ${window}`);
  requests.length = 0;
  assert.deepEqual(await generateStructured({ agent: "test-agent", system: "You are a test.", prompt: promptOf(5_000), schema }), { answer: "instructed" });
  assert.deepEqual(requests.map((r) => r.cut), [false], "held before it went");
  // Ten minutes after the last cut, prompts go whole again: a server made larger needs no restart.
  const now = Date.now;
  Date.now = () => now() + 11 * 60_000;
  try {
    assert.equal(contextWindow(), undefined);
  } finally {
    Date.now = now;
  }
});

test("counts that differ (a server counting what it had not cached) are no window of the server's", async () => {
  useModel("cut-unalike");
  const { learnCutWindow } = await import("./context-limit");
  learnCutWindow(700, undefined);
  learnCutWindow(1_500, undefined);
  assert.equal(contextWindow(), undefined);
  learnCutWindow(1_510, undefined);
  assert.equal(contextWindow(), Math.floor(1_510 / 0.75));
});

test("a streamed reply to a cut prompt starts over (onRestart) held to the window, and what it first sent is void", async () => {
  useModel("cut-streamed");
  requests.length = 0;
  const deltas: string[] = [];
  let restarts = 0;
  let held = 0;
  const text = await streamPlainText({
    agent: "test-agent",
    system: "You are a test.",
    prompt: promptOf(3_000),
    onHeld: () => held++,
    onDelta: (d) => deltas.push(d),
    onRestart: () => {
      restarts++;
      deltas.length = 0;
    },
  });
  assert.equal(text, "# Report\n\nInstructed.");
  assert.equal(restarts, 1);
  assert.equal(held, 1, "the restart went out held, and the caller was told");
  assert.equal(deltas.join(""), text);
  assert.deepEqual(requests.map((r) => r.cut), [true, false]);
});

test("a refusal that names no window (Ollama with its context shift off) teaches one: the call goes again held to half the prompt", async () => {
  useModel("refusing");
  refuse = "unnamed";
  try {
    requests.length = 0;
    assert.deepEqual(await generateStructured({ agent: "test-agent", system: "You are a test.", prompt: promptOf(3_000), schema }), { answer: "instructed" });
    assert.equal(requests.length, 1, "answered once it fit");
    assert.ok(requests[0].chars / 4 < NUM_CTX);
  } finally {
    refuse = false;
  }
});

test("a refusal that names its window (OpenAI's context_length_exceeded) teaches that window, not half the prompt", async () => {
  useModel("refusing-named");
  refuse = "named";
  try {
    requests.length = 0;
    assert.deepEqual(await generateStructured({ agent: "test-agent", system: "You are a test.", prompt: promptOf(3_000), schema }), { answer: "instructed" });
    assert.equal(contextWindow(), NUM_CTX);
  } finally {
    refuse = false;
  }
});
