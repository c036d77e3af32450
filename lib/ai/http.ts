// The fetch used for every LLM request: the global LLM concurrency limit, and retries of 429, 5xx and
// network errors with exponential backoff and jitter, honouring Retry-After. The AI SDK's own
// retries are turned off (maxRetries: 0) so that this is the one retry policy.
//
// A slot of the limit covers exactly one HTTP exchange, from sending the request until its body has
// been read: building the request and parsing the reply happen outside it, and so do back-off waits.
// Which run's lane the request waits in, and at what priority, comes from `llmSchedule`.
import { AsyncLocalStorage } from "node:async_hooks";
import { backoffDelay, parseRetryAfter, sleep, type Semaphore, type WaitOptions } from "../concurrency";
import { plainFetch } from "../plain-fetch";

export interface RetryingFetchOptions {
  maxRetries: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
  onRetry?: (info: { attempt: number; status?: number; delayMs: number }) => void;
  /** Bounds the requests in flight; each waits in the lane and at the priority of `llmSchedule`. */
  limiter?: Semaphore;
}

/** The scheduling of the LLM calls made inside `llmSchedule.run(schedule, …)`. */
export const llmSchedule = new AsyncLocalStorage<WaitOptions>();

/** The response, with `release` called once its body has been read to the end, failed or was cancelled. */
function releaseAfterBody(response: Response, release: () => void): Response {
  if (!response.body) {
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
  const { maxRetries, baseDelayMs = 500, maxDelayMs = 20_000, timeoutMs, fetchImpl = plainFetch() } = options;
  return async (input, init) => {
    const callerSignal = init?.signal ?? undefined;
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
      const release = options.limiter ? await options.limiter.acquire(callerSignal, llmSchedule.getStore()) : () => {};
      let response: Response | undefined;
      try {
        response = await fetchImpl(input, { ...init, signal });
      } catch (error) {
        release();
        if (callerSignal?.aborted || attempt >= maxRetries) throw error;
        const delayMs = backoffDelay(attempt, baseDelayMs, maxDelayMs);
        options.onRetry?.({ attempt, delayMs });
        await sleep(delayMs, callerSignal);
        continue;
      }
      if (!RETRYABLE.has(response.status) || attempt >= maxRetries) return releaseAfterBody(response, release);
      const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
      const delayMs = Math.min(maxDelayMs * 3, retryAfter ?? backoffDelay(attempt, baseDelayMs, maxDelayMs));
      await response.body?.cancel().catch(() => undefined);
      release();
      options.onRetry?.({ attempt, status: response.status, delayMs });
      await sleep(delayMs, callerSignal);
    }
  };
}
