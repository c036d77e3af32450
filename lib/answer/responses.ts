// POST /v1/responses as the answer agent: OpenAI's Responses API, the AI SDK's default `openai(...)`
// provider and the openai client's `client.responses.create` speak it. The input (a text or a message
// list) becomes a chat (lib/answer/openai.ts decides question, context and budget); the steps are a
// reasoning item's summary, the answer one output_text with url_citation annotations. Streaming sends
// OpenAI's event types (`event:` + `data:` frames, no [DONE]); a client that goes away cancels its run.
import { z } from "zod";
import { AppError } from "../errors";
import { runRegistry } from "../runs/engines";
import { text } from "../validation/text";
import { citationSpans } from "./citations";
import type { FinalAnswer } from "./events";
import { ANSWER_MODEL, reasoningOf, sourcesOf, toAnswerInput, type ChatRequest } from "./openai";
import { startAnswer } from "./service";
import { followAnswer, SSE_HEADERS, sseStream } from "./stream";

const part = z.looseObject({ type: z.string(), text: text().optional() });
const item = z.looseObject({ type: z.string().optional(), role: text().optional(), content: z.union([text(), z.array(part)]).optional() });

export const responsesRequestSchema = z.object({
  model: z.string({ error: "model is required" }).min(1, { error: "model is required" }),
  input: z.union([text().pipe(z.string().min(1, { error: "input must not be empty" })), z.array(item).min(1, { error: "input must not be empty" })], {
    error: "input must be a text or a list of messages",
  }),
  instructions: text().nullish(),
  stream: z.boolean({ error: "stream must be a boolean" }).nullish(),
  reasoning: z.looseObject({ effort: z.enum(["minimal", "low", "medium", "high"], { error: "reasoning.effort must be one of minimal, low, medium, high" }).nullish() }).nullish(),
  max_output_tokens: z.number({ error: "max_output_tokens must be a positive integer" }).int({ error: "max_output_tokens must be a positive integer" }).positive({ error: "max_output_tokens must be a positive integer" }).nullish(),
});
export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;

/** The Responses input as the chat the answer agent takes (input_text parts are text parts). */
export function toChat(body: ResponsesRequest): ChatRequest {
  const items = typeof body.input === "string" ? [{ role: "user", content: body.input }] : body.input;
  const messages = items
    .filter((i) => (i.type === undefined || i.type === "message") && i.role)
    .map((i) => ({
      role: i.role!,
      content: typeof i.content === "string" ? i.content : (i.content ?? []).map((p) => ({ type: p.type === "input_text" || p.type === "output_text" ? "text" : p.type, text: p.text })),
    }));
  if (body.instructions) messages.unshift({ role: "system", content: body.instructions });
  if (!messages.some((m) => m.role === "user")) throw new AppError("bad_request:input", "input must contain a user message: it is the question", { field: "input" });
  return { model: body.model, messages, reasoning_effort: body.reasoning?.effort ?? null, max_completion_tokens: body.max_output_tokens ?? null };
}

function usageOf(final: FinalAnswer) {
  const u = final.usage;
  return { input_tokens: u.promptTokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: u.completionTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: u.totalTokens };
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
}

function envelope({ id, created, body }: Ids, status: "in_progress" | "completed" | "failed", rest: { output?: object[]; usage?: object | null; error?: object | null; sources?: object } = {}) {
  return {
    id,
    object: "response",
    created_at: created,
    status,
    error: rest.error ?? null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: ANSWER_MODEL,
    output: rest.output ?? [],
    parallel_tool_calls: false,
    previous_response_id: null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: null },
    store: false,
    temperature: null,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: null,
    truncation: "disabled",
    usage: rest.usage ?? null,
    metadata: {},
    ...rest.sources,
  };
}

const reasoningItem = (ids: Ids, summary: string[]) => ({ type: "reasoning", id: ids.reasoningId, summary: summary.map((text) => ({ type: "summary_text", text })) });
const messageItem = (ids: Ids, final: FinalAnswer, status: "in_progress" | "completed" = "completed") => ({
  type: "message",
  id: ids.messageId,
  status,
  role: "assistant",
  content: status === "completed" ? [{ type: "output_text", text: final.answer, annotations: annotationsOf(final), logprobs: [] }] : [],
});

export async function createResponse({ body, userId, signal }: { body: ResponsesRequest; userId: string | null; signal: AbortSignal }): Promise<Response> {
  const input = toAnswerInput(toChat(body));
  const { requestId, runId } = await startAnswer({ userId, ...input });
  const ids: Ids = { id: `resp_${requestId}`, created: Math.floor(Date.now() / 1000), reasoningId: `rs_${requestId}`, messageId: `msg_${requestId}`, body };
  const { events } = await followAnswer({ requestId, userId, signal });
  let ended = false;
  const cancelIfOpen = () => {
    if (!ended) void runRegistry.cancel("answer", runId).catch(() => {});
  };
  signal.addEventListener("abort", cancelIfOpen, { once: true });
  const headers = { "x-request-id": requestId };

  if (!body.stream) {
    const summary: string[] = [];
    for await (const { event } of events) {
      if (event.type === "progress") summary.push(reasoningOf(event.data.trackers).trim());
      else if (event.type === "paused") continue;
      else {
        ended = true;
        if (event.type === "error") throw new AppError("unavailable:answer", event.data.message);
        const final = event.data;
        const output = [reasoningItem(ids, summary), messageItem(ids, final)];
        return Response.json(envelope(ids, "completed", { output, usage: usageOf(final), sources: sourcesOf(final) }), { headers });
      }
    }
    throw new AppError("unavailable:answer", "The answer run ended without an answer");
  }

  let sequence = 0;
  const frame = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const failure = (message: string) => {
    ended = true;
    return frame("response.failed", { response: envelope(ids, "failed", { error: { code: "server_error", message } }) });
  };
  const stream = sseStream({
    signal,
    ping: ": keep-alive\n\n",
    run: async (write) => {
      const send = (type: string, data: object) => write(frame(type, data));
      const fail = (message: string) => write(failure(message));
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
        if (event.type === "error") {
          fail(event.data.message);
          break;
        }
        ended = true;
        const final = event.data;
        const at = { item_id: ids.messageId, output_index: 1, content_index: 0 };
        send("response.output_item.added", { output_index: 1, item: messageItem(ids, final, "in_progress") });
        send("response.content_part.added", { ...at, part: { type: "output_text", text: "", annotations: [] } });
        send("response.output_text.delta", { ...at, delta: final.answer, logprobs: [] });
        annotationsOf(final).forEach((annotation, i) => send("response.output_text.annotation.added", { ...at, annotation_index: i, annotation }));
        send("response.output_text.done", { ...at, text: final.answer, logprobs: [] });
        send("response.content_part.done", { ...at, part: { type: "output_text", text: final.answer, annotations: annotationsOf(final) } });
        const message = messageItem(ids, final);
        send("response.output_item.done", { output_index: 1, item: message });
        send("response.completed", { response: envelope(ids, "completed", { output: [reasoningItem(ids, summary), message], usage: usageOf(final), sources: sourcesOf(final) }) });
      }
      if (!ended) fail("The answer run ended without an answer");
    },
    failed: (message, write) => write(failure(message)),
    cancel: () => {
      cancelIfOpen();
      void events.return(undefined);
    },
  });
  return new Response(stream, { headers: { ...SSE_HEADERS, ...headers } });
}
