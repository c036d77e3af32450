// POST /v1/responses: OpenAI's Responses API, as the AI SDK's default `openai(...)` provider and the
// openai client's `client.responses.create` speak it, with the same behaviour as chat completions
// (chat.ts): quarry-chat is one plain call; for quarry-answer a chat UI's housekeeping gets one plain
// call and a question a research run (task.ts), joined by its retries (Idempotency-Key,
// x-stainless-retry-count, or the identical request) and left going for a grace period when its
// client goes away (followers.ts). The input (a text or a message list) becomes a chat; `tools` is a
// 400 as on chat; text.format, temperature and top_p are the reply's; previous_response_id continues
// a stored response (a research's) and is a 400 for any other; a reply cut by max_output_tokens is
// `incomplete` with its reason. The steps are a reasoning item's summary, the answer one output_text
// with url_citation annotations; streaming sends OpenAI's event types (`event:` + `data:`, no [DONE]).
import { z } from "zod";
import { ZERO_TOKENS, type TokenCount } from "../ai/usage";
import * as store from "../db/answers";
import { AppError } from "../errors";
import { text } from "../validation/text";
import { credentialEndedMessage, releaseCredentialSignal } from "../auth/api-tokens-watch";
import { credentialFailure, routeAnswerRequest, runFailure, startOrJoin, type QuestionStart } from "./chat";
import { citationSpans } from "./citations";
import type { FinalAnswer } from "./events";
import { follow } from "./followers";
import { assertHonourable, CHAT_MODEL, reasoningOf, sourcesOf, type ChatRequest, type HistoryCut, type ModelId } from "./openai";
import { plainReply, type PlainReply } from "./plain";
import { followAnswer, SSE_HEADERS, sseStream } from "./stream";

const part = z.looseObject({ type: z.string(), text: text().optional() });
const item = z.looseObject({ type: z.string().optional(), role: text().optional(), content: z.union([text(), z.array(part)]).optional() });

const number = (name: string, min: number, max: number) =>
  z.number({ error: `${name} must be a number from ${min} to ${max}` }).min(min, { error: `${name} must be a number from ${min} to ${max}` }).max(max, { error: `${name} must be a number from ${min} to ${max}` });

const format = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("text") }),
    z.object({ type: z.literal("json_object") }),
    z.looseObject({
      type: z.literal("json_schema"),
      name: z.string({ error: "text.format.name is required" }).regex(/^[\w-]{1,64}$/, { error: "text.format.name must be 1–64 letters, digits, '_' or '-'" }),
      schema: z.record(z.string(), z.unknown(), { error: "text.format.schema must be a JSON Schema object" }),
      strict: z.boolean().nullish(),
      description: z.string().nullish(),
    }),
  ],
  { error: "text.format.type must be one of text, json_object, json_schema" },
);

export const responsesRequestSchema = z.object({
  model: z.string({ error: "model is required" }).min(1, { error: "model is required" }),
  input: z.union([text().pipe(z.string().min(1, { error: "input must not be empty" })), z.array(item).min(1, { error: "input must not be empty" })], {
    error: "input must be a text or a list of messages",
  }),
  instructions: text().nullish(),
  stream: z.boolean({ error: "stream must be a boolean" }).nullish(),
  reasoning: z.looseObject({ effort: z.enum(["minimal", "low", "medium", "high"], { error: "reasoning.effort must be one of minimal, low, medium, high" }).nullish() }).nullish(),
  max_output_tokens: z.number({ error: "max_output_tokens must be a positive integer" }).int({ error: "max_output_tokens must be a positive integer" }).positive({ error: "max_output_tokens must be a positive integer" }).nullish(),
  text: z.looseObject({ format: format.nullish() }, { error: "text must be an object" }).nullish(),
  temperature: number("temperature", 0, 2).nullish(),
  top_p: number("top_p", 0, 1).nullish(),
  previous_response_id: z.string({ error: "previous_response_id must be a text" }).min(1, { error: "previous_response_id must not be empty" }).nullish(),
  tools: z.array(z.unknown(), { error: "tools must be a list" }).nullish(),
  tool_choice: z.unknown().optional(),
  top_logprobs: z.number({ error: "top_logprobs must be an integer" }).int({ error: "top_logprobs must be an integer" }).nullish(),
  background: z.boolean({ error: "background must be a boolean" }).nullish(),
  // Bookkeeping fields clients send: they change no reply.
  store: z.boolean({ error: "store must be a boolean" }).nullish(),
  metadata: z.record(z.string(), z.unknown(), { error: "metadata must be an object" }).nullish(),
  user: z.string({ error: "user must be a text" }).nullish(),
  parallel_tool_calls: z.boolean({ error: "parallel_tool_calls must be a boolean" }).nullish(),
  truncation: z.enum(["auto", "disabled"], { error: "truncation must be auto or disabled" }).nullish(),
  include: z.array(z.string(), { error: "include must be a list" }).nullish(),
  service_tier: z.string({ error: "service_tier must be a text" }).nullish(),
});
export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;

