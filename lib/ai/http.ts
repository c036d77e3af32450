// The fetch used for every LLM request: retries 429 and 5xx with exponential backoff and jitter,
// honouring Retry-After, and network errors. The AI SDK's own retries are turned off (maxRetries: 0)
// so that this is the one retry policy.
import { backoffDelay, parseRetryAfter, sleep } from "../concurrency";
import { plainFetch } from "../plain-fetch";

export interface RetryingFetchOptions {
  maxRetries: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
  onRetry?: (info: { attempt: number; status?: number; delayMs: number }) => void;
}

const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

export function createRetryingFetch(options: RetryingFetchOptions): typeof fetch {
  const { maxRetries, baseDelayMs = 500, maxDelayMs = 20_000, timeoutMs, fetchImpl = plainFetch() } = options;
  return async (input, init) => {
    const callerSignal = init?.signal ?? undefined;
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
      let response: Response | undefined;
      try {
        response = await fetchImpl(input, { ...init, signal });
      } catch (error) {
        if (callerSignal?.aborted || attempt >= maxRetries) throw error;
        const delayMs = backoffDelay(attempt, baseDelayMs, maxDelayMs);
        options.onRetry?.({ attempt, delayMs });
        await sleep(delayMs, callerSignal);
        continue;
      }
      if (!RETRYABLE.has(response.status) || attempt >= maxRetries) return response;
      const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
      const delayMs = Math.min(maxDelayMs * 3, retryAfter ?? backoffDelay(attempt, baseDelayMs, maxDelayMs));
      await response.body?.cancel().catch(() => undefined);
      options.onRetry?.({ attempt, status: response.status, delayMs });
      await sleep(delayMs, callerSignal);
    }
  };
}
