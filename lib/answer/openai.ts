// The OpenAI-compatible face of the answer agent (POST /v1/chat/completions): the request schema,
// how a chat becomes a question with a budget, and the response and chunk shapes, exactly OpenAI's.
// Two models: quarry-answer researches a question (a chat UI's housekeeping is answered plainly, see
// task.ts); quarry-chat is one plain call through Quarry's LLM, for a chat UI's task-model setting.
import { z } from "zod";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { text } from "../validation/text";
import type { ModelMessage } from "ai";
import type { ReplyFormat } from "../ai/call";
import { citationSpans } from "./citations";
import type { FinalAnswer, Trackers } from "./events";
import type { AnswerOptions } from "./types";

export const ANSWER_MODEL = "quarry-answer";
export const CHAT_MODEL = "quarry-chat";
export const MODELS = [ANSWER_MODEL, CHAT_MODEL] as const;
export type ModelId = (typeof MODELS)[number];
export const isModel = (id: string): id is ModelId => (MODELS as readonly string[]).includes(id);
export const modelInfo = (id: ModelId) => ({ id, object: "model", created: 1_767_225_600, owned_by: "quarry" });
/** 404 naming the model, for an id this API does not serve. */
export const unknownModel = (id: string) => new AppError("not_found:model", `The model '${id}' does not exist; use ${ANSWER_MODEL} (research) or ${CHAT_MODEL} (one plain call)`, { field: "model" });

/** reasoning_effort → token budget and bad attempts allowed. */
export const EFFORT = {
  low: { budget: 100_000, maxBadAttempt: 1 },
  medium: { budget: 500_000, maxBadAttempt: 2 },
  high: { budget: 1_000_000, maxBadAttempt: 3 },
} as const;

// The messages are stored as the run's question and context: their text must be storable. Parts
// other than text (images, audio, files) are refused by name in toAnswerInput, never dropped.
const part = z.looseObject({ type: z.string({ error: "Each content part needs a type" }), text: text().optional() });
const content = z.union([text(), z.array(part), z.null()]);

const positiveInt = (name: string) =>
  z.number({ error: `${name} must be a positive integer` }).int({ error: `${name} must be a positive integer` }).positive({ error: `${name} must be a positive integer` });

const number = (name: string, min: number, max: number) =>
  z.number({ error: `${name} must be a number from ${min} to ${max}` }).min(min, { error: `${name} must be a number from ${min} to ${max}` }).max(max, { error: `${name} must be a number from ${min} to ${max}` });

const hostnames = (name: string) =>
  z
    .array(
      z
        .string({ error: `${name} must be a list of hostnames` })
        .trim()
        .toLowerCase()
        .regex(/^[a-z0-9.-]{1,253}$/, { error: `${name} must be a list of hostnames, like "example.com"` }),
      { error: `${name} must be a list of hostnames` },
    )
    .max(100, { error: `${name} takes at most 100 hostnames` })
    .nullish();

const responseFormat = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("text") }),
    z.object({ type: z.literal("json_object") }),
    z.object({
      type: z.literal("json_schema"),
      json_schema: z.looseObject({
        name: z.string({ error: "response_format.json_schema.name is required" }).regex(/^[\w-]{1,64}$/, { error: "response_format.json_schema.name must be 1–64 letters, digits, '_' or '-'" }),
        schema: z.record(z.string(), z.unknown(), { error: "response_format.json_schema.schema must be a JSON Schema object" }).optional(),
        strict: z.boolean().nullish(),
      }),
    }),
  ],
  { error: "response_format.type must be one of text, json_object, json_schema" },
);