/** The stored research a previous_response_id names: its question and answer continue as the conversation. */
export interface PreviousTurn {
  question: string;
  answer: string;
  /** The conversation before that question. */
  context: string;
}

/** The Responses input as the chat the answer agent takes (input_text parts are text parts), after the previous turn if any. */
export function toChat(body: ResponsesRequest, previous?: PreviousTurn): ChatRequest {
  const items = typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input;
  const messages: ChatRequest["messages"] = items
    .filter((i) => (i.type === undefined || i.type === "message") && i.role)
    .map((i) => ({
      role: i.role!,
      content: typeof i.content === "string" ? i.content : (i.content ?? []).map((p) => ({ type: p.type === "input_text" || p.type === "output_text" ? "text" : p.type, text: p.text })),
    }));
  if (previous) messages.unshift({ role: "user", content: previous.question }, { role: "assistant", content: previous.answer });
  if (body.instructions) messages.unshift({ role: "system", content: body.instructions });
  if (!messages.some((m) => m.role === "user")) throw new AppError("bad_request:input", "input must contain a user message: it is the question", { field: "input" });
  const f = body.text?.format;
  return {
    model: body.model,
    messages,
    reasoning_effort: body.reasoning?.effort ?? null,
    max_completion_tokens: body.max_output_tokens ?? null,
    response_format: f?.type === "json_schema" ? { type: "json_schema", json_schema: { name: f.name, schema: f.schema, strict: f.strict ?? null } } : (f ?? null),
    temperature: body.temperature ?? null,
    top_p: body.top_p ?? null,
    tools: body.tools ?? null,
    tool_choice: body.tool_choice,
    top_logprobs: body.top_logprobs ?? null,
  };
}

/** A chat parameter's name in the Responses API, for a 400 that names what the client sent. */
const FIELDS: [RegExp, string][] = [
  [/^messages/, "input"],
  [/^response_format/, "text.format"],
  [/^max_completion_tokens$/, "max_output_tokens"],
  [/^reasoning_effort$/, "reasoning.effort"],
];

function asResponsesError(error: unknown): unknown {
  if (!(error instanceof AppError) || !error.field) return error;
  const found = FIELDS.find(([re]) => re.test(error.field!));
  if (!found) return error;
  const [re, name] = found;
  return new AppError(error.code, error.message.replace(/\b(messages|response_format|max_completion_tokens|reasoning_effort)\b/g, name).replace(/the last user message/g, "the last user message of input"), { field: error.field.replace(re, name), retryAfterSeconds: error.retryAfterSeconds, cause: error });
}

/** previous_response_id: a research Quarry stored (resp_<requestId>) that completed; else a 400 naming it. */
async function previousTurn(id: string, userId: string | null): Promise<PreviousTurn> {
  const requestId = id.startsWith("resp_") ? id.slice("resp_".length) : "";
  const row = requestId ? await store.getAnswerRun({ requestId, userId }) : null;
  if (!row || row.status !== "completed" || row.answer === null)
    throw new AppError("bad_request:previous_response_id", `previous_response_id '${id}' is not a stored response: only a completed answer of quarry-answer is stored (a plain reply is not); send the conversation in input instead`, { field: "previous_response_id" });
  return { question: row.question, answer: row.answer, context: row.context };
}

export async function createResponse({ body, userId, signal, idempotencyKey, retry }: { body: ResponsesRequest; userId: string | null; signal: AbortSignal; idempotencyKey?: string; retry?: boolean }): Promise<Response> {
  // A research's stream, once returned, releases the request's credential signal (credentialSignal, from the route) when it ends.
  let streaming = false;
  try {
    if (body.background) throw new AppError("bad_request:background", "background is not supported: start the research with POST /api/v1/query and follow it on /api/v1/stream/:requestId", { field: "background" });
    const previous = body.previous_response_id ? await previousTurn(body.previous_response_id, userId) : undefined;
    const chat = toChat(body, previous);
    assertHonourable(chat);
    if (chat.model === CHAT_MODEL) return await plainResponse(body, chat, userId, signal, ZERO_TOKENS);
    return await routeAnswerRequest(
      { body: chat, userId, signal, idempotencyKey, retry, earlier: previous?.context },
      {
        plain: (decision) => plainResponse(body, chat, userId, signal, decision.usage),
        research: async (start) => {
          const response = await researchResponse(body, start, userId, signal);
          streaming = body.stream === true;
          return response;
        },
      },
    );
  } catch (error) {
    throw credentialFailure(signal) ?? asResponsesError(error);
  } finally {
    if (!streaming) releaseCredentialSignal(signal);
  }
}

