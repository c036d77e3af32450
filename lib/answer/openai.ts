// The OpenAI-compatible face of the answer agent (POST /v1/chat/completions): the request schema,
// how a chat becomes a question with a budget, and the response and chunk shapes, exactly OpenAI's.
import { z } from "zod";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { text } from "../validation/text";
import { citationSpans } from "./citations";
import type { FinalAnswer, Trackers } from "./events";

export const ANSWER_MODEL = "quarry-answer";
export const MODEL_INFO = { id: ANSWER_MODEL, object: "model", created: 1_767_225_600, owned_by: "quarry" };

/** reasoning_effort → token budget and bad attempts allowed. */
export const EFFORT = {
  low: { budget: 100_000, maxBadAttempt: 1 },
  medium: { budget: 500_000, maxBadAttempt: 2 },
  high: { budget: 1_000_000, maxBadAttempt: 3 },
} as const;

// The messages are stored as the run's question and context: their text must be storable.
const content = z.union([text(), z.array(z.looseObject({ type: z.string(), text: text().optional() })), z.null()]);

export const chatRequestSchema = z.object({
  model: z.string({ error: "model is required" }).min(1, { error: "model is required" }),
  messages: z
    .array(z.looseObject({ role: text({ error: "Each message needs a role" }), content: content.optional() }), { error: "messages must be a list of messages" })
    .min(1, { error: "messages must not be empty" }),
  stream: z.boolean({ error: "stream must be a boolean" }).optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  reasoning_effort: z.enum(["minimal", "low", "medium", "high"], { error: "reasoning_effort must be one of minimal, low, medium, high" }).nullish(),
  max_completion_tokens: z.number({ error: "max_completion_tokens must be a positive integer" }).int({ error: "max_completion_tokens must be a positive integer" }).positive({ error: "max_completion_tokens must be a positive integer" }).nullish(),
  max_tokens: z.number({ error: "max_tokens must be a positive integer" }).int({ error: "max_tokens must be a positive integer" }).positive({ error: "max_tokens must be a positive integer" }).nullish(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;

const textOf = (c: z.infer<typeof content> | undefined) => (typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("") : "");

/** The last user message is the question; earlier messages are context. */
export function toAnswerInput(body: ChatRequest) {
  if (body.model !== ANSWER_MODEL) throw new AppError("not_found:model", `The model '${body.model}' does not exist; use ${ANSWER_MODEL}`, { field: "model" });
  const lastUser = body.messages.findLastIndex((m) => m.role === "user");
  const q = lastUser >= 0 ? textOf(body.messages[lastUser].content).trim() : "";
  if (!q) throw new AppError("bad_request:messages", "The last user message must have text: it is the question", { field: "messages" });
  const context = body.messages
    .slice(0, lastUser)
    .map((m) => `${m.role}: ${textOf(m.content).trim()}`)
    .filter((line) => !line.endsWith(": "))
    .join("\n")
    .slice(-20_000);
  const effort = EFFORT[body.reasoning_effort === "minimal" ? "low" : (body.reasoning_effort ?? "medium")];
  const cap = body.max_completion_tokens ?? body.max_tokens ?? Infinity;
  const budget = Math.min(effort.budget, cap, getEnv().ANSWER_MAX_BUDGET);
  return { q, context, budget, maxBadAttempt: effort.maxBadAttempt };
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
    choices: [{ index: 0, message: { role: "assistant", content: final.answer, reasoning_content: reasoning, refusal: null, annotations: annotationsOf(final) }, logprobs: null, finish_reason: "stop" }],
    usage: usageOf(final),
    ...sourcesOf(final),
  };
}

export function chunk(id: string, created: number, delta: object, finishReason: string | null = null, extra: object = {}): string {
  return `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: ANSWER_MODEL, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...extra })}\n\n`;
}