export const chatRequestSchema = z.object({
  model: z.string({ error: "model is required" }).min(1, { error: "model is required" }),
  messages: z
    .array(z.looseObject({ role: text({ error: "Each message needs a role" }), content: content.optional() }), { error: "messages must be a list of messages" })
    .min(1, { error: "messages must not be empty" }),
  stream: z.boolean({ error: "stream must be a boolean" }).nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean({ error: "stream_options.include_usage must be a boolean" }).nullish() }).nullish(),
  reasoning_effort: z.enum(["minimal", "low", "medium", "high"], { error: "reasoning_effort must be one of minimal, low, medium, high" }).nullish(),
  // The answer's length, as in OpenAI's API (not the research budget: that is budget_tokens).
  max_completion_tokens: positiveInt("max_completion_tokens").nullish(),
  max_tokens: positiveInt("max_tokens").nullish(),
  // The research: its token budget and how many answers may be rejected before beast mode.
  budget_tokens: positiveInt("budget_tokens").nullish(),
  max_attempts: z.number({ error: "max_attempts must be an integer from 1 to 10" }).int({ error: "max_attempts must be an integer from 1 to 10" }).min(1, { error: "max_attempts must be an integer from 1 to 10" }).max(10, { error: "max_attempts must be an integer from 1 to 10" }).nullish(),
  no_direct_answer: z.boolean({ error: "no_direct_answer must be a boolean" }).nullish(),
  only_hostnames: hostnames("only_hostnames"),
  boost_hostnames: hostnames("boost_hostnames"),
  bad_hostnames: hostnames("bad_hostnames"),
  response_format: responseFormat.nullish(),
  temperature: number("temperature", 0, 2).nullish(),
  top_p: number("top_p", 0, 1).nullish(),
  // Passed on to the call that writes the reply (stop also ends a researched answer where it occurs).
  stop: z
    .union([text().pipe(z.string().min(1, { error: "stop must not be empty" })), z.array(text().pipe(z.string().min(1, { error: "stop must not hold an empty sequence" }))).max(4, { error: "stop takes at most 4 sequences" })], {
      error: "stop must be a text or a list of at most 4 texts",
    })
    .nullish(),
  seed: z.number({ error: "seed must be an integer" }).int({ error: "seed must be an integer" }).nullish(),
  frequency_penalty: number("frequency_penalty", -2, 2).nullish(),
  presence_penalty: number("presence_penalty", -2, 2).nullish(),
  // Accepted only where they change nothing; anything else is refused by name (assertHonourable).
  n: z.number({ error: "n must be 1" }).int({ error: "n must be 1" }).nullish(),
  logprobs: z.boolean({ error: "logprobs must be a boolean" }).nullish(),
  top_logprobs: z.number({ error: "top_logprobs must be an integer" }).int({ error: "top_logprobs must be an integer" }).nullish(),
  logit_bias: z.record(z.string(), z.number(), { error: "logit_bias must map token ids to numbers" }).nullish(),
  modalities: z.array(z.string({ error: "modalities must be a list of texts" }), { error: "modalities must be a list" }).nullish(),
  audio: z.unknown().optional(),
  // Bookkeeping fields clients send (OpenAI's): they change no reply.
  user: z.string({ error: "user must be a text" }).nullish(),
  metadata: z.record(z.string(), z.unknown(), { error: "metadata must be an object" }).nullish(),
  store: z.boolean({ error: "store must be a boolean" }).nullish(),
  service_tier: z.string({ error: "service_tier must be a text" }).nullish(),
  parallel_tool_calls: z.boolean({ error: "parallel_tool_calls must be a boolean" }).nullish(),
  tools: z.array(z.unknown(), { error: "tools must be a list" }).nullish(),
  functions: z.array(z.unknown(), { error: "functions must be a list" }).nullish(),
  tool_choice: z.unknown().optional(),
  function_call: z.unknown().optional(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** The longest question, as on POST /api/v1/query. */
export const MAX_QUESTION_CHARS = 10_000;
/** Below this the research cannot pay for one step and a final answer. */
export const MIN_BUDGET_TOKENS = 2_000;

type Message = ChatRequest["messages"][number];

export const textOf = (c: Message["content"]) => (typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("") : "");

const IMAGE_PARTS = new Set(["image_url", "input_image", "image"]);

/** 400 naming the parameter for whatever this endpoint cannot do, instead of ignoring it. */
export function assertHonourable(body: ChatRequest): void {
  if (!isModel(body.model)) throw unknownModel(body.model);
  if (body.model === CHAT_MODEL)
    for (const field of RESEARCH_PARAMETERS)
      if (body[field] != null) throw new AppError(`bad_request:${field}`, `${field} is a research parameter: use the model ${ANSWER_MODEL}, or leave it out for ${CHAT_MODEL}`, { field });
  if (body.n != null && body.n !== 1) throw new AppError("bad_request:n", "n must be 1: the answer agent gives one answer per request", { field: "n" });
  if (body.logprobs) throw new AppError("bad_request:logprobs", "logprobs are not supported: the model's token probabilities are not available through this API", { field: "logprobs" });
  if (body.top_logprobs) throw new AppError("bad_request:top_logprobs", "top_logprobs is not supported: the model's token probabilities are not available through this API", { field: "top_logprobs" });
  if (body.logit_bias && Object.keys(body.logit_bias).length) throw new AppError("bad_request:logit_bias", "logit_bias is not supported: token ids differ between the models behind this API", { field: "logit_bias" });
  if (body.modalities?.some((m) => m !== "text")) throw new AppError("bad_request:modalities", "modalities other than text are not supported: the answer agent neither hears nor speaks", { field: "modalities" });
  if (body.audio != null) throw new AppError("bad_request:audio", "audio output is not supported: the answer agent writes text only", { field: "audio" });
  if (body.tools?.length) throw new AppError("bad_request:tools", "tools are not supported: the answer agent calls no client tools", { field: "tools" });
  if (body.functions?.length) throw new AppError("bad_request:functions", "functions are not supported: the answer agent calls no client functions", { field: "functions" });
  if (body.tool_choice != null && body.tool_choice !== "none" && body.tool_choice !== "auto")
    throw new AppError("bad_request:tool_choice", "tool_choice is not supported: the answer agent calls no client tools", { field: "tool_choice" });
  if (body.function_call != null && body.function_call !== "none" && body.function_call !== "auto")
    throw new AppError("bad_request:function_call", "function_call is not supported: the answer agent calls no client functions", { field: "function_call" });
  for (const [i, m] of body.messages.entries()) {
    if (!Array.isArray(m.content)) continue;
    for (const p of m.content) {
      if (p.type === "text") continue;
      const field = `messages.${i}.content`;
      if (IMAGE_PARTS.has(p.type)) throw new AppError("bad_request:messages", "Images are not supported: the answer agent reads text only", { field });
      throw new AppError("bad_request:messages", `Content parts of type '${p.type}' are not supported: the answer agent reads text only`, { field });
    }
  }
}

const answerLimit = (body: ChatRequest) => body.max_completion_tokens ?? body.max_tokens ?? undefined;

const formatOf = (body: ChatRequest): ReplyFormat | undefined => {
  const f = body.response_format;
  if (!f || f.type === "text") return undefined;
  if (f.type === "json_object") return { type: "json_object" };
  return { type: "json_schema", name: f.json_schema.name, schema: f.json_schema.schema ?? { type: "object" } };
};

/** Parameters only a research takes: they mean research on quarry-answer, and are refused by name on quarry-chat. */
export const RESEARCH_PARAMETERS = ["budget_tokens", "reasoning_effort", "max_attempts", "no_direct_answer", "only_hostnames", "boost_hostnames", "bad_hostnames"] as const;

/** A plain call's messages as the model takes them: roles kept, text only; a request of system messages alone (LibreChat's legacy title) gets its last as the user's. */
export function taskMessages(body: ChatRequest): ModelMessage[] {
  const out = body.messages.flatMap((m): ModelMessage[] => {
    const t = textOf(m.content);
    if (!t.trim()) return [];
    if (m.role === "system" || m.role === "developer") return [{ role: "system", content: t }];
    if (m.role === "assistant") return [{ role: "assistant", content: t }];
    if (m.role === "user") return [{ role: "user", content: t }];
    return [];
  });
  const lastSystem = out.findLastIndex((m) => m.role === "system");
  if (!out.some((m) => m.role === "user") && lastSystem >= 0) out[lastSystem] = { role: "user", content: out[lastSystem].content as string };
  return out;
}

const stopOf = (body: ChatRequest): string[] | undefined => (body.stop == null ? undefined : typeof body.stop === "string" ? [body.stop] : body.stop.length ? body.stop : undefined);

/** The client's sampling and format settings, for a plain call or the final answer. */
export function replySettings(body: ChatRequest) {
  return {
    maxOutputTokens: answerLimit(body),
    format: formatOf(body),
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    stopSequences: stopOf(body),
    seed: body.seed ?? undefined,
    frequencyPenalty: body.frequency_penalty ?? undefined,
    presencePenalty: body.presence_penalty ?? undefined,
  };
}

/** The conversation before the question is kept up to this many characters (its end). */
export const MAX_CONTEXT_CHARS = 20_000;

/** What a question's request told beyond its messages: a context block a chat client attached (its RAG template's), in place of its template. */
export interface Provided {
  /** The question inside the client's template (its user query). */
  question: string;
  /** The context the client attached (retrieved passages, search results). */
  context: string;
  /** The message the template was in: it stands in the conversation as its context only. */
  messageIndex: number;
}

/** Where a conversation had to be cut to fit MAX_CONTEXT_CHARS: its characters kept and in all. */
export interface HistoryCut {
  kept_chars: number;
  total_chars: number;
}

/**
 * The last user message is the question; earlier messages are context (at most MAX_CONTEXT_CHARS,
 * the oldest cut first, and the cut reported). With `provided`, the question is the one inside the
 * client's RAG template and its context block comes first in the context.
 */
export function toAnswerInput(body: ChatRequest, provided?: Provided, earlier?: string) {
  assertHonourable(body);
  const lastUser = body.messages.findLastIndex((m) => m.role === "user");
  const q = provided?.question.trim() ?? (lastUser >= 0 ? textOf(body.messages[lastUser].content).trim() : "");
  if (!q) throw new AppError("bad_request:messages", "The last user message must have text: it is the question", { field: "messages" });
  if (q.length > MAX_QUESTION_CHARS)
    throw new AppError("bad_request:messages", `The question (the last user message) must be at most ${MAX_QUESTION_CHARS.toLocaleString("en-US")} characters; it has ${q.length.toLocaleString("en-US")}`, { field: "messages" });
  const conversation = body.messages
    .slice(0, lastUser)
    .map((m, i) => (provided?.messageIndex === i ? "" : `${m.role}: ${textOf(m.content).trim()}`))
    .filter((line) => line && !line.endsWith(": "))
    .join("\n");
  // `earlier`: the conversation before these messages (a Responses request's previous response's).
  const whole = [provided?.context.trim() ? `Context the client attached:\n${provided.context.trim()}` : "", [earlier?.trim(), conversation].filter(Boolean).join("\n")].filter(Boolean).join("\n\n");
  const context = whole.length > MAX_CONTEXT_CHARS ? whole.slice(-MAX_CONTEXT_CHARS) : whole;
  const historyCut: HistoryCut | undefined = whole.length > MAX_CONTEXT_CHARS ? { kept_chars: context.length, total_chars: whole.length } : undefined;
  const effort = EFFORT[body.reasoning_effort === "minimal" ? "low" : (body.reasoning_effort ?? "medium")];
  const max = getEnv().ANSWER_MAX_BUDGET;
  if (body.budget_tokens != null && body.budget_tokens > max) throw new AppError("bad_request:budget_tokens", `budget_tokens cannot exceed ${max} (ANSWER_MAX_BUDGET)`, { field: "budget_tokens" });
  if (body.budget_tokens != null && body.budget_tokens < MIN_BUDGET_TOKENS)
    throw new AppError("bad_request:budget_tokens", `budget_tokens must be at least ${MIN_BUDGET_TOKENS}: a smaller budget cannot pay for a step and a final answer`, { field: "budget_tokens" });
  const budget = body.budget_tokens ?? Math.min(effort.budget, max);
  const settings = replySettings(body);
  const options: AnswerOptions = {
    ...(settings.maxOutputTokens !== undefined ? { maxAnswerTokens: settings.maxOutputTokens } : {}),
    ...(settings.format ? { format: settings.format } : {}),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.topP !== undefined ? { topP: settings.topP } : {}),
    ...(settings.stopSequences ? { stop: settings.stopSequences } : {}),
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
    ...(settings.frequencyPenalty !== undefined ? { frequencyPenalty: settings.frequencyPenalty } : {}),
    ...(settings.presencePenalty !== undefined ? { presencePenalty: settings.presencePenalty } : {}),
    ...(body.no_direct_answer ? { noDirectAnswer: true } : {}),
    ...(body.only_hostnames?.length ? { onlyHostnames: body.only_hostnames } : {}),
    ...(body.boost_hostnames?.length ? { boostHostnames: body.boost_hostnames } : {}),
    ...(body.bad_hostnames?.length ? { badHostnames: body.bad_hostnames } : {}),
  };
  return { q, context, budget, maxBadAttempt: body.max_attempts ?? effort.maxBadAttempt, options, historyCut };
}

