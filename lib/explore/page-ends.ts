// Queue mode: a page fetched in one worker's node job wakes the node jobs, in every worker, that wait
// for it (they found its fetch claimed elsewhere: lib/explore/query-step.ts), instead of their next
// look at the database. Redis pub/sub, one message per page fetched; without Redis (the split tested
// in one process) this process's own wake-ups. A lost message costs the waiter its poll interval.
import { onRedisMessages, redis, redisEnabled, redisKey } from "../redis";
import { Wakeups, type ArmedWakeup } from "../wakeups";

const channel = () => redisKey("pages-ended");

const pageEnds = new Wakeups((notify) => {
  if (redisEnabled()) onRedisMessages([channel()], "fetched pages", (_, pageId) => notify(pageId));
});

/** Listens for the end of a page's fetch from now on (see Wakeups.arm). */
export const armPageEnd = (pageId: string): ArmedWakeup => pageEnds.arm(pageId);

/** A page's fetch has ended and its state is written: its waiters here and in every worker look again. */
export function announcePageEnd(pageId: string): void {
  pageEnds.notify(pageId);
  if (redisEnabled()) void redis().publish(channel(), pageId).catch((error: unknown) => console.error("[quarry] could not announce a fetched page:", error));
}
