// POST /v1/chat/completions. Model quarry-chat: one plain call (plain.ts). Model quarry-answer: a
// chat UI's housekeeping (a title, tags: see task.ts) gets one plain call; a question starts a run
// (or joins the run a retry repeats), then its steps stream as reasoning_content and its answer as
// content (ending `data: [DONE]`), or the reply waits for one chat.completion. A client that goes
// away leaves its run going for a grace period, for a retry to join (followers.ts). A request made with
// an API token ends when the token is revoked or expires (its signal: credentialSignal, from the route)
// as when the client goes away, the stream's last chunk an error saying so.
import { addTokens, ZERO_TOKENS, type TokenCount } from "../ai/usage";
import { openAiErrorResponse } from "../api/openai-error";
import { AppError } from "../errors";
import { classifierPrompt, classifyRequest, CLASSIFIER_SYSTEM } from "./agents/classifier";
import { recordChatUsage } from "./chat-limits";
import type { FinalAnswer } from "./events";
import { follow } from "./followers";
import {
  ANSWER_MODEL,
  annotationsOf,
  assertHonourable,
  CHAT_MODEL,
  chunk,
  completionBody,
  reasoningOf,
  sourcesOf,
  toAnswerInput,
  usageOf,
  type ChatRequest,
  type HistoryCut,
  type ModelId,
} from "./openai";
import { chatUsage, plainReply, RETRY_AFTER_SECONDS } from "./plain";
import { findRepeatedRun, startAnswer, type StartAnswer } from "./service";
import { followAnswer, SSE_HEADERS, sseStream, type NumberedEvent } from "./stream";
import { credentialEndedMessage, releaseCredentialSignal } from "../auth/api-tokens-watch";
import { classifyDecision, structuralDecision, type Classifier, type TaskDecision } from "./task";

/** A question's start, with where its conversation was cut (reported to the client). */
export type QuestionStart = StartAnswer & { historyCut?: HistoryCut };

export interface ChatCall {
  body: ChatRequest;
  userId: string | null;
  signal: AbortSignal;
  idempotencyKey?: string;
  /** The client says this is a retry (x-stainless-retry-count above 0). */
  retry?: boolean;
  /** The conversation before the messages, as text (a Responses request's previous response). */
  earlier?: string;
}

/** The classifier as the product runs it: one small call, its tokens counted for the request. */
export function productClassifier(signal: AbortSignal): Classifier {
  return async (outline) => {
    let usage: TokenCount = ZERO_TOKENS;
    // With `begin`, a failed call settles too (zero usage): one the client's going away cut off is
    // counted with its prompt's estimate, about 4 characters a token.
    const estimate = () => ({ promptTokens: Math.ceil((CLASSIFIER_SYSTEM.length + classifierPrompt(outline).length) / 4), completionTokens: 0, calls: 1 });
    const onUsage = Object.assign((t: TokenCount) => void (usage = addTokens(usage, t.calls === 0 && signal.aborted ? estimate() : t)), { begin: () => {} });
    try {
      const kind = await classifyRequest({ outline, signal, onUsage });
      return { kind, usage };
    } catch (error) {
      throw Object.assign(error instanceof Error ? error : new Error(String(error)), { usage });
    }
  };
}

/**
 * A request to quarry-answer: housekeeping or question. Settled by its shape where it can be; a
 * retry of a running question joins its run before any classification; otherwise one small
 * classification call decides. `research` starts (or joins) the question's run.
 */
