// A call's schedule (its run's lane and its priority) reaches the LLM limit through the model it is
// sent with: against a loopback OpenAI-compatible server, with LLM_CONCURRENCY 1 and the one slot
// held, the higher-priority call of a lane is sent first, and a call without a schedule still goes out.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";

const prompts: string[] = [];
/** The bodies of the requests that asked for a JSON reply (response_format). */
const structured: { messages: { role: string; content: string }[]; response_format?: { type: string; json_schema?: { name: string; schema: { properties?: object } } } }[] = [];
const STREAMED = Array.from({ length: 200 }, (_, i) => `word${i} `);
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const request = JSON.parse(body) as (typeof structured)[number] & { stream?: boolean; max_tokens?: number };
    const prompt = request.messages.find((m) => m.role === "user")?.content ?? "";
    prompts.push(prompt);
    if (request.stream) {
      res.setHeader("content-type", "text/event-stream");
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: "chatcmpl-test", object: "chat.completion.chunk", created: 0, model: "test-model", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const end = [chunk({}, "stop"), "data: [DONE]\n\n"].join("");
      if (prompt === "pause") {
        // "A" alone, "B" right after it, then the provider pauses 300 ms before "C".
        res.write(chunk({ role: "assistant", content: "A" }));
        setTimeout(() => res.write(chunk({ content: "B" })), 10);
        setTimeout(() => res.end(chunk({ content: "C" }) + end), 310);
        return;
      }
      if (prompt === "cut-stream") {
        // Cut at the output limit; asked to go on, the model restarts the cut sentence.
        const going = request.messages.some((m) => m.role === "assistant");
        const text = going ? "Second sentence goes on to the end." : "<think>Plan.</think>First sentence. Second sent";
        res.end([chunk({ role: "assistant", content: "" }), ...text.match(/.{1,4}/gs)!.map((piece) => chunk({ content: piece })), chunk({}, going ? "stop" : "length"), "data: [DONE]\n\n"].join(""));
        return;
      }
      if (prompt === "stream-thinking") {
        const text = '<think>Draft: {"title": 1}</think>\n\n# Report\nBody.';
        res.end([chunk({ role: "assistant", content: "" }), ...text.match(/.{1,3}/gs)!.map((piece) => chunk({ content: piece })), end].join(""));
        return;
      }
      // The reply a word at a time, every piece in one write: they arrive together.
      res.end([chunk({ role: "assistant", content: "" }), ...STREAMED.map((piece) => chunk({ content: piece })), end].join(""));
      return;
    }
    res.setHeader("content-type", "application/json");
    let content = `reply to ${prompt}`;
    if (request.response_format) {
      structured.push(request);
      const repairing = request.messages.some((m) => m.role === "assistant");
      // "fenced": valid JSON in a code fence, with prose; "broken": not JSON until a repair is asked for.
      content = prompt === "fenced" ? 'Here it is:\n```json\n{"n": 1}\n```' : prompt === "broken" && !repairing ? "n is two" : '{"n": 2}';
      // A reasoning model's reply: its thinking (with a draft object) before the JSON, in a wrapper, a number as a string.
      if (prompt === "thinking") content = '<think>The user wants {"n": 9}? No: {"n": 3}.</think>\n\n{"result": {"n": "3"}}';
      // A list with an item the schema refuses, and an enum value in another case.
      if (prompt === "items") content = '{"picks": [{"kind": "Odd", "n": 1}, {"kind": "even", "n": "many"}, {"kind": " EVEN ", "n": 4}]}';
      if (prompt === "reasoning-field") content = '{"n": 5}';
    }
    if (prompt === "plain-thinking") content = "<think>Let me see {</think>\nThe answer.";
    // Blank the first time it is asked (only reasoning), an answer the second.
    if (prompt === "blank-once") content = prompts.filter((p) => p === "blank-once").length === 1 ? "<think>Hmm.</think>\n" : "Second answer.";
    let finish = "stop";
    if (prompt === "cut-json") {
      // Cut at the server's output limit however it is asked; asked to go on, the rest.
      const going = request.messages.some((m) => m.role === "assistant");
      content = going ? '4, "m": "end"}' : '{"n": ';
      finish = going ? "stop" : "length";
      if (going) structured.push(request);
    }
    // "cut-plain-low": cut by a server limit below the max_tokens asked for.
    if (prompt === "cut-plain" || prompt === "cut-plain-low") {
      const going = request.messages.some((m) => m.role === "assistant");
      content = going ? "ond half." : "First half, then the sec";
      finish = going ? "stop" : "length";
    }
    const reasoning = prompt === "reasoning-field" ? { reasoning_content: 'I think {"n": 7}' } : {};
    res.end(JSON.stringify({
      id: "chatcmpl-test", object: "chat.completion", created: 0, model: "test-model",
      choices: [{ index: 0, message: { role: "assistant", content, ...reasoning }, finish_reason: finish }],
      // "uncounted": a server that reports no usage.
      // A reply cut at the max_tokens asked for counts that many.
      ...(prompt === "uncounted" ? {} : { usage: { prompt_tokens: 3, completion_tokens: finish === "length" && request.max_tokens && prompt === "cut-plain" ? request.max_tokens : 2, total_tokens: 5 } }),
    }));
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
process.env.RESEARCH_MODEL = "test-model";
process.env.LLM_CONCURRENCY = "1";
delete process.env.REDIS_URL;
const { generatePlainText, generateStructured, streamPlainText } = await import("./call");
const { z } = await import("zod");
const { limiters } = await import("../limits");

