// The answer agent's step against a scripted model (a loopback OpenAI-compatible server that plays
// the replies a test gives it, in order) and the loopback search and web fakes, on a real migrated
// database: replies in a model's own words — an action's name in another case or padded, a known URL
// retyped, a page named by its handle in another case, a quote copied near-verbatim — do what they mean.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, beforeEach, describe, test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { startFakes, type Fakes } from "../../test/fakes";

/** The answer agent's replies, played in order; the evaluator always passes an answer. */
const script: unknown[] = [];
const requests: { agent: string; prompt: string; schema: unknown; repair: boolean }[] = [];
const PASS = { applies: true, pass: true, reason: "Fine." };
const model = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const request = JSON.parse(body) as { messages: { role: string; content: string }[]; response_format?: { json_schema?: { schema: unknown } } };
    const agent = /You are Quarry's (\S+) agent/.exec(request.messages[0].content)?.[1] ?? "";
    const prompt = request.messages.find((m) => m.role === "user")?.content ?? "";
    requests.push({ agent, prompt, schema: request.response_format?.json_schema?.schema, repair: request.messages.some((m) => m.role === "assistant") });
    const reply = agent === "answer-evaluator" ? { definitive: PASS, freshness: PASS, plurality: PASS, completeness: PASS, lesson: "" } : script.shift();
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        id: "chatcmpl-test",
        object: "chat.completion",
        created: 0,
        model: "test-model",
        choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(reply ?? {}) }, finish_reason: "stop" }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      }),
    );
  });
});
await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));