export async function routeAnswerRequest<T>(
  call: ChatCall,
  handlers: { plain: (decision: TaskDecision) => Promise<T>; research: (start: QuestionStart) => Promise<T> },
): Promise<T> {
  const { body, userId, signal } = call;
  const settled = structuralDecision(body);
  if (settled?.kind === "housekeeping") return handlers.plain(settled);
  // A question's input, if the request makes one (an unknown client's housekeeping may not: no user message, a long chat).
  let start: QuestionStart | undefined;
  try {
    start = { userId, ...toAnswerInput(body, settled?.provided, call.earlier), idempotencyKey: call.idempotencyKey, joinIdentical: true, retry: call.retry };
  } catch (error) {
    if (settled || !(error instanceof AppError && error.type === "bad_request")) throw error;
  }
  if (start && !settled && (await findRepeatedRun(start))) return handlers.research(start);
  const decision = settled ?? (await classifyDecision(body, productClassifier(signal)));
  if (signal.aborted) {
    // The client left while it was classified: the request ends here, with what the classification spent on record.
    await recordChatUsage({ userId, kind: "chat-classify", usage: decision.usage });
    signal.throwIfAborted();
  }
  if (decision.kind === "housekeeping") {
    await recordChatUsage({ userId, kind: "chat-classify", usage: decision.usage });
    return handlers.plain(decision);
  }
  start ??= { userId, ...toAnswerInput(body, undefined, call.earlier), idempotencyKey: call.idempotencyKey, joinIdentical: true, retry: call.retry };
  return handlers.research({ ...start, initialUsage: decision.usage.calls ? { classify: decision.usage } : undefined });
}

export async function chatCompletion(call: ChatCall): Promise<Response> {
  // A research's stream, once returned, releases the request's credential signal when it ends.
  let streaming = false;
  try {
    assertHonourable(call.body);
    if (call.body.model === CHAT_MODEL) return await plainCompletion(call, ZERO_TOKENS);
    return await routeAnswerRequest(call, {
      plain: (decision) => plainCompletion(call, decision.usage),
      research: async (start) => {
        const response = await researchCompletion(call, start);
        streaming = call.body.stream === true;
        return response;
      },
    });
  } catch (error) {
    throw credentialFailure(call.signal) ?? error;
  } finally {
    if (!streaming) releaseCredentialSignal(call.signal);
  }
}

/** A request whose token was revoked (or expired) while it was answered: a 401 saying so. */
export function credentialFailure(signal: AbortSignal): AppError | undefined {
  const ended = credentialEndedMessage(signal);
  return ended ? new AppError("unauthorized:auth", ended) : undefined;
}

/** The last chunk of a chat completion stream whose token was revoked or expired, in OpenAI's error shape (then [DONE]). */
export function credentialEndedChunk(message: string): string {
  return `data: ${JSON.stringify({ error: { message, type: "authentication_error", param: null, code: "invalid_api_key" } })}\n\n`;
}

/** A failed run as an error: the request's own fault (4xx, retrying fails again) or a passing one (503 with Retry-After). */
export function runFailure({ message, code }: { message: string; code?: string }): AppError {
  if (code === "budget_too_small") return new AppError("bad_request:budget_tokens", `${message}: raise budget_tokens (or reasoning_effort)`, { field: "budget_tokens" });
  return new AppError("unavailable:answer", message, { retryAfterSeconds: RETRY_AFTER_SECONDS });
}

/** Starts or joins the question's run; a start that joined (or was refused) records the request's classification on its own. */
export async function startOrJoin(start: StartAnswer) {
  const classified = start.initialUsage?.classify;
  let started;
  try {
    started = await startAnswer(start);
  } catch (error) {
    // Refused (a 429, a collection not readable): the classification was still made.
    if (classified) await recordChatUsage({ userId: start.userId, kind: "chat-classify", usage: classified });
    throw error;
  }
  if (started.joined && classified) await recordChatUsage({ userId: start.userId, kind: "chat-classify", usage: classified });
  return started;
}

