// The fake LLM's generation speed (tokensPerSecond): after the latency, a reply takes its tokens ÷
// the rate, streamed (each chunk sent when its last token is generated: the first soon, the last at
// the end) or not (sent whole at the end); off (0), the latency alone.
// Run: node --import tsx --test test/fakes/llm-tps.test.ts
import assert from "node:assert/strict";
import { after, before, beforeEach, test } from "node:test";
import { estimateTokens, startFakes, type Fakes } from "./index";

let fakes: Fakes;
before(async () => {
  fakes = await startFakes();
});
after(() => fakes.stop());
beforeEach(() => fakes.reset());

const request = (stream: boolean) => ({
  model: "fake-model",
  stream,
  messages: [
    { role: "system", content: "You are Quarry's report-writer agent.\nWrite the report." },
    { role: "user", content: `<prompt>\nGrid batteries\n</prompt>\n<learnings>\n<source url="https://a.example/x" id="S1">\n- Battery pack prices fell to 139 dollars per kilowatt-hour in 2023.\n- Grid storage in Europe doubled between 2021 and 2023 to 40 gigawatts.\n</source>\n</learnings>` },
  ],
});
const chat = (stream: boolean) => fetch(`${fakes.llm.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request(stream)) });

test("a reply that is not streamed is sent when its last token is generated", async () => {
  fakes.llm.configure({ latencyMs: 50, tokensPerSecond: 200 });
  const t0 = Date.now();
  const body = (await (await chat(false)).json()) as { choices: { message: { content: string } }[] };
  const took = Date.now() - t0;
  const expected = 50 + (estimateTokens(body.choices[0].message.content) / 200) * 1000;
  assert.ok(expected > 150, "the reply is long enough to measure");
  assert.ok(took >= expected - 10 && took < expected + 1_000, `took ${took} ms, expected ${expected.toFixed(0)}`);
});

test("a stream's chunks are paced at the rate: the first after the latency, the last when the reply is generated", async () => {
  fakes.llm.configure({ latencyMs: 50, tokensPerSecond: 200 });
  const t0 = Date.now();
  const res = await chat(true);
  const arrivals: { at: number; content: string }[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (const event of buffer.split("\n\n").slice(0, -1)) {
      if (!event.startsWith("data: {")) continue;
      const content = (JSON.parse(event.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content;
      if (content) arrivals.push({ at: Date.now() - t0, content });
    }
    buffer = buffer.slice(buffer.lastIndexOf("\n\n") + 2);
  }
  const text = arrivals.map((a) => a.content).join("");
  const total = 50 + (estimateTokens(text) / 200) * 1000;
  // (Bounds loose above: the machine may be busy; a chunk is never early.)
  assert.ok(arrivals[0].at < total / 2, `the first token after ${arrivals[0].at} ms of ${total.toFixed(0)}`);
  assert.ok(arrivals.at(-1)!.at >= total - 15 && arrivals.at(-1)!.at < total + 1_000, `the last after ${arrivals.at(-1)!.at} ms, expected ${total.toFixed(0)}`);
  // Half the text has not arrived before half of it was generated.
  const half = arrivals.find((_, i) => arrivals.slice(0, i + 1).map((a) => a.content).join("").length >= text.length / 2)!;
  const halfDue = 50 + (estimateTokens(text) / 2 / 200) * 1000;
  assert.ok(half.at >= halfDue - 30 && half.at < arrivals.at(-1)!.at, `half at ${half.at} ms, due ${halfDue.toFixed(0)}`);
});

test("off (0): the latency alone", async () => {
  fakes.llm.configure({ latencyMs: 30 });
  const t0 = Date.now();
  await (await chat(false)).json();
  assert.ok(Date.now() - t0 < 150);
});