after(() => server.close());

test("a call waits for an LLM slot in its schedule's lane and at its priority", async () => {
  const held = await limiters().llm.acquire();
  const call = (prompt: string, priority: number) => generatePlainText({ agent: "test", system: "Test.", prompt, schedule: { lane: "run-1", priority } });
  const leaf = call("leaf", 1);
  const root = call("root", 30);
  // Both are waiting for the held slot before it is released.
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(prompts, []);
  held();
  assert.deepEqual(await Promise.all([leaf, root]), ["reply to leaf", "reply to root"]);
  assert.deepEqual(prompts, ["root", "leaf"]);
  assert.equal(await generatePlainText({ agent: "test", system: "Test.", prompt: "unscheduled" }), "reply to unscheduled");
  assert.equal(limiters().llm.inUse, 0);
});

test("a streamed reply's pieces are handed on together, the first at once, nothing lost", async () => {
  const deltas: string[] = [];
  const text = await streamPlainText({ agent: "test", system: "Test.", prompt: "stream", onDelta: (d) => deltas.push(d) });
  assert.equal(text, STREAMED.join(""));
  assert.equal(deltas.join(""), STREAMED.join(""));
  assert.equal(deltas[0], STREAMED[0]);
  // 200 pieces arriving within milliseconds: a few deltas, not one each.
  assert.ok(deltas.length >= 2 && deltas.length < STREAMED.length / 4, `${deltas.length} deltas`);
});

test("a streamed reply's last pieces are handed on when its stream ends, not after its usage is recorded nor at the next interval", async () => {
  const deltas: { text: string; at: number }[] = [];
  let usageAt = 0;
  // Its usage is recorded once the stream has ended (a database write): what the stream brought is handed on by then.
  const onUsage = async () => {
    usageAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
  };
  const text = await streamPlainText({ agent: "test", system: "Test.", prompt: "stream", onUsage, onDelta: (d) => deltas.push({ text: d, at: performance.now() }) });
  assert.equal(text, STREAMED.join(""));
  assert.equal(deltas.map((d) => d.text).join(""), STREAMED.join(""));
  assert.ok(deltas.at(-1)!.at <= usageAt, `the last delta came ${(deltas.at(-1)!.at - usageAt).toFixed(0)} ms after the stream's end`);
});

test("a piece gathered before the provider pauses is handed on within the interval, not with the next piece", async () => {
  const deltas: string[] = [];
  const text = await streamPlainText({ agent: "test", system: "Test.", prompt: "pause", onDelta: (d) => deltas.push(d) });
  assert.equal(text, "ABC");
  assert.deepEqual(deltas, ["A", "B", "C"]);
});

