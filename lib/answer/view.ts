// A stored answer run as the API shows it (GET /api/v1/answers/:requestId, the list, and the
// engine-neutral run stream's snapshot).
import { parseJson } from "../db/json";
import type * as store from "../db/answers";
import { pausedOf } from "../db/runs";
import type { Run } from "../db/types";
import type { FinalAnswer } from "./events";
import { PURPOSES, totalOf, zeroUsage, type Reference, type UsageByPurpose } from "./types";

export function usageSummary(usage: UsageByPurpose, budget: number): FinalAnswer["usage"] {
  const promptTokens = PURPOSES.reduce((s, p) => s + usage[p].promptTokens, 0);
  const completionTokens = PURPOSES.reduce((s, p) => s + usage[p].completionTokens, 0);
  return { promptTokens, completionTokens, totalTokens: totalOf(usage), budget, byPurpose: usage };
}


export type RunRow = NonNullable<Awaited<ReturnType<typeof store.getAnswerRun>>>;

/**
 * A stored answer run as the API shows it. With its `run` row (one run's view, not the list), it
 * says whether the run is paused, waiting for its LLM provider.
 */
export function toAnswerView(row: Omit<RunRow, "state" | "context"> & { state?: string; context?: string }, steps?: Awaited<ReturnType<typeof store.answerSteps>>, run?: Run | null) {
  const state = parseJson<{ visited?: string[]; read?: string[]; step?: number; badAttempts?: number }>(row.state ?? "{}", {});
  return {
    requestId: row.requestId,
    question: row.question,
    // The chat before the question (a /v1 follow-up): the question is read in it.
    ...(row.context ? { conversation: row.context } : {}),
    status: row.status,
    budget: row.budget,
    maxBadAttempt: row.maxBadAttempt,
    answer: row.answer,
    references: parseJson<Reference[]>(row.references, []),
    visitedURLs: state.visited ?? [],
    readURLs: state.read ?? [],
    usage: usageSummary({ ...zeroUsage(), ...parseJson<Partial<UsageByPurpose>>(row.usage, {}) }, row.budget),
    // LLM calls begun and never recorded: in flight when a process running the run died
    llmCallsUnsettled: row.llmCallsUnsettled,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    ...(run !== undefined ? { paused: row.status === "running" ? pausedOf(run) : null } : {}),
    ...(steps
      ? {
          steps: steps.map((s) => ({ step: s.step, action: s.action, gap: s.gap, think: s.think, payload: parseJson(s.payload, {}), usage: parseJson(s.usage, {}) })),
        }
      : {}),
  };
}