/** One progress step as reasoning text. */
export function reasoningOf(t: Trackers): string {
  const a = t.actionState;
  const what =
    a.action === "search" ? `Searching: ${(a.searchQuery ?? []).join("; ")}` : a.action === "visit" ? `Reading: ${(a.URLTargets ?? []).join(", ")}` : a.action === "reflect" ? `New questions: ${(a.questionsToAnswer ?? []).join("; ")}` : "Answering";
  return `[step ${t.step}] ${a.think.trim()}\n${what}\n\n`;
}

/** url_citation annotations spanning the sentence each [^n] marker closes (lib/answer/citations.ts). */
export function annotationsOf(final: FinalAnswer) {
  return citationSpans(final).map((c) => ({
    type: "url_citation" as const,
    url_citation: { url: c.url, title: c.title, exactQuote: c.exactQuote, start_index: c.start, end_index: c.end },
  }));
}

/** The peer API's source lists, and whether a forced answer has none, beside OpenAI's fields. */
export const sourcesOf = (final: FinalAnswer) => ({ visitedURLs: final.visitedURLs, readURLs: final.readURLs, numURLs: final.visitedURLs.length, noSources: final.noSources });

export function usageOf(final: FinalAnswer) {
  return { prompt_tokens: final.usage.promptTokens, completion_tokens: final.usage.completionTokens, total_tokens: final.usage.totalTokens };
}

