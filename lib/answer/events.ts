// The answer agent's events, in the run envelope (lib/events/bus.ts): a progress event per step,
// a paused event when the run starts or stops waiting for its LLM provider (an outage), then one
// answer or one error. Their data is what the stream (GET /api/v1/stream/:requestId) sends.
import type { EngineEvent, RunEvent, RunTopic } from "../events/bus";
import type { PausedState } from "../types";
import type { ActionName, Purpose, Reference } from "./types";

export interface ActionState {
  action: ActionName;
  think: string;
  searchQuery?: string[];
  URLTargets?: string[];
  questionsToAnswer?: string[];
  answer?: string;
}

export interface Trackers {
  tokenUsage: number;
  tokenBreakdown: Record<Purpose, number>;
  actionState: ActionState;
  step: number;
  badAttempts: number;
  gaps: string[];
}

export interface AnswerUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  budget: number;
  byPurpose: Record<Purpose, { promptTokens: number; completionTokens: number; calls: number }>;
}

export interface FinalAnswer {
  requestId: string;
  answer: string;
  references: Reference[];
  visitedURLs: string[];
  readURLs: string[];
  usage: AnswerUsage;
  steps: number;
  badAttempts: number;
  /** Why beast mode answered, when it did. */
  beastMode: string | null;
  /** "length" when the answer stopped at the client's max_tokens. */
  finishReason?: "stop" | "length";
  /** A beast-mode answer with no verified reference (its text says so too). */
  noSources: boolean;
}

export type AnswerEvent =
  | EngineEvent<"progress", { trackers: Trackers }>
  // null: going again
  | EngineEvent<"paused", { paused: PausedState | null }>
  | EngineEvent<"answer", FinalAnswer>
  // code: why it failed, when the reason is the request's (the same request fails again: not retryable)
  | EngineEvent<"error", { message: string; code?: AnswerFailure }>;

/** Failures that the same request meets again: a client must change it, not retry it. */
export type AnswerFailure = "budget_too_small";
export type AnswerRunEvent = RunEvent<AnswerEvent>;

export const answerTopic = (answerRunId: string): RunTopic => ({ kind: "answer", subjectId: answerRunId });
