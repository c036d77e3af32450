// A stream outlives the request that checked its credentials: a run's stream or an answer's events
// can stay open for an hour. So a stream opened with an API token ends when that token is revoked or
// expires, and one opened with a browser session when that session ends (signed out, password
// changed, account deleted). Each process checks the credentials of its open streams every
// CHECK_MS, in one query per kind for all of them (none while no stream is open); a revocation made in
// this process ends its streams at once. The stream's signal aborts with a CredentialEnded, whose
// message the stream sends as its last event.
import { usableApiTokenIds } from "../db/api-tokens";
import { sessionVersionsOf } from "../db/users";
import type { Caller } from "./caller";

/** How often the open streams' credentials are checked: a revoked token's streams end within this. */
const CHECK_MS = 2_000;

/** Why a stream ended before its run did: its credential is no longer valid. */
export class CredentialEnded extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CredentialEnded";
  }
}

interface Watched {
  caller: Caller;
  controller: AbortController;
}

const globalForWatch = globalThis as unknown as {
  quarryCredentialWatch?: { watched: Set<Watched>; bySignal: WeakMap<AbortSignal, Watched>; timer?: ReturnType<typeof setInterval>; checking: boolean };
};
const state = (globalForWatch.quarryCredentialWatch ??= { watched: new Set(), bySignal: new WeakMap(), checking: false });

const tokenEnded = () => new CredentialEnded("The API token this stream was opened with was revoked or has expired: the stream ends here. Open it again with a valid token.");
const sessionEnded = () => new CredentialEnded("You were signed out: the stream ends here. Sign in again to follow the run.");

function end(entry: Watched, reason: CredentialEnded): void {
  state.watched.delete(entry);
  entry.controller.abort(reason);
}

/** One look at every watched credential. */
async function check(now = new Date()): Promise<void> {
  const entries = [...state.watched];
  const tokenIds = [...new Set(entries.flatMap((e) => (e.caller.tokenId ? [e.caller.tokenId] : [])))];
  const userIds = [...new Set(entries.flatMap((e) => (e.caller.via === "session" && e.caller.sessionVersion !== undefined ? [e.caller.userId] : [])))];
  const [usable, versions] = await Promise.all([usableApiTokenIds({ ids: tokenIds, now }), sessionVersionsOf({ ids: userIds })]);
  for (const entry of entries) {
    const { tokenId, via, userId, sessionVersion } = entry.caller;
    if (tokenId && !usable.has(tokenId)) end(entry, tokenEnded());
    else if (via === "session" && sessionVersion !== undefined && versions.get(userId) !== sessionVersion) end(entry, sessionEnded());
  }
}

function startChecking(): void {
  if (state.timer) return;
  state.timer = setInterval(() => {
    if (state.watched.size === 0) {
      clearInterval(state.timer);
      state.timer = undefined;
      return;
    }
    // A slow database must not stack up checks.
    if (state.checking) return;
    state.checking = true;
    check()
      .catch((error: unknown) => console.error("[quarry] could not check the open streams' credentials:", error))
      .finally(() => (state.checking = false));
  }, CHECK_MS);
  state.timer.unref();
}

/**
 * A signal for a stream opened by `caller`: aborts with `signal` (the client went away) and with a
 * CredentialEnded once the caller's token is revoked or expires, or its session ends.
 */
export function credentialSignal(caller: Caller, signal: AbortSignal): AbortSignal {
  if (!caller.tokenId && caller.via !== "session") return signal;
  const entry: Watched = { caller, controller: new AbortController() };
  state.watched.add(entry);
  signal.addEventListener("abort", () => state.watched.delete(entry), { once: true });
  startChecking();
  const combined = AbortSignal.any([signal, entry.controller.signal]);
  state.bySignal.set(combined, entry);
  return combined;
}

/** The stream of `signal` (a credentialSignal) has ended: its credential is no longer watched. */
export function releaseCredentialSignal(signal: AbortSignal): void {
  const entry = state.bySignal.get(signal);
  if (entry) state.watched.delete(entry);
}

/** Ends this process's streams opened with the token at once (its revocation was made here; other processes' streams end at their next check). */
export function endStreamsOfToken(tokenId: string): void {
  for (const entry of [...state.watched]) if (entry.caller.tokenId === tokenId) end(entry, tokenEnded());
}

/** The message a stream ends with when its signal aborted for its credential; undefined otherwise. */
export function credentialEndedMessage(signal: AbortSignal): string | undefined {
  // By its name: the route's bundle and the one whose check ended the stream each have their own class.
  return signal.aborted && signal.reason instanceof Error && signal.reason.name === "CredentialEnded" ? signal.reason.message : undefined;
}