test("a structured call sends the schema as response_format, parses and validates the reply, recovers fenced JSON and repairs a broken one", async () => {
  const schema = z.object({ n: z.number().describe("A number") });
  const usage: number[] = [];
  const onUsage = (t: { promptTokens: number; completionTokens: number; calls: number }) => void usage.push(t.calls, t.promptTokens, t.completionTokens);
  assert.deepEqual(await generateStructured({ agent: "number-picker", system: "Pick.", prompt: "plain", schema, onUsage }), { n: 2 });
  const [first] = structured;
  assert.equal(first.response_format?.type, "json_schema");
  assert.equal(first.response_format?.json_schema?.name, "number-picker");
  assert.deepEqual(Object.keys(first.response_format?.json_schema?.schema.properties ?? {}), ["n"]);
  assert.equal(first.messages[0].role, "system");
  assert.match(first.messages[0].content, /^Pick\.\n\nReply with one JSON object only/);
  assert.deepEqual(usage, [1, 3, 2], "one exchange, its tokens");

  assert.deepEqual(await generateStructured({ agent: "number-picker", system: "Pick.", prompt: "fenced", schema }), { n: 1 });
  assert.equal(structured.length, 2, "fenced JSON is recovered without a repair");

  usage.length = 0;
  assert.deepEqual(await generateStructured({ agent: "number-picker", system: "Pick.", prompt: "broken", schema, onUsage }), { n: 2 });
  const repair = structured.at(-1)!;
  assert.deepEqual(repair.messages.map((m) => m.role), ["system", "user", "assistant", "user"]);
  assert.equal(repair.messages[2].content, "n is two");
  assert.match(repair.messages[3].content, /not valid for the required JSON Schema[\s\S]*"n"/);
  assert.deepEqual(usage, [1, 3, 2, 1, 3, 2], "both exchanges counted");
});

test("a reasoning model's reply: its thinking is removed before parsing, a wrapper taken off, a number as a string read", async () => {
  const schema = z.object({ n: z.number() });
  const before = structured.length;
  assert.deepEqual(await generateStructured({ agent: "number-picker", system: "Pick.", prompt: "thinking", schema }), { n: 3 });
  assert.equal(structured.length, before + 1, "no repair");
  assert.deepEqual(await generateStructured({ agent: "number-picker", system: "Pick.", prompt: "reasoning-field", schema }), { n: 5 }, "reasoning_content is never the reply");
  assert.equal(await generatePlainText({ agent: "test", system: "Test.", prompt: "plain-thinking" }), "The answer.");
  assert.equal(await generatePlainText({ agent: "test", system: "Test.", prompt: "blank-once" }), "Second answer.", "a blank reply is asked for again");
  const deltas: string[] = [];
  const text = await streamPlainText({ agent: "test", system: "Test.", prompt: "stream-thinking", onDelta: (d) => deltas.push(d) });
  assert.equal(text, "# Report\nBody.");
  assert.equal(deltas.join(""), "# Report\nBody.");
});

test("enum values in another case are read, and a list item the schema refuses is dropped rather than failing the call", async () => {
  const schema = z.object({ picks: z.array(z.object({ kind: z.enum(["odd", "even"]), n: z.number() })) });
  const before = structured.length;
  assert.deepEqual(await generateStructured({ agent: "number-picker", system: "Pick.", prompt: "items", schema }), {
    picks: [
      { kind: "odd", n: 1 },
      { kind: "even", n: 4 },
    ],
  });
  assert.equal(structured.length, before + 1, "no repair");
});