async function researchCompletion({ body, userId, signal }: ChatCall, start: QuestionStart): Promise<Response> {
  const { requestId, runId } = await startOrJoin(start);
  const { historyCut } = start;
  const id = `chatcmpl-${requestId}`;
  const created = Math.floor(Date.now() / 1000);
  const leave = follow(runId);
  let ended = false;
  try {
    const { events } = await followAnswer({ requestId, userId, signal });
    signal.addEventListener("abort", () => leave({ done: ended }), { once: true });
    const includeUsage = body.stream_options?.include_usage === true;
    if (!body.stream) {
      try {
        let reasoning = "";
        for await (const { event } of events) {
          if (event.type === "progress") reasoning += reasoningOf(event.data.trackers);
          else if (event.type === "paused") continue;
          else {
            ended = true;
            if (event.type === "error") return openAiErrorResponse(runFailure(event.data), { "x-request-id": requestId });
            return Response.json(completionBody({ id, created, final: event.data, reasoning, historyCut }), { headers: { "x-request-id": requestId } });
          }
        }
        // Its token revoked or expired while it waited: a 401 saying so (the run goes on as when the client leaves).
        const failure = credentialFailure(signal) ?? new AppError("unavailable:answer", "The answer run ended without an answer", { retryAfterSeconds: RETRY_AFTER_SECONDS });
        return openAiErrorResponse(failure, { "x-request-id": requestId });
      } finally {
        leave({ done: ended });
      }
    }
    // As OpenAI's: with include_usage every chunk has usage null, and one last chunk with no choices has it.
    const usageField = includeUsage ? { usage: null } : {};
    const sendEvent = ({ event }: NumberedEvent, send: (text: string) => void) => {
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
    };
    const stream = sseStream({
      signal,
      ping: ": keep-alive\n\n",
      run: async (send) => {
        try {
          send(chunk(id, created, { role: "assistant", content: "" }, null, { ...usageField, ...(historyCut ? { history_truncated: historyCut } : {}) }));
          for await (const e of events) sendEvent(e, send);
          // Its token revoked or expired: the run goes on as when the client leaves (leave, on the abort), the stream ends saying why.
          const revoked = credentialEndedMessage(signal);
          if (revoked && !ended) send(credentialEndedChunk(revoked));
        } finally {
          releaseCredentialSignal(signal);
        }
      },
      failed: (message, send) => send(`data: ${JSON.stringify({ error: { message, type: "server_error", param: null, code: null } })}\n\n`),
      end: (send) => {
        send("data: [DONE]\n\n");
        leave({ done: ended });
      },
      cancel: () => {
        leave({ done: ended });
        void events.return(undefined);
      },
    });
    return new Response(stream, { headers: { ...SSE_HEADERS, "x-request-id": requestId } });
  } catch (error) {
    leave({ done: ended });
    throw error;
  }
}

function usageChunk(id: string, created: number, usage: object, model: ModelId = ANSWER_MODEL): string {
  return `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage })}\n\n`;
}

/** One plain call as a chat completion (quarry-chat, or housekeeping sent to quarry-answer); `spent`: the classification's tokens. */
async function plainCompletion({ body, userId, signal }: ChatCall, spent: TokenCount): Promise<Response> {
  const model = body.model as ModelId;
  const reply = await plainReply({ body, userId, signal, spent });
  const id = `chatcmpl-${reply.requestId}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = chatUsage(reply.usage);
  const headers = { "x-request-id": reply.requestId };
  if (!body.stream) {
    return Response.json(
      {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [{ index: 0, message: { role: "assistant", content: reply.text, refusal: null, annotations: [] }, logprobs: null, finish_reason: reply.finishReason }],
        usage,
      },
      { headers },
    );
  }
  const includeUsage = body.stream_options?.include_usage === true;
  const usageField = includeUsage ? { usage: null } : {};
  const text =
    chunk(id, created, { role: "assistant", content: "" }, null, usageField, model) +
    chunk(id, created, { content: reply.text }, null, usageField, model) +
    chunk(id, created, {}, reply.finishReason, usageField, model) +
    (includeUsage ? usageChunk(id, created, usage, model) : "") +
    "data: [DONE]\n\n";
  return new Response(text, { headers: { ...SSE_HEADERS, ...headers } });
}
