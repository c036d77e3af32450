// Runs of any engine at the HTTP edge: the public shape of a run row, and its engine-neutral stream
// (the engine's snapshot, then every event in its envelope).
import type { Run } from "../db/types";
import { getOwnRun, pausedOf, type RunKind } from "../db/runs";
import { AppError } from "../errors";
import type { RunEvent } from "../events/bus";
import type { RunUIMessage, RunView } from "../types";
import { runStream } from "./run-stream";

export function toRunView(run: Run): RunView {
  const self = `/api/runs/${run.id}`;
  return {
    id: run.id,
    kind: run.kind,
    subject_id: run.subjectId,
    parent_run_id: run.parentRunId,
    status: run.status as RunView["status"],
    attempt: run.attempt,
    error: run.error,
    paused: pausedOf(run),
    created_at: run.createdAt.toISOString(),
    started_at: run.startedAt?.toISOString() ?? null,
    completed_at: run.completedAt?.toISOString() ?? null,
    links: { self, stream: `${self}/stream` },
  };
}

const notFound = { code: "not_found:run", message: "Run not found" } as const;

export async function ownRun({ id, userId }: { id: string; userId: string }): Promise<Run> {
  const run = await getOwnRun({ id, userId });
  if (!run) throw new AppError(notFound.code, notFound.message);
  return run;
}

export async function runEventStream({ id, userId, signal }: { id: string; userId: string; signal: AbortSignal }) {
  const run = await ownRun({ id, userId });
  return runStream<RunUIMessage, unknown, RunEvent>({
    kind: run.kind as RunKind,
    subjectId: run.subjectId,
    userId,
    signal,
    notFound,
    writeSnapshot: (writer, data, seq) => writer.write({ type: "data-snapshot", id: "snapshot", data: { seq, run: toRunView(run), data } }),
    writeEvent: (writer, event) => writer.write({ type: "data-event", data: event }),
    failureMessage: "The run stream failed",
  });
}
