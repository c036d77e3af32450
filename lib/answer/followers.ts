// Who follows an answer run over /v1 (chat completions, responses), in this process: a disconnect is
// not a cancel. A client that goes away (a timeout, a dropped connection, a retrying client) leaves
// the run going; only when every client of a run has left and none came back within the grace period
// (ANSWER_DISCONNECT_GRACE_MS) is the run cancelled. A retry in that time joins the run (service.ts),
// and one joined client leaving never cancels it for the others.
// Per process: a retry that reaches another process joins through the database as well (service.ts
// finds the run), but this process's timer does not see it; with several web processes behind a
// load balancer, keep a client's retries on one (sticky sessions) or raise the grace period.
import * as store from "../db/answers";
import { getEnv } from "../env";
import { runRegistry } from "../runs/engines";

interface Followed {
  clients: number;
  /** When the last client left (the grace period runs from here). */
  leftAt?: number;
  timer?: ReturnType<typeof setTimeout>;
}

const globalForFollowers = globalThis as unknown as { quarryAnswerFollowers?: Map<string, Followed> };
const runs = (globalForFollowers.quarryAnswerFollowers ??= new Map());

/**
 * A client follows the run: returns its leave function (idempotent). `done` when the client received
 * the run's end: its leaving then starts no grace period.
 */
export function follow(runId: string): (how?: { done?: boolean }) => void {
  const f = runs.get(runId) ?? { clients: 0 };
  runs.set(runId, f);
  f.clients++;
  clearTimeout(f.timer);
  f.timer = undefined;
  f.leftAt = undefined;
  let left = false;
  return ({ done = false } = {}) => {
    if (left) return;
    left = true;
    f.clients--;
    if (f.clients > 0) return;
    if (done) return void runs.delete(runId);
    f.leftAt = Date.now();
    f.timer = setTimeout(() => void cancelIfAbandoned(runId, f), getEnv().ANSWER_DISCONNECT_GRACE_MS);
    f.timer.unref?.();
  };
}

/** Whether every client of the run left and the grace period is running: a repeat of its request joins it. */
export function isAbandoned(runId: string): boolean {
  const f = runs.get(runId);
  return f !== undefined && f.clients === 0 && f.leftAt !== undefined;
}

async function cancelIfAbandoned(runId: string, f: Followed): Promise<void> {
  if (runs.get(runId) !== f || f.clients > 0) return;
  runs.delete(runId);
  const row = await store.loadAnswerRun(runId).catch(() => null);
  if (row?.status !== "running" && row?.status !== "queued") return;
  await runRegistry.cancel("answer", runId).catch((error: unknown) => console.error(`[quarry] abandoned answer run ${runId} could not be cancelled:`, error));
}
