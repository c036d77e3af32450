// Chat templates that take no system message (Gemma 2's; Mistral's older ones want roles to alternate):
// the prompt as such a server takes it, and which refusals say so.
import assert from "node:assert/strict";
import { test } from "node:test";
import { APICallError } from "ai";
import { rejectsSystemRole, withoutSystemMessages } from "./system-role";

const text = (t: string) => ({ type: "text" as const, text: t });

test("a system message goes at the head of the next user message; one after the last, at its end; roles alternate", () => {
  assert.deepEqual(
    withoutSystemMessages([
      { role: "system", content: "You are an agent." },
      { role: "user", content: [text("The task.")] },
      { role: "assistant", content: [text("A reply.")] },
      { role: "user", content: [text("Again.")] },
      { role: "user", content: [text("And more.")] },
      { role: "system", content: "Reply with JSON only." },
    ]),
    [
      { role: "user", content: [text("You are an agent.\n\nThe task.")] },
      { role: "assistant", content: [text("A reply.")] },
      { role: "user", content: [text("Again.\n\nAnd more.\n\nReply with JSON only.")] },
    ],
  );
  // Only a system message: it becomes the user's.
  assert.deepEqual(withoutSystemMessages([{ role: "system", content: "Hello." }]), [{ role: "user", content: [text("Hello.")] }]);
});

test("a 400 saying the template takes no system message, or wants roles to alternate, is a refusal; other errors are not", () => {
  const error = (statusCode: number, responseBody: string) => new APICallError({ message: "Bad Request", url: "http://llm/v1/chat/completions", requestBodyValues: {}, statusCode, responseBody });
  assert.ok(rejectsSystemRole(error(400, '{"object":"error","message":"System role not supported","type":"BadRequestError","code":400}')));
  assert.ok(rejectsSystemRole(error(400, '{"error":{"message":"Conversation roles must alternate user/assistant/user/assistant/..."}}')));
  // OpenAI's o1-mini under a name the AI SDK does not know as a reasoning model's.
  assert.ok(rejectsSystemRole(error(400, `{"error":{"message":"Unsupported value: 'messages[0].role' does not support 'system' with this model.","type":"invalid_request_error","param":"messages[0].role","code":"unsupported_value"}}`)));
  assert.ok(!rejectsSystemRole(error(400, '{"error":{"message":"max_tokens is too large"}}')));
  assert.ok(!rejectsSystemRole(error(500, "System role not supported")));
  assert.ok(!rejectsSystemRole(new Error("System role not supported")));
});