function usageOf(u: { promptTokens: number; completionTokens: number }) {
  return { input_tokens: u.promptTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: u.completionTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: u.promptTokens + u.completionTokens };
}

function annotationsOf(final: FinalAnswer) {
  return citationSpans(final).map((c) => ({ type: "url_citation" as const, start_index: c.start, end_index: c.end, url: c.url, title: c.title }));
}

interface Ids {
  id: string;
  created: number;
  reasoningId: string;
  messageId: string;
  body: ResponsesRequest;
  model: ModelId;
  /** A research's response is stored (its id continues it as previous_response_id); a plain reply is not. */
  stored: boolean;
}

const idsOf = (requestId: string, body: ResponsesRequest, stored: boolean): Ids => ({
  id: `resp_${requestId}`,
  created: Math.floor(Date.now() / 1000),
  reasoningId: `rs_${requestId}`,
  messageId: `msg_${requestId}`,
  body,
  model: body.model as ModelId,
  stored,
});

type Status = "in_progress" | "completed" | "incomplete" | "failed";

/** A reply the length limit cut is incomplete, and says why (OpenAI's incomplete_details). */
const endOf = (finishReason: string | undefined): { status: Status; incomplete_details: { reason: "max_output_tokens" } | null } =>
  finishReason === "length" ? { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } } : { status: "completed", incomplete_details: null };

function envelope(ids: Ids, status: Status, rest: { output?: object[]; usage?: object | null; error?: object | null; extra?: object; incomplete_details?: object | null } = {}) {
  const { body } = ids;
  return {
    id: ids.id,
    object: "response",
    created_at: ids.created,
    status,
    error: rest.error ?? null,
    incomplete_details: rest.incomplete_details ?? null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: ids.model,
    output: rest.output ?? [],
    parallel_tool_calls: false,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: null },
    store: ids.stored,
    temperature: body.temperature ?? null,
    text: { format: body.text?.format ?? { type: "text" } },
    tool_choice: "none",
    tools: [],
    top_p: body.top_p ?? null,
    truncation: body.truncation ?? "disabled",
    usage: rest.usage ?? null,
    metadata: body.metadata ?? {},
    ...rest.extra,
  };
}

const reasoningItem = (ids: Ids, summary: string[]) => ({ type: "reasoning", id: ids.reasoningId, summary: summary.map((text) => ({ type: "summary_text", text })) });
const messageItem = (ids: Ids, text: string, annotations: object[], status: "in_progress" | "completed" | "incomplete") => ({
  type: "message",
  id: ids.messageId,
  status,
  role: "assistant",
  content: status === "in_progress" ? [] : [{ type: "output_text", text, annotations, logprobs: [] }],
});

/** The frames of one message's text, from its item's addition to its end (both shapes: a research's answer, a plain reply). */
function messageFrames(send: (type: string, data: object) => void, ids: Ids, outputIndex: number, text: string, annotations: object[], status: "completed" | "incomplete") {
  const at = { item_id: ids.messageId, output_index: outputIndex, content_index: 0 };
  send("response.output_item.added", { output_index: outputIndex, item: messageItem(ids, text, annotations, "in_progress") });
  send("response.content_part.added", { ...at, part: { type: "output_text", text: "", annotations: [] } });
  send("response.output_text.delta", { ...at, delta: text, logprobs: [] });
  annotations.forEach((annotation, i) => send("response.output_text.annotation.added", { ...at, annotation_index: i, annotation }));
  send("response.output_text.done", { ...at, text, logprobs: [] });
  send("response.content_part.done", { ...at, part: { type: "output_text", text, annotations } });
  const message = messageItem(ids, text, annotations, status);
  send("response.output_item.done", { output_index: outputIndex, item: message });
  return message;
}

