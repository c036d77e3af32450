// POST /v1/chat/completions as the answer agent: a chat UI's background task (a title, tags: see
// isBackgroundTask) is answered with one plain call; a question starts a run (or joins the run a
// retry repeats), then its steps stream as reasoning_content and its answer as content (ending
// `data: [DONE]`), or the reply waits for one chat.completion. A client that goes away cancels its run.
import { randomUUID } from "node:crypto";
import { generateChat } from "../ai/call";
import type { TokenCount } from "../ai/usage";
import { openAiErrorResponse } from "../api/openai-error";
import { AppError } from "../errors";
import { runRegistry } from "../runs/engines";
import type { FinalAnswer } from "./events";
import {
  ANSWER_MODEL,
  annotationsOf,
  assertHonourable,
  chunk,
  completionBody,
  isBackgroundTask,
  reasoningOf,
  sourcesOf,
  replySettings,
  taskMessages,
  toAnswerInput,
  usageOf,
  type ChatRequest,
} from "./openai";
import { startAnswer } from "./service";
import { followAnswer, SSE_HEADERS, sseStream, type NumberedEvent } from "./stream";

/** How long a client should wait before retrying a run that failed for a passing reason (a provider outage). */
const RETRY_AFTER_SECONDS = 10;
/** A background task's conversation is sent whole to the model: at most this much text. */
const MAX_TASK_CHARS = 100_000;


export async function chatCompletion({ body, userId, signal, idempotencyKey }: { body: ChatRequest; userId: string | null; signal: AbortSignal; idempotencyKey?: string }): Promise<Response> {
  assertHonourable(body);
  if (isBackgroundTask(body)) return backgroundTask(body, signal);
  const input = toAnswerInput(body);
  // A retry (the same Idempotency-Key, or the same request again within seconds) joins the run it repeats.
  const { requestId, runId } = await startAnswer({ userId, ...input, idempotencyKey, joinIdentical: true });
  const id = `chatcmpl-${requestId}`;
  const created = Math.floor(Date.now() / 1000);
  const { events } = await followAnswer({ requestId, userId, signal });
  let ended = false;
  const cancelIfOpen = () => {
    if (!ended) void runRegistry.cancel("answer", runId).catch(() => {});
  };
  signal.addEventListener("abort", cancelIfOpen, { once: true });
  const includeUsage = body.stream_options?.include_usage === true;
  if (!body.stream) {
    let reasoning = "";
    for await (const { event } of events) {
      if (event.type === "progress") reasoning += reasoningOf(event.data.trackers);
      else if (event.type === "paused") continue;
      else {
        ended = true;
        if (event.type === "error") return openAiErrorResponse(runFailure(event.data), { "x-request-id": requestId });
        return Response.json(completionBody({ id, created, final: event.data, reasoning }), { headers: { "x-request-id": requestId } });
      }
    }
    return openAiErrorResponse(new AppError("unavailable:answer", "The answer run ended without an answer", { retryAfterSeconds: RETRY_AFTER_SECONDS }), { "x-request-id": requestId });
  }
  // As OpenAI's: with include_usage every chunk has usage null, and one last chunk with no choices has it.
  const usageField = includeUsage ? { usage: null } : {};
  const stream = sseStream({
    signal,
    ping: ": keep-alive\n\n",
    run: async (send) => {
      send(chunk(id, created, { role: "assistant", content: "" }, null, usageField));
      for await (const e of events) sendEvent(e, send);
    },
    failed: (message, send) => send(`data: ${JSON.stringify({ error: { message, type: "server_error", param: null, code: null } })}\n\n`),
    end: (send) => {
      ended = true;
      send("data: [DONE]\n\n");
    },
    cancel: () => {
      cancelIfOpen();
      void events.return(undefined);
    },
  });

  function sendEvent({ event }: NumberedEvent, send: (text: string) => void) {
    if (event.type === "progress") return send(chunk(id, created, { reasoning_content: reasoningOf(event.data.trackers) }, null, usageField));
    // OpenAI's chunks have no place for it; the wait shows as a longer pause between chunks.
    if (event.type === "paused") return;
    ended = true;
    if (event.type === "error") {
      const e = runFailure(event.data);
      return send(`data: ${JSON.stringify({ error: { message: e.message, type: e.type === "bad_request" ? "invalid_request_error" : "server_error", param: e.field ?? null, code: event.data.code ?? "answer_failed" } })}\n\n`);
    }
    const final: FinalAnswer = event.data;
    send(chunk(id, created, { content: final.answer }, null, usageField));
    send(chunk(id, created, { annotations: annotationsOf(final) }, final.finishReason ?? "stop", { ...usageField, ...sourcesOf(final) }));
    if (includeUsage) send(usageChunk(id, created, usageOf(final)));
  }

  return new Response(stream, { headers: { ...SSE_HEADERS, "x-request-id": requestId } });
}

