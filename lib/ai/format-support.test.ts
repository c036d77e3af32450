// A server that does not take a structured reply's response_format (DeepSeek's API takes only
// json_object; some local servers and hosted models none): its 400 is no failure of the call. The call
// is sent again in the next format, with the JSON Schema in the system prompt, and every later call
// goes out in that format at once.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";

type Body = { messages: { role: string; content: string }[]; response_format?: { type: string } };
const requests: Body[] = [];
/** The response_format types the server rejects, as DeepSeek's API does json_schema. */
let rejected = new Set<string>();

const server = http.createServer((req, res) => {
  let raw = "";
  req.on("data", (chunk) => (raw += chunk));
  req.on("end", () => {
    const body = JSON.parse(raw) as Body;
    requests.push(body);
    const type = body.response_format?.type ?? "none";
    res.setHeader("content-type", "application/json");
    if (rejected.has(type)) {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { message: "This response_format type is unavailable now", type: "invalid_request_error", code: "invalid_request_error" } }));
      return;
    }
    if (body.messages.some((m) => m.content.includes("context"))) {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { message: "This model's maximum context length is 8192 tokens", type: "invalid_request_error" } }));
      return;
    }
    const content = JSON.stringify({ answer: "yes" });
    res.end(JSON.stringify({ id: "c", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage: { prompt_tokens: 5, completion_tokens: 3 } }));
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
after(() => server.close());
process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
process.env.RESEARCH_MODEL = "format-test-model";
delete process.env.REDIS_URL;
const { generateStructured } = await import("./call");
const { LlmUnavailableError } = await import("./errors");
const { z } = await import("zod");

const schema = z.object({ answer: z.string() });
const ask = (prompt = "Is it?") => generateStructured({ agent: "format-test", system: "You are the format-test agent.", prompt, schema });
const system = (b: Body) => b.messages.find((m) => m.role === "system")?.content ?? "";

test("a rejected json_schema steps down to json_object with the schema in the prompt; later calls go so at once", async () => {
  rejected = new Set(["json_schema"]);
  assert.deepEqual(await ask(), { answer: "yes" });
  assert.deepEqual(requests.map((r) => r.response_format?.type), ["json_schema", "json_object"]);
  assert.doesNotMatch(system(requests[0]), /"properties"/, "with json_schema the schema is sent once, as the format");
  assert.match(system(requests[1]), /The response format's JSON Schema:\n\{.*"answer"/s);
  requests.length = 0;
  assert.deepEqual(await ask(), { answer: "yes" });
  assert.deepEqual(requests.map((r) => r.response_format?.type), ["json_object"], "one request: the format the server takes");
});

test("a server that takes no response_format is asked without one; a 400 about something else stays a failure", async () => {
  rejected = new Set(["json_schema", "json_object"]);
  requests.length = 0;
  assert.deepEqual(await ask(), { answer: "yes" });
  assert.deepEqual(requests.map((r) => r.response_format?.type), ["json_object", undefined]);
  assert.match(system(requests[1]), /"answer"/);
  requests.length = 0;
  await assert.rejects(ask("too much context"), LlmUnavailableError);
  assert.equal(requests.length, 1, "a 400 that names no response format is not sent again");
});

test("a call refused for another reason says the server's own words, a refused key none", async () => {
  const { describeLlmError } = await import("./errors");
  const { APICallError } = await import("ai");
  const error = (statusCode: number, message: string) => new APICallError({ message, url: "http://x/v1/chat/completions", requestBodyValues: {}, statusCode, responseBody: "{}" });
  assert.equal(describeLlmError(error(404, "model 'llama3' not found, try pulling it first")), "HTTP 404 from the LLM server: model 'llama3' not found, try pulling it first");
  assert.equal(describeLlmError(error(400, "Bad Request")), "HTTP 400 from the LLM server");
  assert.equal(describeLlmError(error(401, "Incorrect API key provided: sk-abc123xyz789")), "HTTP 401 from the LLM server (check OPENAI_API_KEY)");
  assert.equal(describeLlmError(error(400, "Invalid token sk-proj-abcdef123456 in header")), "HTTP 400 from the LLM server: Invalid token [masked] in header");
  // vLLM's and llama.cpp's bodies, which the SDK reads as their status text only.
  const withBody = (responseBody: string) => new APICallError({ message: "Bad Request", url: "http://x/v1/chat/completions", requestBodyValues: {}, statusCode: 400, responseBody });
  assert.equal(describeLlmError(withBody('{"object":"error","message":"This model\'s maximum context length is 8192 tokens.","type":"BadRequestError","code":400}')), "HTTP 400 from the LLM server: This model's maximum context length is 8192 tokens.");
  assert.equal(describeLlmError(withBody('{"error":"Model not loaded"}')), "HTTP 400 from the LLM server: Model not loaded");
  assert.equal(describeLlmError(withBody("not json")), "HTTP 400 from the LLM server");
});

test("a client's own JSON format goes as the server takes it: its schema in a system message, its JSON read out of the reply", async () => {
  // The server takes no response_format (the test before stepped it down to none).
  rejected = new Set(["json_schema", "json_object"]);
  requests.length = 0;
  const { generateChat } = await import("./call");
  const reply = await generateChat({
    messages: [{ role: "user", content: "Is it?" }],
    format: { type: "json_schema", name: "verdict", schema: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] } },
  });
  assert.deepEqual(JSON.parse(reply.text), { answer: "yes" });
  assert.equal(requests.length, 1, "sent once, in the format the server takes");
  assert.equal(requests[0].response_format, undefined);
  assert.match(requests[0].messages.at(-1)?.content ?? "", /^Reply with one JSON object only, matching this JSON Schema:\n\{"type":"object"/);
});

test("the refusals of a format that step a server down, in each server's words; other 400s do not", async () => {
  const { rejectsResponseFormat } = await import("./call");
  const { APICallError } = await import("ai");
  const refusal = (statusCode: number, message: string) => new APICallError({ message: "Bad Request", url: "http://llm/v1/chat/completions", requestBodyValues: {}, statusCode, responseBody: JSON.stringify({ error: { message } }) });
  assert.ok(rejectsResponseFormat(refusal(400, "This response_format type is unavailable now")));
  assert.ok(rejectsResponseFormat(refusal(400, 'Invalid JSON payload received. Unknown name "$schema" at \'generation_config.response_schema\': Cannot find field.')));
  assert.ok(rejectsResponseFormat(refusal(400, "response_format json_schema is not supported with this model")));
  assert.ok(rejectsResponseFormat(refusal(422, "'response_format.type' must be 'json_schema' or 'text'")));
  assert.ok(rejectsResponseFormat(refusal(400, "deepseek-reasoner does not support Json Output.")));
  assert.ok(rejectsResponseFormat(refusal(400, "JSON mode is not enabled for this model")));
  assert.ok(!rejectsResponseFormat(refusal(400, "This model's maximum context length is 8192 tokens")));
  assert.ok(!rejectsResponseFormat(refusal(500, "response_format failed")));
});