test("a call whose work was lost during its usage begin is never sent, whichever kind of call it is", async () => {
  const { withOwnership } = await import("../ownership");
  const sent = prompts.length;
  let lost = false;
  // The begin's round trip: while it is under way, another process takes the work (a queue job's lock).
  const onUsage = Object.assign(async () => {}, { begin: async () => void (lost = true) });
  const assertHeld = () => {
    if (lost) throw new Error("the work is another process's now");
  };
  const calls: Array<() => Promise<unknown>> = [
    () => generatePlainText({ agent: "test", system: "Test.", prompt: "owned-plain", onUsage }),
    () => generateStructured({ agent: "test", system: "Test.", prompt: "owned-structured", schema: z.object({ n: z.number() }), onUsage }),
    () => streamPlainText({ agent: "test", system: "Test.", prompt: "owned-stream", onUsage, onDelta: () => {} }),
  ];
  for (const call of calls) {
    lost = false;
    await assert.rejects(withOwnership(assertHeld, call), /another process's/);
  }
  assert.equal(prompts.length, sent, "no request reached the provider");
  // Outside such work nothing is asked: the same call goes out.
  assert.equal(await generatePlainText({ agent: "test", system: "Test.", prompt: "owned-free", onUsage }), "reply to owned-free");
});

test("a call's tokens are the server's count; where it reports none (a stream without its usage chunk, a reply without usage) they are estimated", async () => {
  const { estimatedTokens } = await import("./usage");
  const told: unknown[] = [];
  const onUsage = (t: unknown) => void told.push(t);
  const system = "Test.";
  await generatePlainText({ agent: "test", system, prompt: "counted", onUsage });
  await generatePlainText({ agent: "test", system, prompt: "uncounted", onUsage });
  // The test server's streams end with no usage chunk, as llama.cpp's server's do.
  await streamPlainText({ agent: "test", system, prompt: "stream", onUsage, onDelta: () => {} });
  assert.deepEqual(told, [
    { promptTokens: 3, completionTokens: 2, calls: 1 },
    { promptTokens: estimatedTokens(system.length + "uncounted".length), completionTokens: estimatedTokens("reply to uncounted".length), calls: 1 },
    { promptTokens: estimatedTokens(system.length + "stream".length), completionTokens: estimatedTokens(STREAMED.join("").length), calls: 1 },
  ]);
});

test("a text reply cut at the server's output limit is continued, streamed or not; one cut at Quarry's own budget is not", async () => {
  const sent = prompts.length;
  const deltas: string[] = [];
  const streamed = await streamPlainText({ agent: "test", system: "Test.", prompt: "cut-stream", onDelta: (d) => deltas.push(d) });
  assert.equal(streamed, "First sentence. Second sentence goes on to the end.");
  assert.equal(deltas.join(""), streamed, "the restarted sentence is not streamed twice");
  assert.equal(await generatePlainText({ agent: "test", system: "Test.", prompt: "cut-plain" }), "First half, then the second half.");
  assert.equal(prompts.length - sent, 4, "each cut reply continued once");
  assert.equal(await generatePlainText({ agent: "test", system: "Test.", prompt: "cut-plain", budget: () => 50 }), "First half, then the sec");
  assert.equal(prompts.length - sent, 5);
  // Cut by the server below the budget's limit, the reply goes on while the budget allows; spent, what was written is kept.
  let asked = 0;
  const budget = () => {
    if (++asked > 1) throw new Error("budget spent");
    return 1_000;
  };
  assert.equal(await generatePlainText({ agent: "test", system: "Test.", prompt: "cut-plain-low", budget }), "First half, then the sec");
  assert.equal(prompts.length - sent, 6);
  assert.equal(await generatePlainText({ agent: "test", system: "Test.", prompt: "cut-plain-low", budget: () => 1_000 }), "First half, then the second half.");
  assert.equal(prompts.length - sent, 8);
});

test("a structured reply cut at the server's output limit is continued without a response_format and read whole", async () => {
  const before = structured.length;
  const value = await generateStructured({ agent: "test", system: "Test.", prompt: "cut-json", schema: z.object({ n: z.number(), m: z.string() }) });
  assert.deepEqual(value, { n: 4, m: "end" });
  const [first, continuation] = structured.slice(before);
  assert.equal(first.response_format?.type, "json_schema");
  assert.equal(continuation.response_format, undefined, "the continuation goes without a format");
  assert.deepEqual(continuation.messages.slice(-2).map((m) => [m.role, m.role === "assistant" ? m.content : ""]), [["assistant", '{"n": '], ["user", ""]]);
});
