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
import { backoffDelay, retryAfterOf, sleep, type Semaphore, type WaitOptions } from "../concurrency";
import { isReadWhole, leanFetch } from "../lean-fetch";
import { describeLlmError } from "./errors";
import { adaptedBody, learnRefusal } from "./refused-parameters";
import { withErrorInBody } from "./error-in-body";
import { withReplyInReasoning } from "./reasoning-field";
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

/**
 * An attempt's timeout: it ends `timeoutMs` after the last sign of life from the server (the request
 * sent, then each piece of a streamed reply), not after a fixed time: a slow local model streams a long
 * report for minutes, and is cut only when it stops sending. (One timer, moved on only when it fires.)
 */
function idleTimeout(timeoutMs: number) {
  const controller = new AbortController();
  let last = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const quiet = performance.now() - last;
    if (quiet >= timeoutMs) controller.abort(new DOMException(`The LLM server sent nothing for ${Math.round(timeoutMs / 1000)} s`, "TimeoutError"));
    else timer = setTimeout(check, timeoutMs - quiet);
  };
  timer = setTimeout(check, timeoutMs);
  return {
    signal: controller.signal,
    alive: () => void (last = performance.now()),
    stop: () => clearTimeout(timer),
  };
}

/**
 * The response, with `release` called once its body has been read to the end, failed or was cancelled;
 * each piece of it keeps the attempt's idle timeout from firing, which stops with it.
 */
function releaseAfterBody(response: Response, release: () => void, idle: ReturnType<typeof idleTimeout>): Response {
  const done = () => {
    idle.stop();
    release();
  };
  // A body already read whole (lib/lean-fetch.ts: every reply but an event stream) holds nothing open.
  if (!response.body || isReadWhole(response)) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          done();
          controller.close();
        } else {
          idle.alive();
          controller.enqueue(value);
        }
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * Statuses that say "later", not "never": timeouts, conflicts, rate limits, a server's or a gateway's
 * failure; Cloudflare's 520–524 in front of a self-hosted server (its origin down, unreachable, or 100 s
 * without an answer), and 529, Anthropic's "overloaded" through its OpenAI-compatible endpoint.
 */
const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524, 529]);

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
      let release: () => void;
      try {
        release = options.limiter ? await options.limiter.acquire(callerSignal, options.schedule) : () => {};
      } catch (error) {
        if (probe) health?.releaseProbe();
        throw error;
      }
      // From when the request goes out (not while it waits for a slot).
      const idle = idleTimeout(timeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, idle.signal]) : idle.signal;
      try {
        // Each attempt goes out only while its work is still this process's: a wait for the limit or a
        // retry's backoff may outlast a queue job's lock (lib/ownership.ts).
        assertOwned(callerSignal);
      } catch (error) {
        idle.stop();
        release();
        if (probe) health?.releaseProbe();
        throw error;
      }
      let response: Response | undefined;
      let networkError: unknown;
      const server = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const body = adaptedBody(server, init?.body);
      try {
        const fetched = await fetchImpl(input, { ...init, body, signal });
        // A 200 that carries an error (OpenRouter's upstream failures) is that error (./error-in-body.ts).
        // And one whose content is empty, its reply in the reasoning field (./reasoning-field.ts), has it as content.
        response = fetched.status === 200 ? await withReplyInReasoning(await withErrorInBody(fetched, idle.alive)) : fetched;
      } catch (error) {
        idle.stop();
        release();
        if (callerSignal?.aborted) {
          if (probe) health?.releaseProbe();
          throw error;
        }
        networkError = error;
      }
      if (response && (await learnRefusal(server, response, body))) {
        // Sent again at once, adapted: a refusal of the request's form, not a failure of the server.
        await response.body?.cancel().catch(() => undefined);
        idle.stop();
        release();
        // The server answered.
        health?.succeeded();
        continue;
      }
      if (response && !RETRYABLE.has(response.status)) {
        health?.succeeded();
        return releaseAfterBody(response, release, idle);
      }
      const status = response?.status;
      const retryAfter = response ? retryAfterOf(response.headers) : undefined;
      // Overloaded: it says so (529), or it let the attempt wait without a byte (a queue longer than it serves
      // in time). Not a 503: a proxy answers so while the server behind it restarts, and a burst of them
      // would leave the limit low long after.
      const overloaded = status === 529 || (!response && (networkError as { name?: unknown })?.name === "TimeoutError");
      health?.failed(response ? `HTTP ${status} from the LLM server` : describeLlmError(networkError), { rateLimited: status === 429, overloaded });

      if (!probe && now() - started - excludedMs >= retryBudgetMs) {
        // Out of budget: hand the caller the last answer (the AI SDK turns it into an error with its status).
        if (response) return releaseAfterBody(response, release, idle);
        throw networkError;
      }
      if (response) {
        await response.body?.cancel().catch(() => undefined);
        idle.stop();
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
