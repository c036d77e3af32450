// The answer agent's data: its loop state (stored after every step, so a run resumes from it), its
// references, and its token usage by purpose.
import type { ReplyFormat } from "../ai/call";
import type { TokenCount } from "../ai/usage";

export const ACTIONS = ["search", "visit", "reflect", "answer"] as const;
export type ActionName = (typeof ACTIONS)[number];

// classify: the small call that told a chat client's question from its housekeeping (lib/answer/task.ts).
export const PURPOSES = ["agent", "read", "evaluate", "dedup", "beast", "final", "classify"] as const;
export type Purpose = (typeof PURPOSES)[number];
export type UsageByPurpose = Record<Purpose, TokenCount>;

export interface Reference {
  url: string;
  title: string;
  exactQuote: string;
}

export interface Knowledge {
  question: string;
  answer: string;
  /** answer: a sub-question answered; page: text read; lesson: a rejected answer's review; search: result snippets. */
  kind: "answer" | "page" | "lesson" | "search";
  url?: string;
  title?: string;
}

export interface FoundUrl {
  url: string;
  title: string;
  snippet: string;
  /** How many searches returned it: a URL found by several queries ranks first. */
  hits: number;
}

export interface AnswerState {
  /** Steps done. */
  step: number;
  /** Open questions, the original first; steps rotate over them. */
  gaps: string[];
  gapCursor: number;
  /** Every question so far (original and sub-questions): reflect drops repeats of any of them. */
  questions: string[];
  queries: string[];
  knowledge: Knowledge[];
  urls: FoundUrl[];
  /** URLs a visit was tried on, and those whose text was read and stored. */
  visited: string[];
  read: string[];
  badAttempts: number;
  /** Actions disabled for the next step only. */
  disabled: ActionName[];
  /** The working context: what the steps since the last rejected answer did. */
  diary: string[];
  /** Consecutive steps without a new URL, knowledge item or gap. */
  stale: number;
  /** What the client asked of the research and its answer (OpenAI-compatible endpoint). */
  options?: AnswerOptions;
}

/** What the client asked of the answer: kept in the run's state, so a run taken over honours it too. */
export interface AnswerOptions {
  /** The answer's length limit in tokens (max_tokens / max_completion_tokens). */
  maxAnswerTokens?: number;
  format?: ReplyFormat;
  temperature?: number;
  topP?: number;
  /** The answer ends before the first of these (OpenAI's stop); the call writing it is given them too. */
  stop?: string[];
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  noDirectAnswer?: boolean;
  onlyHostnames?: string[];
  boostHostnames?: string[];
  badHostnames?: string[];
}


export function initialState(question: string, options?: AnswerOptions): AnswerState {
  return { step: 0, gaps: [question], gapCursor: 0, questions: [question], queries: [], knowledge: [], urls: [], visited: [], read: [], badAttempts: 0, disabled: [], diary: [], stale: 0, ...(options && Object.keys(options).length ? { options } : {}) };
}

export function zeroUsage(): UsageByPurpose {
  return Object.fromEntries(PURPOSES.map((p) => [p, { promptTokens: 0, completionTokens: 0, calls: 0 }])) as UsageByPurpose;
}

export const totalOf = (usage: UsageByPurpose): number => PURPOSES.reduce((sum, p) => sum + usage[p].promptTokens + usage[p].completionTokens, 0);
