// The chat classifier: when a chat request's shape and the known client templates do not settle it
// (lib/answer/task.ts), one small call asks whether its last message is the chat client's own
// housekeeping — a title, tags, a summary, follow-up suggestions, an emoji, search queries, an
// autocompletion — or the person's question. It sees the request's outline (a few hundred tokens):
// the start of the system prompt, the start and end of the last message, and the request's shape.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import type { UsageSink } from "../../ai/usage";
import { HOUSEKEEPING } from "../templates";

export const CLASSIFIER_AGENT = "chat-classifier";

const KINDS = ["question", ...HOUSEKEEPING] as const;
export type ChatKind = (typeof KINDS)[number];

const schema = z.object({ kind: z.enum(KINDS).describe("question, or the housekeeping the client asks for") });

/** What the classifier is shown of a request. */
export interface RequestOutline {
  /** The system (or developer) prompt, if any. */
  system: string;
  /** The last message: the user's, or the system's when there is no user message. */
  last: string;
  /** The request's shape in words: messages, earlier turns, format, length limit. */
  shape: string;
}

const SYSTEM_CHARS = 600;
const HEAD_CHARS = 900;
const TAIL_CHARS = 300;

/** A long text's start and end, the middle left out: instructions sit at either end of a template. */
export function excerpt(text: string, head: number, tail = 0): string {
  const t = text.trim();
  if (t.length <= head + tail + 20) return t;
  return `${t.slice(0, head)}\n[… ${(t.length - head - tail).toLocaleString("en-US")} characters left out …]${tail ? `\n${t.slice(-tail)}` : ""}`;
}

export const CLASSIFIER_SYSTEM = `${agentHeader(CLASSIFIER_AGENT)}
A chat application sent a request to a research assistant. Decide what its last message asks for.
- Housekeeping: the application's own background task about the conversation — a title (title), tags or categories (tags), a summary of the chat (summary), suggested follow-up questions (follow_ups), an emoji (emoji), search or retrieval queries or a standalone rewrite of the question (query_generation), the completion of text being typed (autocomplete), a prompt for an image generator (image_prompt), or another such task (other). It usually quotes the conversation and tells how to format the result.
- question: a person asking something or asking for something to be done, to be researched and answered. A question with context, documents or search results attached is a question. Text a person pasted into their message (a prompt template, a chat log) is part of their question when they ask about it.
Judge by the instructions, in any language, not by the topic.`;

export function classifierPrompt(outline: RequestOutline): string {
  return [
    outline.system ? tag("system_prompt", excerpt(outline.system, SYSTEM_CHARS)) : "",
    tag("last_message", excerpt(outline.last, HEAD_CHARS, TAIL_CHARS)),
    tag("request_shape", outline.shape),
    "What does the last message ask for?",
  ]
    .filter(Boolean)
    .join("\n");
}

/** The classifier's reply costs at most this many tokens (a reasoning model's thinking included). */
const MAX_REPLY_TOKENS = 200;

export async function classifyRequest({ outline, onUsage, signal }: { outline: RequestOutline; onUsage?: UsageSink; signal?: AbortSignal }): Promise<ChatKind> {
  const r = await generateStructured({ agent: CLASSIFIER_AGENT, system: CLASSIFIER_SYSTEM, prompt: classifierPrompt(outline), schema, onUsage, signal, budget: () => MAX_REPLY_TOKENS });
  return r.kind;
}