/** A failed run as an error: the request's own fault (4xx, retrying fails again) or a passing one (503 with Retry-After). */
function runFailure({ message, code }: { message: string; code?: string }): AppError {
  if (code === "budget_too_small") return new AppError("bad_request:budget_tokens", `${message}: raise budget_tokens (or reasoning_effort)`, { field: "budget_tokens" });
  return new AppError("unavailable:answer", message, { retryAfterSeconds: RETRY_AFTER_SECONDS });
}

function usageChunk(id: string, created: number, usage: ReturnType<typeof usageOf>): string {
  return `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: ANSWER_MODEL, choices: [], usage })}\n\n`;
}

const usageOfCall = (t: TokenCount) => ({ prompt_tokens: t.promptTokens, completion_tokens: t.completionTokens, total_tokens: t.promptTokens + t.completionTokens });

/**
 * A chat UI's background task (a title, tags, follow-up suggestions over the conversation it sends):
 * one plain call with the client's messages and settings, no research, no run, no start counted.
 */
async function backgroundTask(body: ChatRequest, signal: AbortSignal): Promise<Response> {
  const messages = taskMessages(body);
  if (!messages.some((m) => m.role === "user")) throw new AppError("bad_request:messages", "The messages must include a user message with text", { field: "messages" });
  const chars = messages.reduce((n, m) => n + (typeof m.content === "string" ? m.content.length : 0), 0);
  if (chars > MAX_TASK_CHARS) throw new AppError("bad_request:messages", `The messages must be at most ${MAX_TASK_CHARS.toLocaleString("en-US")} characters in all; they have ${chars.toLocaleString("en-US")}`, { field: "messages" });
  const requestId = randomUUID();
  const id = `chatcmpl-${requestId}`;
  const created = Math.floor(Date.now() / 1000);
  let used: TokenCount = { promptTokens: 0, completionTokens: 0, calls: 0 };
  let reply: Awaited<ReturnType<typeof generateChat>>;
  try {
    reply = await generateChat({ messages, ...replySettings(body), signal, onUsage: (t) => void (used = t) });
  } catch (error) {
    if (signal.aborted) throw error;
    return openAiErrorResponse(new AppError("unavailable:answer", "The model could not answer; try again", { cause: error, retryAfterSeconds: RETRY_AFTER_SECONDS }), { "x-request-id": requestId });
  }
  const usage = usageOfCall(used);
  const headers = { "x-request-id": requestId };
  if (!body.stream) {
    return Response.json(
      {
        id,
        object: "chat.completion",
        created,
        model: ANSWER_MODEL,
        choices: [{ index: 0, message: { role: "assistant", content: reply.text, refusal: null, annotations: [] }, logprobs: null, finish_reason: reply.finishReason }],
        usage,
      },
      { headers },
    );
  }
  const includeUsage = body.stream_options?.include_usage === true;
  const usageField = includeUsage ? { usage: null } : {};
  const text =
    chunk(id, created, { role: "assistant", content: "" }, null, usageField) +
    chunk(id, created, { content: reply.text }, null, usageField) +
    chunk(id, created, {}, reply.finishReason, usageField) +
    (includeUsage ? usageChunk(id, created, usage) : "") +
    "data: [DONE]\n\n";
  return new Response(text, { headers: { ...SSE_HEADERS, ...headers } });
}
