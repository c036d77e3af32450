// Tests for the loopback fakes. Starts all three once; the checks live in llm.checks.ts and
// web.checks.ts (not *.test.ts, so that a glob over test files does not run them twice).
// Run: node --import tsx --test test/fakes/fakes.test.ts
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { REASONING_MARKER, startFakes, type Fakes } from "./index";
import { registerLlmChecks } from "./llm.checks";
import { registerWebChecks } from "./web.checks";

let fakes: Fakes | undefined;
const get = (): Fakes => {
  if (!fakes) throw new Error("fakes not started");
  return fakes;
};

before(async () => {
  fakes = await startFakes();
});

after(async () => {
  await fakes?.stop();
});

registerLlmChecks(get);
registerWebChecks(get);

// The misbehaving model over the wire (its transforms: llm-misbehave.test.ts).
describe("fake LLM, misbehaving", () => {
  const request = (stream: boolean) => ({
    model: "fake-model",
    stream,
    messages: [
      { role: "system", content: "You are Quarry's query-generator agent.\nFollow the instructions." },
      { role: "user", content: "<prompt>\nHeat pumps in cold climates\n</prompt>\n<count>\n2\n</count>" },
    ],
  });
  const chat = (stream = false) => fetch(`${get().llm.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request(stream)) });
  type Completion = { choices: { message: { content: string; reasoning_content?: string }; finish_reason: string }[] };

  test("reasoning-field: the reasoning in reasoning_content, in the message and in stream deltas before the content", async () => {
    get().llm.reset();
    get().llm.configure({ misbehave: "reasoning-field" });
    const { message } = ((await (await chat()).json()) as Completion).choices[0];
    assert.equal(JSON.parse(message.content).queries.length, 2);
    assert.ok(message.reasoning_content?.includes(REASONING_MARKER), message.reasoning_content);
    const events = (await (await chat(true)).text()).split("\n\n").filter((e) => e.startsWith("data: {")).map((e) => JSON.parse(e.slice(6)) as { choices: { delta: Record<string, string> }[] });
    const deltas = events.flatMap((e) => e.choices.map((c) => c.delta)).filter((d) => d.reasoning_content || d.content);
    const firstContent = deltas.findIndex((d) => d.content);
    assert.ok(firstContent > 0 && deltas.slice(0, firstContent).every((d) => d.reasoning_content), "reasoning first");
    assert.ok(deltas.map((d) => d.reasoning_content ?? "").join("").includes(REASONING_MARKER));
    assert.equal(JSON.parse(deltas.map((d) => d.content ?? "").join("")).queries.length, 2);
    assert.equal(get().llm.log.at(-1)?.reasoning, message.reasoning_content);
  });

  test("think in the content, streamed too; truncated: the 3rd reply cut with finish_reason length; off again with null", async () => {
    get().llm.reset();
    get().llm.configure({ misbehave: "think" });
    const streamed = (await (await chat(true)).text()).split("\n\n").filter((e) => e.startsWith("data: {")).map((e) => JSON.parse(e.slice(6)) as { choices: { delta: { content?: string } }[] });
    const text = streamed.flatMap((e) => e.choices.map((c) => c.delta.content ?? "")).join("");
    assert.match(text, /^<think>\n[\s\S]*quokka[\s\S]*\n<\/think>\n\n\{"queries":/);
    get().llm.configure({ misbehave: "truncated" });
    const replies: Completion["choices"] = [];
    for (let i = 0; i < 3; i++) replies.push(((await (await chat()).json()) as Completion).choices[0]);
    assert.deepEqual(replies.map((r) => r.finish_reason), ["stop", "stop", "length"]);
    assert.throws(() => JSON.parse(replies[2].message.content));
    get().llm.configure({ misbehave: null });
    const plain = ((await (await chat()).json()) as Completion).choices[0].message.content;
    assert.equal(JSON.parse(plain).queries.length, 2);
    get().llm.reset();
  });
});
