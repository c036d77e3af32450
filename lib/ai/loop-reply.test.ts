// A structured reply that loops at the output limit (the same list item until the limit stops it) is not
// continued, against a loopback OpenAI-compatible server: asked to go on, a looping model loops on. It is
// asked again (a repair), and the repaired reply is taken.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";

const kinds: string[] = [];
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const request = JSON.parse(body) as { messages: { role: string; content: string }[] };
    const last = request.messages.at(-1)!.content;
    const kind = !request.messages.some((m) => m.role === "assistant") ? "first" : /cut off by the output limit/.test(last) ? "continue" : "repair";
    kinds.push(kind);
    const looping = `{"facts": ["Batteries added 40 GW in 2024.", ${'"Costs fell again in the same year.", '.repeat(40)}`;
    const content = kind === "repair" ? '{"facts": ["Batteries added 40 GW in 2024.", "Costs fell again in the same year."]}' : kind === "continue" ? '"Costs fell again in the same year.", '.repeat(40) : looping;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ id: "c", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: kind === "repair" ? "stop" : "length" }], usage: { prompt_tokens: 50, completion_tokens: 400, total_tokens: 450 } }));
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
after(() => server.close());
process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
process.env.RESEARCH_MODEL = "looping-model";
delete process.env.REDIS_URL;
const { generateStructured } = await import("./call");
const { z } = await import("zod");

test("a structured reply looping at the output limit is not continued: it is asked again", async () => {
  const value = await generateStructured({ agent: "test-agent", system: "You are a test.", prompt: "List the facts.", schema: z.object({ facts: z.array(z.string()) }) });
  assert.deepEqual(value, { facts: ["Batteries added 40 GW in 2024.", "Costs fell again in the same year."] });
  assert.deepEqual(kinds, ["first", "repair"]);
});