const framer = () => {
  let sequence = 0;
  return (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
};

/** One plain call as a response (quarry-chat, or housekeeping sent to quarry-answer); not stored. */
async function plainResponse(body: ResponsesRequest, chat: ChatRequest, userId: string | null, signal: AbortSignal, spent: TokenCount): Promise<Response> {
  const reply: PlainReply = await plainReply({ body: chat, userId, signal, spent });
  const ids = idsOf(reply.requestId, body, false);
  const headers = { "x-request-id": reply.requestId };
  const end = endOf(reply.finishReason);
  const usage = usageOf(reply.usage);
  if (!body.stream) {
    const output = [messageItem(ids, reply.text, [], end.status === "incomplete" ? "incomplete" : "completed")];
    return Response.json(envelope(ids, end.status, { output, usage, incomplete_details: end.incomplete_details }), { headers });
  }
  const frame = framer();
  let out = "";
  const send = (type: string, data: object) => void (out += frame(type, data));
  send("response.created", { response: envelope(ids, "in_progress") });
  send("response.in_progress", { response: envelope(ids, "in_progress") });
  const message = messageFrames(send, ids, 0, reply.text, [], end.status === "incomplete" ? "incomplete" : "completed");
  send(`response.${end.status}`, { response: envelope(ids, end.status, { output: [message], usage, incomplete_details: end.incomplete_details }) });
  return new Response(out, { headers: { ...SSE_HEADERS, ...headers } });
}

/** A question's research as a response: started or joined, its steps the reasoning summary, its answer the message. */
async function researchResponse(body: ResponsesRequest, start: QuestionStart, userId: string | null, signal: AbortSignal): Promise<Response> {
  const { requestId, runId } = await startOrJoin(start);
  const ids = idsOf(requestId, body, true);
  const historyCut: HistoryCut | undefined = start.historyCut;
  const headers = { "x-request-id": requestId };
  const leave = follow(runId);
  let ended = false;
  const finalEnvelope = (final: FinalAnswer, summary: string[], message: object) => {
    const end = endOf(final.finishReason);
    return envelope(ids, end.status, { output: [reasoningItem(ids, summary), message], usage: usageOf(final.usage), incomplete_details: end.incomplete_details, extra: { ...sourcesOf(final), ...(historyCut ? { history_truncated: historyCut } : {}) } });
  };
  try {
    const { events } = await followAnswer({ requestId, userId, signal });
    signal.addEventListener("abort", () => leave({ done: ended }), { once: true });
    if (!body.stream) {
      try {
        const summary: string[] = [];
        for await (const { event } of events) {
          if (event.type === "progress") summary.push(reasoningOf(event.data.trackers).trim());
          else if (event.type === "paused") continue;
          else {
            ended = true;
            if (event.type === "error") throw runFailure(event.data);
            const final = event.data;
            const message = messageItem(ids, final.answer, annotationsOf(final), endOf(final.finishReason).status === "incomplete" ? "incomplete" : "completed");
            return Response.json(finalEnvelope(final, summary, message), { headers });
          }
        }
        throw new AppError("unavailable:answer", "The answer run ended without an answer", { retryAfterSeconds: 10 });
      } finally {
        leave({ done: ended });
      }
    }

    const frame = framer();
    const failure = (message: string) => frame("response.failed", { response: envelope(ids, "failed", { error: { code: "server_error", message } }) });
    const stream = sseStream({
      signal,
      ping: ": keep-alive\n\n",
      run: async (write) => {
        const send = (type: string, data: object) => write(frame(type, data));
        const summary: string[] = [];
        send("response.created", { response: envelope(ids, "in_progress") });
        send("response.in_progress", { response: envelope(ids, "in_progress") });
        send("response.output_item.added", { output_index: 0, item: reasoningItem(ids, []) });
        for await (const { event } of events) {
          if (event.type === "paused") continue;
          if (event.type === "progress") {
            const text = reasoningOf(event.data.trackers).trim();
            const at = { item_id: ids.reasoningId, output_index: 0, summary_index: summary.length };
            summary.push(text);
            send("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
            send("response.reasoning_summary_text.delta", { ...at, delta: text });
            send("response.reasoning_summary_text.done", { ...at, text });
            send("response.reasoning_summary_part.done", { ...at, part: { type: "summary_text", text } });
            continue;
          }
          send("response.output_item.done", { output_index: 0, item: reasoningItem(ids, summary) });
          ended = true;
          if (event.type === "error") {
            write(failure(runFailure(event.data).message));
            break;
          }
          const final = event.data;
          const end = endOf(final.finishReason);
          const message = messageFrames(send, ids, 1, final.answer, annotationsOf(final), end.status === "incomplete" ? "incomplete" : "completed");
          send(`response.${end.status}`, { response: finalEnvelope(final, summary, message) });
        }
        // Without its end: its token was revoked or expired, the client went away (the write is dropped, the run goes on for a
        // retry) or the run vanished.
        const revoked = credentialEndedMessage(signal);
        if (!ended) write(revoked ? frame("response.failed", { response: envelope(ids, "failed", { error: { code: "invalid_api_key", message: revoked } }) }) : failure("The answer run ended without an answer"));
      },
      failed: (message, write) => write(failure(message)),
      end: () => {
        releaseCredentialSignal(signal);
        leave({ done: ended });
      },
      cancel: () => {
        leave({ done: ended });
        void events.return(undefined);
      },
    });
    return new Response(stream, { headers: { ...SSE_HEADERS, ...headers } });
  } catch (error) {
    leave({ done: ended });
    throw error;
  }
}
