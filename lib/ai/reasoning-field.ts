// A whole reply sent in the reasoning field, its content empty. vLLM's reasoning parsers take a reply
// without a closing `</think>` (a model that did not think, thinking switched off in its template, a
// half-open channel) for all reasoning — "if no </think> token, everything is reasoning content" — and
// send `content: null` with the reply in `reasoning_content` (or `reasoning`). The AI SDK's OpenAI
// provider reads neither field, so every such reply was empty, asked again, and the call failed.
//
// Such a reply stopped of itself (finish_reason "stop", no limit reached) with nothing in its content:
// its reasoning field is handed on as its content, inside a `<reasoning data-reply>` block. Read as
// any reply is read, the block is reasoning and is removed (./reasoning.ts): nothing changes for a
// model that only thought. A structured call takes the block's text as its reply when it is valid for
// the schema (a model's thoughts are not); the server is then known to answer so, and a blank plain
// reply's block is its text too, for the life of the process. The log says so once.
import { wholeBytes } from "../lean-fetch";

const OPEN = "<reasoning data-reply>";
const CLOSE = "</reasoning>";

/** The reply a server sent in the reasoning field, when `text` is that and nothing else. */
export function replyFromReasoning(text: string): string | undefined {
  const t = text.trim();
  if (!t.startsWith(OPEN) || !t.endsWith(CLOSE)) return undefined;
  const inner = t.slice(OPEN.length, -CLOSE.length);
  return inner.includes(OPEN) || !inner.trim() ? undefined : inner;
}

type Message = { content?: unknown; reasoning_content?: unknown; reasoning?: unknown };
const reasoningOf = (m: Message | undefined): string => {
  const r = m?.reasoning_content ?? m?.reasoning;
  return typeof r === "string" ? r : "";
};
const hasContent = (m: Message | undefined) => typeof m?.content === "string" && m.content.trim() !== "";

function rebuilt(body: BodyInit, response: Response): Response {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** A reply whose content is empty and whose reasoning field holds it, with that as its content (see the header); else the same reply. */
export async function withReplyInReasoning(response: Response): Promise<Response> {
  if (response.status !== 200 || !response.body) return response;
  const bytes = wholeBytes(response);
  const stream = !bytes && /text\/event-stream/i.test(response.headers.get("content-type") ?? "");
  if (!stream) {
    // Most replies: no reasoning field at all (looked for in the bytes lib/lean-fetch.ts kept, nothing decoded).
    if (bytes && bytes.indexOf('"reasoning') === -1) return response;
    const text = bytes ? bytes.toString("utf8") : await response.clone().text();
    if (!text.includes('"reasoning')) return response;
    let body: { choices?: { message?: Message; finish_reason?: unknown }[] };
    try {
      body = JSON.parse(text);
    } catch {
      return response;
    }
    const choice = body.choices?.[0];
    const reasoning = reasoningOf(choice?.message);
    if (!choice?.message || hasContent(choice.message) || choice.finish_reason !== "stop" || !reasoning.trim()) return response;
    choice.message.content = `${OPEN}${reasoning}${CLOSE}`;
    return rebuilt(JSON.stringify(body), response);
  }
  return rebuilt(response.body.pipeThrough(streamWithReplyInReasoning()), response);
}

/**
 * An event stream as it came, but for one event: when it stops ("stop") with no content sent and its
 * reasoning deltas hold the reply, an event with that reply as content goes just before the last.
 */
function streamWithReplyInReasoning(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  let contentSeen = false;
  let reasoning = "";
  const line = (text: string): string => {
    // Only the events that may matter are parsed: a reasoning delta, a content delta, the stop.
    if (!text.startsWith("data:") || !/"reasoning|"content":"[^"]|"finish_reason":"stop"/.test(text)) return text;
    let event: { id?: string; model?: string; created?: number; choices?: { delta?: Message; finish_reason?: unknown }[] };
    try {
      event = JSON.parse(text.slice(5));
    } catch {
      return text;
    }
    const choice = event.choices?.[0];
    if (hasContent(choice?.delta)) contentSeen = true;
    else if (!contentSeen) reasoning += reasoningOf(choice?.delta);
    if (choice?.finish_reason !== "stop" || contentSeen || !reasoning.trim()) return text;
    contentSeen = true;
    const reply = { id: event.id, object: "chat.completion.chunk", created: event.created, model: event.model, choices: [{ index: 0, delta: { content: `${OPEN}${reasoning}${CLOSE}` }, finish_reason: null }] };
    return `data: ${JSON.stringify(reply)}\n\n${text}`;
  };
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      const last = pending.lastIndexOf("\n");
      if (last === -1) return;
      const complete = pending.slice(0, last + 1);
      pending = pending.slice(last + 1);
      controller.enqueue(encoder.encode(complete.split("\n").map(line).join("\n")));
    },
    flush(controller) {
      pending += decoder.decode();
      if (pending) controller.enqueue(encoder.encode(line(pending)));
    },
  });
}

const servers = ((globalThis as { quarryRepliesInReasoning?: Set<string> }).quarryRepliesInReasoning ??= new Set());

/** The server (by its key) sent a whole reply in the reasoning field, valid for its schema: said once. */
export function noteAnswerInReasoning(key: string): void {
  if (servers.has(key)) return;
  servers.add(key);
  console.warn("[quarry] the LLM server sent whole replies in the reasoning field (reasoning_content), their content empty: its reasoning parser took replies without </think> for thought. They are read from there from now on; serve the model with thinking on, or without the reasoning parser, to have them as content.");
}

export function answersInReasoning(key: string): boolean {
  return servers.has(key);
}
