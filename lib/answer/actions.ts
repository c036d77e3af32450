// The agent's reply schema, built per step so that it offers only the actions allowed at that step
// (a model cannot pick an action that is not in its schema). Counts are enforced in code, not in
// the schema: a model that sends six queries loses the sixth instead of the whole reply.
//
// What the agent names that exists — a URL to read, the page a quote is from — it names by a short
// handle shown in the prompt (U3 for a known URL, P2 for a page read), offered as the JSON Schema's
// enum. The handles are resolved here with the one tolerant resolver (lib/ai/resolve.ts): a handle in
// another case, "Source 3", or the URL itself retyped (another case of host, a trailing slash, a
// query string added) still names it. The action's name is folded the same way ("Search", " VISIT ").
import { z } from "zod";
import { choicesOf, handles, resolveChoice, resolveEnumValue, type Choice } from "../ai/resolve";
import type { ActionName, AnswerState } from "./types";

export const MAX_QUERIES = 5;
export const MAX_URLS = 5;
export const MAX_SUBQUESTIONS = 2;
/** Sub-questions stop being offered once there are this many questions in all. */
export const MAX_QUESTIONS = 12;

/** Handle prefixes: U for a URL the agent may read, P for a page it has read. */
export const URL_PREFIX = "U";
export const PAGE_PREFIX = "P";

const think = z.string().describe("Your reasoning for this step, briefly: what you know, what is missing, why this action");

/**
 * A field naming one of `count` things by handle. The JSON Schema offers the handles as an enum (a
 * provider that enforces it can only send one); validation takes any string, so that a retyped URL
 * reaches the resolver instead of failing the reply. With nothing to name, it is a plain string.
 */
export function handleField(prefix: string, count: number, description: string) {
  return count > 0 ? z.string().meta({ enum: handles(prefix, count), description }) : z.string().meta({ description });
}

function options(urls: number, pages: number) {
  return {
    search: z.object({
      action: z.literal("search"),
      think,
      searchQuery: z.array(z.string()).describe(`Up to ${MAX_QUERIES} new web search queries, unlike those already searched`),
    }),
    visit: z.object({
      action: z.literal("visit"),
      think,
      URLTargets: z.array(handleField(URL_PREFIX, urls, `A known URL to read, by its handle (${URL_PREFIX}1…)`)).describe(`Up to ${MAX_URLS} of the known URLs to read`),
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
            source: handleField(PAGE_PREFIX, pages, pages > 0 ? `The page read that the quote is from, by its handle (${PAGE_PREFIX}1…)` : "No page has been read yet: leave references empty"),
            exactQuote: z.string().describe("A sentence copied exactly, word for word, from that page's text that supports the answer"),
          }),
        )
        .describe("The sources of the answer; empty only for a trivial question answerable without any source"),
    }),
  };
}

/** The reply as the schema takes it: URLs and pages still named as the model named them. */
export type RawAction = z.infer<ReturnType<typeof options>[ActionName]>;

/** A reference as the step checks it: the URL of the page named (or the model's own words for it, when they name no page read). */
export interface NamedReference {
  url: string;
  exactQuote: string;
}

/** The reply with every handle resolved to what it names. */
export type AgentAction =
  | { action: "search"; think: string; searchQuery: string[] }
  | { action: "visit"; think: string; URLTargets: string[]; unknownTargets?: string[] }
  | { action: "reflect"; think: string; questionsToAnswer: string[] }
  | { action: "answer"; think: string; answer: string; references: NamedReference[] };

const cache = new Map<string, z.ZodType<RawAction>>();

/**
 * The schema offering exactly `allowed`, with `urls` handles to visit and `pages` handles to cite
 * (built once per combination: the handles are U1…Un, P1…Pn, whatever they stand for).
 */
export function actionSchema(allowed: ActionName[], { urls = 0, pages = 0 }: { urls?: number; pages?: number } = {}): z.ZodType<RawAction> {
  const key = `${allowed.join(",")}|${urls}|${pages}`;
  let schema = cache.get(key);
  if (!schema) {
    const all = options(urls, pages);
    const [first, ...rest] = allowed.map((a) => all[a]);
    // The action's name in another case or padded ("Search", " visit ") is the action.
    const folded = (value: unknown) => {
      if (typeof value !== "object" || value === null || !("action" in value)) return value;
      const action = resolveEnumValue(value.action, allowed);
      return action ? { ...value, action } : value;
    };
    schema = z.preprocess(folded, z.discriminatedUnion("action", [first, ...rest])) as unknown as z.ZodType<RawAction>;
    cache.set(key, schema);
  }
  return schema;
}

/**
 * The reply with its handles resolved: visit targets to the known URLs they name (those that name
 * none are kept apart, never read; with one URL to read, any target names it, as the resolver takes
 * a lone candidate), references to the read page they name. A reference naming no
 * page read keeps the model's words for its URL: its quote is the evidence, and attribution finds
 * the page that holds it or rejects it (lib/answer/attribution.ts).
 */
export function resolveAction(reply: RawAction, { urls, pages }: { urls: readonly Choice<{ url: string }>[]; pages: readonly Choice<{ url: string }>[] }): AgentAction {
  switch (reply.action) {
    case "search":
      return { ...reply, searchQuery: reply.searchQuery.map((q) => q.trim()).filter(Boolean).slice(0, MAX_QUERIES) };
    case "visit": {
      const targets: string[] = [];
      const unknown: string[] = [];
      for (const named of reply.URLTargets.map((t) => t.trim()).filter(Boolean)) {
        const url = resolveChoice(named, urls)?.value.url;
        if (url === undefined) unknown.push(named);
        else if (!targets.includes(url)) targets.push(url);
      }
      return { action: "visit", think: reply.think, URLTargets: targets.slice(0, MAX_URLS), ...(unknown.length ? { unknownTargets: unknown } : {}) };
    }
    case "reflect":
      return { ...reply, questionsToAnswer: reply.questionsToAnswer.map((q) => q.trim()).filter(Boolean).slice(0, MAX_SUBQUESTIONS) };
    case "answer":
      return { action: "answer", think: reply.think, answer: reply.answer.trim(), references: resolveReferences(reply.references, pages) };
  }
}

/** References named by page handle, as URLs (at most ten). */
export function resolveReferences(references: { source: string; exactQuote: string }[], pages: readonly Choice<{ url: string }>[]): NamedReference[] {
  return references.slice(0, 10).map((r) => ({ url: resolveChoice(r.source, pages)?.value.url ?? r.source.trim(), exactQuote: r.exactQuote }));
}

/** Handles for URLs or pages in order (U1, U2… or P1, P2…), each known too by its URL and its title. */
export function handlesFor<T extends { url: string; title?: string | null }>(prefix: string, items: readonly T[]): Choice<T>[] {
  return choicesOf(prefix, items, (i) => (i.title ? [i.url, i.title] : [i.url]));
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
