// The official `openai` npm client against /v1/chat/completions, stream and non-stream, as a real
// client uses it (test/integration/openai-compat.test.ts covers the endpoint with the AI SDK and raw fetch).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";

const QUESTION = "How much storage did grid batteries add in 2024?";

describe("the official openai client", () => {
  let fakes: Fakes;
  let app: TestApp;
  let client: OpenAI;
  before(async () => {
    fakes = await startFakes({ search: { failingPageShare: 0 } });
    app = await TestApp.start({ name: "openai-client", env: { ...fakes.env } });
    client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: app.user.token });
  });
  after(async () => {
    await app?.stop();
    await fakes?.stop();
  });

  test("lists the models", async () => {
    assert.deepEqual((await client.models.list()).data.map((m) => m.id), ["quarry-answer", "quarry-chat"]);
  });

  test("non-streaming: the answer, its url_citation annotations and usage", async () => {
    const r = (await client.chat.completions.create({ model: "quarry-answer", messages: [{ role: "user", content: QUESTION }] })) as {
      choices: { message: { content: string; annotations: { type: string; url_citation: { url: string } }[] }; finish_reason: string }[];
      usage: { total_tokens: number };
    };
    assert.ok(r.choices[0].message.content.length > 30);
    assert.equal(r.choices[0].message.annotations[0].type, "url_citation");
    assert.equal(r.choices[0].finish_reason, "stop");
    assert.ok(r.usage.total_tokens > 0);
  });

  test("streaming: reasoning_content deltas, content, then annotations, and usage when asked; the iterator ends at [DONE]", async () => {
    const stream = (await client.chat.completions.create({ model: "quarry-answer", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: QUESTION }] })) as AsyncIterable<{
      choices: { delta: { content?: string; reasoning_content?: string; annotations?: unknown[] }; finish_reason: string | null }[];
      usage?: { total_tokens: number };
    }>;
    let reasoning = "";
    let content = "";
    const chunks = [];
    for await (const chunk of stream) {
      reasoning += chunk.choices[0]?.delta.reasoning_content ?? "";
      content += chunk.choices[0]?.delta.content ?? "";
      chunks.push(chunk);
    }
    assert.match(reasoning, /Searching: /);
    assert.ok(content.length > 30);
    const [finish, usage] = chunks.slice(-2);
    assert.equal(finish.choices[0].finish_reason, "stop");
    assert.equal(finish.choices[0].delta.annotations!.length, 1);
    assert.deepEqual(usage.choices, []);
    assert.ok(usage.usage!.total_tokens > 0);
  });
});