export function completionBody({ id, created, final, reasoning, historyCut }: { id: string; created: number; final: FinalAnswer; reasoning: string; historyCut?: HistoryCut }) {
  return {
    id,
    object: "chat.completion",
    created,
    model: ANSWER_MODEL,
    choices: [{ index: 0, message: { role: "assistant", content: final.answer, reasoning_content: reasoning, refusal: null, annotations: annotationsOf(final) }, logprobs: null, finish_reason: final.finishReason ?? "stop" }],
    usage: usageOf(final),
    ...sourcesOf(final),
    ...(historyCut ? { history_truncated: historyCut } : {}),
  };
}

export function chunk(id: string, created: number, delta: object, finishReason: string | null = null, extra: object = {}, model: ModelId = ANSWER_MODEL): string {
  return `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...extra })}\n\n`;
}

/**
 * How a client marks a retry, so that it joins the run it repeats: an Idempotency-Key (the same on
 * every attempt), or the openai clients' x-stainless-retry-count (above 0 on a retry, with the same body).
 */
export function retryOf(request: Request): { idempotencyKey?: string; retry: boolean } {
  const idempotencyKey = request.headers.get("idempotency-key")?.trim().slice(0, 500) || undefined;
  const count = Number(request.headers.get("x-stainless-retry-count") ?? "0");
  return { idempotencyKey, retry: Number.isFinite(count) && count > 0 };
}