await useTestDatabase();
const fakes: Fakes = await startFakes({ search: { failingPageShare: 0 } });
Object.assign(process.env, fakes.env, { OPENAI_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`, LLM_RETRY_BUDGET_MS: "0", SCRAPE_TIMEOUT_MS: "5000" });
const { db } = await import("../db/client");
// The page extraction process started before the first page: its start-up (TypeScript compiled, from
// sources) must not spend a page's SCRAPE_TIMEOUT_MS, as the server's start warms it too.
await (await import("../scrape/extract-pool")).warmExtractPool();
const store = await import("../db/answers");
const { answerAgentStep } = await import("./agents/agent");
const { runStep } = await import("./step");
const { TokenBudget } = await import("./budget");
const { initialState, zeroUsage } = await import("./types");

after(async () => {
  await db.$disconnect();
  await fakes.stop();
  model.close();
});
beforeEach(() => {
  script.length = 0;
  requests.length = 0;
});

const KNOWN = [
  { url: "https://energy.example/battery-prices", title: "Battery prices", snippet: "Prices fell." },
  { url: "https://grid.example/capacity", title: "Grid capacity", snippet: "Capacity doubled." },
  { url: "https://other.example/a", title: "Other", snippet: "" },
];
const READ = [
  { url: "https://energy.example/battery-prices", title: "Battery prices" },
  { url: "https://grid.example/capacity", title: "Grid capacity" },
];

function step(allowed: ("search" | "visit" | "reflect" | "answer")[], pages = READ) {
  return answerAgentStep({ question: "Q?", gap: "Q?", context: "", knowledge: [], urls: KNOWN, pages, queries: [], diary: [], allowed, knowledgeTokens: 4_000 });
}

/** The JSON Schema's variant for an action (the union's anyOf/oneOf member whose action is it). */
function variant(schema: unknown, action: string): { properties: Record<string, { items?: { enum?: string[]; properties?: Record<string, { enum?: string[] }> } }> } {
  const s = schema as { anyOf?: unknown[]; oneOf?: unknown[] };
  const all = (s.anyOf ?? s.oneOf ?? [schema]) as { properties: { action: { const?: string; enum?: string[] } } }[];
  return all.find((v) => v.properties.action.const === action || v.properties.action.enum?.includes(action)) as never;
}

describe("the agent's reply, resolved", () => {
  test('an action named in another case or padded ("Search", " VISIT ") is that action', async () => {
    script.push({ action: "Search", think: "t", searchQuery: [" grid batteries 2024 "] });
    assert.deepEqual(await step(["search", "visit", "answer"]), { action: "search", think: "t", searchQuery: ["grid batteries 2024"] });
    script.push({ action: " VISIT ", think: "t", URLTargets: ["U2"] });
    assert.deepEqual(await step(["search", "visit", "answer"]), { action: "visit", think: "t", URLTargets: [KNOWN[1].url] });
    assert.equal(requests.filter((r) => r.repair).length, 0, "no repair was asked for");
  });

  test("URLs to read are offered by handle and listed with them; a retyped known URL is that URL; one not known is kept apart", async () => {
    script.push({
      action: "visit",
      think: "t",
      URLTargets: ["HTTPS://Energy.EXAMPLE/battery-prices/", "grid.example/capacity?utm=x", "[u3]", "https://elsewhere.example/x", "U1"],
    });
    const action = await step(["visit"]);
    assert.deepEqual(action, { action: "visit", think: "t", URLTargets: KNOWN.map((u) => u.url), unknownTargets: ["https://elsewhere.example/x"] });
    const sent = requests[0];
    assert.match(sent.prompt, /- U1: https:\/\/energy\.example\/battery-prices — Battery prices: Prices fell\./);
    assert.match(sent.prompt, /- P2: https:\/\/grid\.example\/capacity — Grid capacity/);
    assert.deepEqual(variant(sent.schema, "visit").properties.URLTargets.items?.enum, ["U1", "U2", "U3"]);
  });

  test("references name read pages by handle; a handle in another case or the page's URL retyped is that page; an unknown source keeps its words", async () => {
    script.push({
      action: "answer",
      think: "t",
      answer: "A.",
      references: [
        { source: "P2", exactQuote: "q1" },
        { source: " p1", exactQuote: "q2" },
        { source: "https://GRID.example/capacity/", exactQuote: "q3" },
        { source: "https://never.example/read", exactQuote: "q4" },
      ],
    });
    const action = await step(["answer"]);
    assert.equal(action.action, "answer");
    assert.deepEqual(action.action === "answer" && action.references, [
      { url: READ[1].url, exactQuote: "q1" },
      { url: READ[0].url, exactQuote: "q2" },
      { url: READ[1].url, exactQuote: "q3" },
      { url: "https://never.example/read", exactQuote: "q4" },
    ]);
    assert.deepEqual(variant(requests[0].schema, "answer").properties.references.items?.properties?.source.enum, ["P1", "P2"]);
  });

  test("with no page read, an answer needs no handle and is taken as it is", async () => {
    script.push({ action: "Answer", think: "t", answer: " 2 ", references: [] });
    assert.deepEqual(await step(["answer"], []), { action: "answer", think: "t", answer: "2", references: [] });
  });
});

/** A stored run of the question and its loop context, at its start. */
async function newRun(question: string) {
  const row = await store.createAnswerRun({ userId: null, requestId: randomUUID(), question, context: "", budget: 500_000, maxBadAttempt: 3, state: initialState(question), usage: zeroUsage() });
  assert.ok(row);
  return { runId: row.id, question, context: "", state: initialState(question), budget: new TokenBudget(500_000, zeroUsage()), pages: [] as { url: string; title: string | null; content: string }[], signal: new AbortController().signal };
}

describe("a loop in a model's own words", () => {
  test("search, a visit to a retyped known URL, and an answer citing the page by handle with a near-verbatim quote", async () => {
    const question = "How much storage did grid batteries add in 2024?";
    const ctx = await newRun(question);

    script.push({ action: "Search", think: "I need sources.", searchQuery: ["grid batteries storage 2024"] });
    const searched = await runStep(ctx);
    assert.equal(searched.kind, "step");
    assert.ok(ctx.state.urls.length > 0, "the search found URLs");

    // The model retypes a known URL: scheme in capitals, a trailing slash, a query string added.
    const target = ctx.state.urls[0].url;
    const retyped = `${target.replace(/^http/, "HTTP")}/?utm=x`;
    script.push({ action: " VISIT ", think: "Reading it.", URLTargets: [retyped] });
    const visited = await runStep(ctx);
    assert.ok(visited.kind === "step" && !visited.final);
    assert.deepEqual(ctx.state.read, [target], "the known page was read, under its known URL");
    assert.equal(ctx.pages[0].url, target);
    assert.deepEqual(visited.record.actionState.URLTargets, [target]);

    // A quote near-verbatim: a sentence of the page with its commas dropped and a line break inside; the page is named "p1".
    const sentence = ctx.pages[0].content
      .replace(/\s+/g, " ")
      .split(/(?<=\.) /)
      .find((x) => x.split(" ").length >= 10 && x.includes(","))!;
    assert.ok(sentence, "the page has a sentence with a comma");
    const half = sentence.split(" ").length >> 1;
    const quote = `${sentence.split(" ").slice(0, half).join(" ")}\n${sentence.split(" ").slice(half).join(" ")}`.replace(/,/g, "");
    script.push({ action: "answer", think: "Done.", answer: "Grid batteries added storage.", references: [{ source: "p1", exactQuote: quote }] });
    const answered = await runStep(ctx);
    assert.ok(answered.kind === "step" && answered.final, JSON.stringify(answered));
    assert.equal(answered.final.references.length, 1);
    assert.equal(answered.final.references[0].url, target);
    // Stored as the page words it, not as the model retyped it.
    assert.equal(answered.final.references[0].exactQuote, sentence);
    assert.equal(requests.filter((r) => r.repair).length, 0, "no repair was asked for");
    assert.equal(script.length, 0);
  });

  test("a URL given in the question can be read although no search found it", async () => {
    const page = fakes.web.pages()[0];
    const question = `What does ${page} say about storage?`;
    const ctx = await newRun(question);
    script.push({ action: "visit", think: "The user gave it.", URLTargets: ["U1"] });
    const visited = await runStep(ctx);
    assert.ok(visited.kind === "step");
    assert.ok((visited.record.payload.allowed as string[]).includes("visit"), "visit is offered with no search done");
    assert.match(requests[0].prompt, new RegExp(`- U1: ${page.replace(/[.?*+^$()[\]{}|\\/]/g, "\\$&")} — \\(given in the question\\)`));
    assert.deepEqual(ctx.state.read, [page]);
  });
});
