// The answer operations route handlers, the OpenAI-compatible endpoint and the CLI call.
import { assertSourcesReadable, WEB_ONLY, type Sources } from "../knowledge/sources";
import { createHash, randomUUID } from "node:crypto";
import * as store from "../db/answers";
import { getRun, openRun } from "../db/runs";
import { startWithinLimits } from "../runs/limits";
import { assertResearchConfigured, getEnv } from "../env";
import { AppError } from "../errors";
import { runRegistry } from "../runs/engines";
import type { FinalAnswer } from "./events";
import { isAbandoned } from "./followers";
import { initialState, zeroUsage, type AnswerOptions, type UsageByPurpose } from "./types";
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
  /** What the client asked of the research and its answer (OpenAI-compatible endpoint). */
  options?: AnswerOptions;
  /**
   * A client's retry joins the run it repeats instead of starting another: the run of the same
   * Idempotency-Key, or (`joinIdentical`) the user's running run of the same question, conversation
   * and budget started in the last IDENTICAL_WINDOW_MS.
   */
  idempotencyKey?: string;
  joinIdentical?: boolean;
  /**
   * The client says this is a retry of the same request (the openai clients' x-stainless-retry-count
   * above 0): the user's run of the same question, conversation, budget and options joins, running or
   * ended within the grace period (ANSWER_DISCONNECT_GRACE_MS), however long ago it started.
   */
  retry?: boolean;
  /** Usage spent for the request before its run (the classification of a chat request). */
  initialUsage?: Partial<UsageByPurpose>;
}

/** How long an identical request counts as a retry of a running one (any time while its clients are gone, see followers.ts). */
export const IDENTICAL_WINDOW_MS = 10_000;

/** The request id of an Idempotency-Key: the key itself is never stored (a client may put anything in it). */
export const idempotentRequestId = (key: string) => `idem-${createHash("sha256").update(key).digest("hex").slice(0, 40)}`;

type Started = { requestId: string; runId: string; streamUrl: string; joined?: boolean };

/**
 * Stores the question and starts its run, or joins the run it repeats (`joined`); 400 naming
 * requestId when the caller used that id before.
 */
export async function startAnswer(input: StartAnswer): Promise<Started> {
  const sources = input.sources ?? WEB_ONLY;
  // Collections only: no web search, so no SearXNG needed.
  assertResearchConfigured({ llm: true, search: sources.web });
  await assertSourcesReadable(input.userId, sources);
  // Checked and recorded under the user's start lock, so that simultaneous requests cannot both take the last slot.
  const userId = input.userId;
  const request = { ...input };
  const existing = () => repeatedRun(request);
  const started = userId ? await startWithinLimits({ userId, pool: "answer", existing, start: () => createAndOpen(request) }) : ((await existing()) ?? (await createAndOpen(request)));
  if (!started.joined) void runRegistry.start("answer", started.runId).catch((error: unknown) => console.error(`[quarry] answer run ${started.runId} could not start:`, error));
  return started;
}

/** A key's runs that failed or were cancelled, after which a retry starts afresh under the key's next id. */
const MAX_KEY_ATTEMPTS = 10;

/**
 * The run this request repeats, if any (see StartAnswer); 409 for an Idempotency-Key reused with
 * another question. A key's run that failed or was cancelled is not joined: the retry is a new
 * attempt (a passing failure, such as a provider outage, may not happen again), under the key's
 * next request id, which this sets on `request` for its start.
 */
async function repeatedRun(request: StartAnswer): Promise<Started | null> {
  let row = null;
  if (request.idempotencyKey !== undefined) {
    const base = idempotentRequestId(request.idempotencyKey);
    for (let attempt = 0; attempt < MAX_KEY_ATTEMPTS; attempt++) {
      const requestId = attempt === 0 ? base : `${base}-${attempt}`;
      row = await store.getAnswerRun({ requestId, userId: request.userId });
      request.requestId = requestId;
      if (!row) return null;
      if (row.question !== request.q || row.context !== (request.context ?? ""))
        throw new AppError("conflict:idempotency_key", "This Idempotency-Key was used for another request; use a new key for a new question", { field: "Idempotency-Key" });
      if (row.status !== "failed" && row.status !== "cancelled") break;
    }
    if (row && (row.status === "failed" || row.status === "cancelled"))
      throw new AppError("conflict:idempotency_key", `This Idempotency-Key was tried ${MAX_KEY_ATTEMPTS} times; use a new key`, { field: "Idempotency-Key" });
  } else if (request.joinIdentical || request.retry) {
    row = await identicalRun(request);
  }
  return row ? { requestId: row.requestId, runId: row.id, streamUrl: `/api/v1/stream/${encodeURIComponent(row.requestId)}`, joined: true } : null;
}

/**
 * The user's run this identical request repeats: the same question, conversation, budget and
 * options, running and started within IDENTICAL_WINDOW_MS or left by its clients (in its grace
 * period); for a declared retry, any such run running, or completed within the grace period.
 */
async function identicalRun(request: StartAnswer) {
  const grace = getEnv().ANSWER_DISCONNECT_GRACE_MS;
  const now = Date.now();
  const rows = await store.findAnswerRunsLike({
    userId: request.userId,
    question: request.q,
    context: request.context ?? "",
    budget: request.budget ?? getEnv().ANSWER_DEFAULT_BUDGET,
    statuses: request.retry ? ["queued", "running", "completed"] : ["queued", "running"],
  });
  const options = JSON.stringify(request.options ?? {});
  return (
    rows.find((row) => {
      if (JSON.stringify(JSON.parse(row.state || "{}").options ?? {}) !== options) return false;
      if (row.status === "completed") return row.completedAt !== null && now - row.completedAt.getTime() <= grace;
      return request.retry || now - row.createdAt.getTime() <= IDENTICAL_WINDOW_MS || isAbandoned(row.id);
    }) ?? null
  );
}

/** The run this request would join (a retry's), without starting anything: a retry need not be classified again. */
export async function findRepeatedRun(input: StartAnswer): Promise<Started | null> {
  return repeatedRun({ ...input });
}

async function createAndOpen(input: StartAnswer): Promise<Started> {
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
    state: initialState(input.q, input.options),
    usage: { ...zeroUsage(), ...input.initialUsage },
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
