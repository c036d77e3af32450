// Following a run to its end for a tool call: the engine's own snapshot and live events (lib/runs/live.ts,
// the same follower the HTTP streams use, so a run executing in another process or a queue worker is
// followed too), each event handed to `onEvent`, until the engine's final event or `signal` aborts.
// Following owns nothing: the run belongs to the run registry, which goes on with it whatever the
// follower does.
import type { RunKind } from "../db/runs";
import { AppError } from "../errors";
import type { RunEvent } from "../events/bus";
import { runRegistry } from "../runs/engines";
import { followRun } from "../runs/live";

export type FollowEnd = "ended" | "aborted";

/** 404 (`notFound`) when the subject is not the caller's. */
export async function followToEnd<E extends RunEvent>({
  kind,
  subjectId,
  userId,
  signal,
  onEvent,
  notFound,
}: {
  kind: RunKind;
  subjectId: string;
  userId: string;
  signal: AbortSignal;
  onEvent?: (event: E) => void | Promise<void>;
  notFound: AppError;
}): Promise<FollowEnd> {
  const engine = runRegistry.engine(kind);
  const followed = await followRun<{ final: boolean }, E>({ kind, subjectId }, () => engine.snapshot(subjectId, userId));
  if (!followed) throw notFound;
  if (followed.snapshot.final) {
    followed.stop();
    return "ended";
  }
  try {
    for await (const event of followed.events(signal)) {
      await onEvent?.(event);
      if (engine.isFinal(event)) return "ended";
    }
  } finally {
    followed.stop();
  }
  return signal.aborted ? "aborted" : "ended";
}
