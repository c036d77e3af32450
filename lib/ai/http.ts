// The fetch used for every LLM request: the global LLM concurrency limit, and retries of 429, 5xx,
// timeouts and network errors within a time budget, with exponential backoff and jitter, honouring
// Retry-After; the provider's health (./provider-health.ts) adapts the limit to rate limiting and
// holds every call while the provider is down. The AI SDK's own retries are turned off
// (maxRetries: 0) so that this is the one retry policy.
//
// A slot of the limit covers exactly one HTTP exchange, from sending the request until its body has
// been read: building the request and parsing the reply happen outside it, and so do back-off waits.
// Which run's lane the request waits in, and at what priority, is the fetch's own `schedule`: the
// provider hands each model its fetch (lib/ai/providers.ts), so a call's model carries its schedule.
// (Not an AsyncLocalStorage: one in a process turns on promise hooks for every promise it makes.)
import { assertOwned } from "../ownership";
import { backoffDelay, parseRetryAfter, sleep, type Semaphore, type WaitOptions } from "../concurrency";
import { isReadWhole, leanFetch } from "../lean-fetch";
import { describeLlmError } from "./errors";
import type { ProviderHealth } from "./provider-health";

export interface RetryingFetchOptions {
  /**
   * How long one call may keep retrying 429s, 5xx, timeouts and network errors. Time spent waiting
   * while the provider is down (see ProviderHealth) does not count: the run is paused then.
   */
  retryBudgetMs: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
  onRetry?: (info: { attempt: number; status?: number; delayMs: number }) => void;
  /** Bounds the requests in flight; each waits in the lane and at the priority of `schedule`. */
  limiter?: Semaphore;
  /** Where this fetch's requests wait for a slot of `limiter`: their run's lane and their priority there. */
  schedule?: WaitOptions;
  /** Adaptive concurrency and outage detection, shared by every call. */
  health?: ProviderHealth;
  now?: () => number;
}

/** The response, with `release` called once its body has been read to the end, failed or was cancelled. */
function releaseAfterBody(response: Response, release: () => void): Response {
  // A body already read whole (lib/lean-fetch.ts: every reply but an event stream) holds nothing open.
  if (!response.body || isReadWhole(response)) {
    release();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

export function createRetryingFetch(options: RetryingFetchOptions): typeof fetch {
  const { retryBudgetMs, baseDelayMs = 500, maxDelayMs = 20_000, timeoutMs, fetchImpl = leanFetch, health, now = Date.now } = options;
  return async (input, init) => {
    const callerSignal = init?.signal ?? undefined;
    const started = now();
    // Time that does not count against the budget: waiting for, and probing, a provider that is down.
    let excludedMs = 0;
    for (let attempt = 0; ; attempt++) {
      const admitStart = now();
      const probe = health ? await health.admit(callerSignal) : false;
      excludedMs += now() - admitStart;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
      let release: () => void;
      try {
        release = options.limiter ? await options.limiter.acquire(callerSignal, options.schedule) : () => {};
      } catch (error) {
        if (probe) health?.releaseProbe();
        throw error;
      }
      try {
        // Each attempt goes out only while its work is still this process's: a wait for the limit or a
        // retry's backoff may outlast a queue job's lock (lib/ownership.ts).
        assertOwned(callerSignal);
      } catch (error) {
        release();
        if (probe) health?.releaseProbe();
        throw error;
      }
      let response: Response | undefined;
      let networkError: unknown;
      try {
        response = await fetchImpl(input, { ...init, signal });
      } catch (error) {
        release();
        if (callerSignal?.aborted) {
          if (probe) health?.releaseProbe();
          throw error;
        }
        networkError = error;
      }
      if (response && !RETRYABLE.has(response.status)) {
        health?.succeeded();
        return releaseAfterBody(response, release);
      }
      const status = response?.status;
      const retryAfter = response ? parseRetryAfter(response.headers.get("retry-after")) : undefined;
      health?.failed(response ? `HTTP ${status} from the LLM server` : describeLlmError(networkError), { rateLimited: status === 429 });

      if (!probe && now() - started - excludedMs >= retryBudgetMs) {
        // Out of budget: hand the caller the last answer (the AI SDK turns it into an error with its status).
        if (response) return releaseAfterBody(response, release);
        throw networkError;
      }
      if (response) {
        await response.body?.cancel().catch(() => undefined);
        release();
      }
      if (probe && health!.state.down) {
        // The provider is still down: wait, then probe again. None of this spends the budget.
        // (A 429 brought it back up: this call then retries like any other, paced by the limiter.)
        const waitStart = now();
        await health!.probeFailed(callerSignal, retryAfter);
        excludedMs += now() - waitStart;
        continue;
      }
      const delayMs = Math.min(maxDelayMs * 3, retryAfter ?? backoffDelay(attempt, baseDelayMs, maxDelayMs));
      options.onRetry?.({ attempt, status, delayMs });
      await sleep(delayMs, callerSignal);
    }
  };
}
