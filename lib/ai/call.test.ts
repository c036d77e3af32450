// A call's schedule (its run's lane and its priority) reaches the LLM limit through the model it is
// sent with: against a loopback OpenAI-compatible server, with LLM_CONCURRENCY 1 and the one slot
// held, the higher-priority call of a lane is sent first, and a call without a schedule still goes out.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";

const prompts: string[] = [];
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const messages = (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages;
    const prompt = messages.find((m) => m.role === "user")?.content ?? "";
    prompts.push(prompt);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({
      id: "chatcmpl-test", object: "chat.completion", created: 0, model: "test-model",
      choices: [{ index: 0, message: { role: "assistant", content: `reply to ${prompt}` }, finish_reason: "stop" }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    }));
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
process.env.RESEARCH_MODEL = "test-model";
process.env.LLM_CONCURRENCY = "1";
delete process.env.REDIS_URL;
const { generatePlainText } = await import("./call");
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
