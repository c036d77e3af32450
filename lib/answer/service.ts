// The answer operations route handlers, the OpenAI-compatible endpoint and the CLI call.
import { assertSourcesReadable, WEB_ONLY, type Sources } from "../knowledge/sources";
import { randomUUID } from "node:crypto";
import * as store from "../db/answers";
import { getRun, openRun } from "../db/runs";
import { startWithinLimits } from "../runs/limits";
import { assertResearchConfigured, getEnv } from "../env";
import { AppError } from "../errors";
import { runRegistry } from "../runs/engines";
import type { FinalAnswer } from "./events";
import { initialState, zeroUsage } from "./types";
import { toAnswerView } from "./view";

export const DEFAULT_MAX_BAD_ATTEMPT = 3;

export interface StartAnswer {
  userId: string | null;
  q: string;
  context?: string;
  budget?: number;
  maxBadAttempt?: number;
  requestId?: string;
  sources?: Sources;
}

/** Stores the question and starts its run; 400 naming requestId when the caller used that id before. */
export async function startAnswer(input: StartAnswer) {
  const sources = input.sources ?? WEB_ONLY;
  // Collections only: no web search, so no SearXNG needed.
  assertResearchConfigured({ llm: true, search: sources.web });
  await assertSourcesReadable(input.userId, sources);
  // Checked and recorded under the user's start lock, so that simultaneous requests cannot both take the last slot.
  const userId = input.userId;
  const started = userId ? await startWithinLimits({ userId, pool: "answer", start: () => createAndOpen(input) }) : await createAndOpen(input);
  void runRegistry.start("answer", started.runId).catch((error: unknown) => console.error(`[quarry] answer run ${started.runId} could not start:`, error));
  return started;
}

async function createAndOpen(input: StartAnswer) {
  const env = getEnv();
  const requestId = input.requestId ?? randomUUID();
  const row = await store.createAnswerRun({
    userId: input.userId,
    requestId,
    question: input.q,
    context: input.context ?? "",
    sources: JSON.stringify(input.sources ?? WEB_ONLY),
    budget: input.budget ?? env.ANSWER_DEFAULT_BUDGET,
    maxBadAttempt: input.maxBadAttempt ?? DEFAULT_MAX_BAD_ATTEMPT,
    state: initialState(input.q),
    usage: zeroUsage(),
  });
  if (!row) throw new AppError("bad_request:query", `You used the requestId ${requestId} already`, { field: "requestId" });
  await openRun({ kind: "answer", subjectId: row.id, userId: input.userId, mode: "answer" });
  return { requestId, runId: row.id, streamUrl: `/api/v1/stream/${encodeURIComponent(requestId)}` };
}

export async function getAnswer({ requestId, userId }: { requestId: string; userId: string | null }) {
  const row = await store.getAnswerRun({ requestId, userId });
  if (!row) throw new AppError("not_found:answer", "Answer not found");
  return toAnswerView(row, await store.answerSteps(row.id), await getRun({ kind: "answer", subjectId: row.id }));
}

export async function listAnswers({ userId, limit, before, status, q }: { userId: string | null; limit: number; before?: string; status?: string; q?: string }) {
  const rows = await store.listAnswerRuns({ userId, limit, before: before ? new Date(before) : undefined, status, search: q || undefined });
  return { answers: rows.map((r) => toAnswerView(r)), next: rows.length === limit ? rows[rows.length - 1].createdAt.toISOString() : null };
}

export async function cancelAnswer({ requestId, userId }: { requestId: string; userId: string | null }) {
  const row = await store.getAnswerRun({ requestId, userId });
  if (!row) throw new AppError("not_found:answer", "Answer not found");
  if (row.status !== "running" && row.status !== "queued") throw new AppError("conflict:answer", `Only a running answer can be cancelled (status: ${row.status})`);
  await runRegistry.cancel("answer", row.id);
  return { requestId, status: "cancelled" as const };
}

export type { FinalAnswer };
export { toAnswerView };
