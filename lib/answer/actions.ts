// The agent's reply schema, built per step so that it offers only the actions allowed at that step
// (a model cannot pick an action that is not in its schema). Counts are enforced in code, not in
// the schema: a model that sends six queries loses the sixth instead of the whole reply.
import { z } from "zod";
import type { ActionName, AnswerState } from "./types";

export const MAX_QUERIES = 5;
export const MAX_URLS = 5;
export const MAX_SUBQUESTIONS = 2;
/** Sub-questions stop being offered once there are this many questions in all. */
export const MAX_QUESTIONS = 12;

const think = z.string().describe("Your reasoning for this step, briefly: what you know, what is missing, why this action");

const OPTIONS = {
  search: z.object({
    action: z.literal("search"),
    think,
    searchQuery: z.array(z.string()).describe(`Up to ${MAX_QUERIES} new web search queries, unlike those already searched`),
  }),
  visit: z.object({
    action: z.literal("visit"),
    think,
    URLTargets: z.array(z.string()).describe(`Up to ${MAX_URLS} URLs to read, taken from the known URLs`),
  }),
  reflect: z.object({
    action: z.literal("reflect"),
    think,
    questionsToAnswer: z.array(z.string()).describe(`Up to ${MAX_SUBQUESTIONS} new sub-questions whose answers are needed, unlike any asked so far`),
  }),
  answer: z.object({
    action: z.literal("answer"),
    think,
    answer: z.string().describe("The answer to the current question: definitive, no hedging"),
    references: z
      .array(
        z.object({
          url: z.string().describe("A URL you have read"),
          exactQuote: z.string().describe("A sentence copied exactly, word for word, from that page's text that supports the answer"),
        }),
      )
      .describe("The sources of the answer; empty only for a trivial question answerable without any source"),
  }),
} as const;

export type AgentAction = z.infer<(typeof OPTIONS)[ActionName]>;

const cache = new Map<string, z.ZodType<AgentAction>>();

/** The schema offering exactly `allowed` (built once per combination). */
export function actionSchema(allowed: ActionName[]): z.ZodType<AgentAction> {
  const key = allowed.join(",");
  let schema = cache.get(key);
  if (!schema) {
    const [first, ...rest] = allowed.map((a) => OPTIONS[a]);
    schema = z.discriminatedUnion("action", [first, ...rest]) as z.ZodType<AgentAction>;
    cache.set(key, schema);
  }
  return schema;
}

/**
 * The actions allowed at the next step: not those disabled by the last one, search only while
 * there is room for queries, visit only with unread URLs, reflect while questions are few. Answer
 * comes back when nothing else is left.
 */
export function allowedActions(state: AnswerState, unvisited: number): ActionName[] {
  const out: ActionName[] = [];
  if (!state.disabled.includes("search")) out.push("search");
  if (!state.disabled.includes("visit") && unvisited > 0) out.push("visit");
  if (!state.disabled.includes("reflect") && state.questions.length < MAX_QUESTIONS) out.push("reflect");
  if (!state.disabled.includes("answer") || out.length === 0) out.push("answer");
  return out;
}
