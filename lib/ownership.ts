// Whether the process running a piece of work still owns it, asked with a fresh clock right before each
// LLM call is sent. A queue job's lock (lib/queue/job-lock.ts) aborts its work's signal from a timer at
// its deadline; but a worker stopped mid-callback or in its poll (SIGSTOP, a long pause) resumes by
// running the I/O that completed meanwhile — the usage `begin` round trip that precedes every call — before
// any timer, and the call would go out past the lock. The work runs inside `withOwnership`, and the call
// path asks `assertOwned` after its begin (lib/ai/call.ts).
import { AsyncLocalStorage } from "node:async_hooks";

const owner = new AsyncLocalStorage<() => void>();

/** Runs `work` with `assertHeld` (throws once the work is no longer this process's) asked before each of its LLM calls. */
export function withOwnership<T>(assertHeld: () => void, work: () => Promise<T>): Promise<T> {
  return owner.run(assertHeld, work);
}

/** The ownership check of the work running now (none outside withOwnership): asked later for work another call serves. */
export function currentOwnership(): (() => void) | undefined {
  return owner.getStore();
}

/** Right before an LLM call is sent: throws when the work's process no longer owns it, or when its signal aborted. */
export function assertOwned(signal?: AbortSignal): void {
  owner.getStore()?.();
  signal?.throwIfAborted();
}
