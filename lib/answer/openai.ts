// The OpenAI-compatible face of the answer agent (POST /v1/chat/completions): the request schema,
// how a chat becomes a question with a budget, and the response and chunk shapes, exactly OpenAI's.
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
export const MODEL_INFO = { id: ANSWER_MODEL, object: "model", created: 1_767_225_600, owned_by: "quarry" };

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
  temperature: z.number({ error: "temperature must be a number from 0 to 2" }).min(0, { error: "temperature must be a number from 0 to 2" }).max(2, { error: "temperature must be a number from 0 to 2" }).nullish(),
  top_p: z.number({ error: "top_p must be a number from 0 to 1" }).min(0, { error: "top_p must be a number from 0 to 1" }).max(1, { error: "top_p must be a number from 0 to 1" }).nullish(),
  // Accepted only where they change nothing; anything else is refused by name (assertHonourable).
  n: z.number({ error: "n must be 1" }).int({ error: "n must be 1" }).nullish(),
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

const textOf = (c: Message["content"]) => (typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("") : "");

const IMAGE_PARTS = new Set(["image_url", "input_image", "image"]);

/** 400 naming the parameter for whatever this endpoint cannot do, instead of ignoring it. */
export function assertHonourable(body: ChatRequest): void {
  if (body.model !== ANSWER_MODEL) throw new AppError("not_found:model", `The model '${body.model}' does not exist; use ${ANSWER_MODEL}`, { field: "model" });
  if (body.n != null && body.n !== 1) throw new AppError("bad_request:n", "n must be 1: the answer agent gives one answer per request", { field: "n" });
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

/** Limits at or below this are a chat UI's short task (a title, tags), not an answer's. */
export const TASK_MAX_TOKENS = 1_000;

/**
 * Whether the request is a chat UI's background task over the conversation (a title, tags,
 * follow-up suggestions) rather than a research question: the last user message quotes the chat
 * for a task (`<chat_history>`, `### Task:`), or JSON is asked for with a system prompt or a short
 * limit, or a system prompt comes with a short limit (≤ 1,000 tokens). A research parameter
 * (budget_tokens, reasoning_effort, max_attempts, no_direct_answer, *_hostnames) always means research.
 */
export function isBackgroundTask(body: ChatRequest): boolean {
  if (body.budget_tokens != null || body.reasoning_effort != null || body.max_attempts != null || body.no_direct_answer != null) return false;
  if (body.only_hostnames != null || body.boost_hostnames != null || body.bad_hostnames != null) return false;
  const lastUser = body.messages.findLast((m) => m.role === "user");
  if (lastUser && /<chat_history>|^\s*#{2,3}\s*Task:/im.test(textOf(lastUser.content))) return true;
  const system = body.messages.some((m) => m.role === "system" || m.role === "developer");
  const json = formatOf(body) !== undefined;
  const limit = answerLimit(body);
  const short = limit !== undefined && limit <= TASK_MAX_TOKENS;
  return (json && (system || short)) || (system && short);
}

/** A background task's messages as the model takes them: roles kept, text only. */
export function taskMessages(body: ChatRequest): ModelMessage[] {
  return body.messages.flatMap((m): ModelMessage[] => {
    const t = textOf(m.content);
    if (!t.trim()) return [];
    if (m.role === "system" || m.role === "developer") return [{ role: "system", content: t }];
    if (m.role === "assistant") return [{ role: "assistant", content: t }];
    if (m.role === "user") return [{ role: "user", content: t }];
    return [];
  });
}

/** The client's sampling and format settings, for a background task's call or the final answer. */
export function replySettings(body: ChatRequest) {
  return { maxOutputTokens: answerLimit(body), format: formatOf(body), temperature: body.temperature ?? undefined, topP: body.top_p ?? undefined };
}

/** The last user message is the question; earlier messages are context. */
export function toAnswerInput(body: ChatRequest) {
  assertHonourable(body);
  const lastUser = body.messages.findLastIndex((m) => m.role === "user");
  const q = lastUser >= 0 ? textOf(body.messages[lastUser].content).trim() : "";
  if (!q) throw new AppError("bad_request:messages", "The last user message must have text: it is the question", { field: "messages" });
  if (q.length > MAX_QUESTION_CHARS)
    throw new AppError("bad_request:messages", `The question (the last user message) must be at most ${MAX_QUESTION_CHARS.toLocaleString("en-US")} characters; it has ${q.length.toLocaleString("en-US")}`, { field: "messages" });
  const context = body.messages
    .slice(0, lastUser)
    .map((m) => `${m.role}: ${textOf(m.content).trim()}`)
    .filter((line) => !line.endsWith(": "))
    .join("\n")
    .slice(-20_000);
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
    ...(body.no_direct_answer ? { noDirectAnswer: true } : {}),
    ...(body.only_hostnames?.length ? { onlyHostnames: body.only_hostnames } : {}),
    ...(body.boost_hostnames?.length ? { boostHostnames: body.boost_hostnames } : {}),
    ...(body.bad_hostnames?.length ? { badHostnames: body.bad_hostnames } : {}),
  };
  return { q, context, budget, maxBadAttempt: body.max_attempts ?? effort.maxBadAttempt, options };
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

export function completionBody({ id, created, final, reasoning }: { id: string; created: number; final: FinalAnswer; reasoning: string }) {
  return {
    id,
    object: "chat.completion",
    created,
    model: ANSWER_MODEL,
    choices: [{ index: 0, message: { role: "assistant", content: final.answer, reasoning_content: reasoning, refusal: null, annotations: annotationsOf(final) }, logprobs: null, finish_reason: final.finishReason ?? "stop" }],
    usage: usageOf(final),
    ...sourcesOf(final),
  };
}

export function chunk(id: string, created: number, delta: object, finishReason: string | null = null, extra: object = {}): string {
  return `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: ANSWER_MODEL, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...extra })}\n\n`;
}
