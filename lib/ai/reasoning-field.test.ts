// Replies sent whole in the reasoning field (./reasoning-field.ts): a reply whose content is empty and that
// stopped of itself has its reasoning field as its content, in a block that reads as reasoning until a
// call takes it; a reply with content, or cut at a limit, is left as it came; a stream gets the reply as
// one content event before its stop.
import { test } from "node:test";
import assert from "node:assert/strict";
import { replyFromReasoning, withReplyInReasoning } from "./reasoning-field";
import { stripReasoning } from "./reasoning";

const json = (body: object) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
const completion = (message: object, finish = "stop") => ({ id: "c", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }] });
const contentOf = async (r: Response) => ((await r.json()) as { choices: { message: { content: string | null } }[] }).choices[0].message.content;

test("a reply whose content is empty has its reasoning field as content, in a block that reads as reasoning", async () => {
  const out = await contentOf(await withReplyInReasoning(json(completion({ content: null, reasoning_content: '{"answer": 1}' }))));
  assert.equal(out, '<reasoning data-reply>{"answer": 1}</reasoning>');
  assert.equal(replyFromReasoning(out!), '{"answer": 1}');
  assert.equal(stripReasoning(out!), "", "read as any reply is, it is reasoning");
  assert.equal(await contentOf(await withReplyInReasoning(json(completion({ content: "", reasoning: "# Report" })))), "<reasoning data-reply># Report</reasoning>");
});

test("a reply with content, or stopped at a limit, is as it came", async () => {
  assert.equal(await contentOf(await withReplyInReasoning(json(completion({ content: "Answer.", reasoning_content: "Thoughts." })))), "Answer.");
  assert.equal(await contentOf(await withReplyInReasoning(json(completion({ content: null, reasoning_content: "Thoughts, then the limit" }, "length")))), null);
  assert.equal(replyFromReasoning("Text <reasoning data-reply>x</reasoning>"), undefined);
});

test("a stream with no content: its reasoning goes as one content event just before its stop", async () => {
  const event = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const sse = [event({ role: "assistant", reasoning_content: "# Rep" }), event({ reasoning_content: "ort" }), event({}, "stop"), "data: [DONE]\n\n"].join("");
  // Sent in pieces that split lines.
  const bytes = new TextEncoder().encode(sse);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += 17) c.enqueue(bytes.slice(i, i + 17));
      c.close();
    },
  });
  const text = await (await withReplyInReasoning(new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }))).text();
  const contents = text
    .split("\n")
    .filter((l) => l.startsWith("data: {"))
    .map((l) => (JSON.parse(l.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0].delta.content)
    .filter(Boolean);
  assert.deepEqual(contents, ["<reasoning data-reply># Report</reasoning>"]);
  assert.ok(text.indexOf("<reasoning data-reply>") < text.indexOf('"finish_reason":"stop"'));
  assert.ok(text.endsWith("data: [DONE]\n\n"));
  // With content: as it came.
  const withContent = [event({ reasoning_content: "Thinking" }), event({ content: "Answer" }), event({}, "stop")].join("");
  assert.equal(await (await withReplyInReasoning(new Response(withContent, { status: 200, headers: { "content-type": "text/event-stream" } }))).text(), withContent);
});
