import { test } from "node:test";
import assert from "node:assert/strict";
import { Semaphore } from "../concurrency";
import { createRetryingFetch } from "./http";
import { ProviderHealth, type HealthState } from "./provider-health";

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

test("429s lower the shared limit (at most once a second) and successes raise it back", () => {
  const limiter = new Semaphore(10);
  const c = clock();
  const health = new ProviderHealth(limiter, { maxLimit: 10, outageAfterMs: 60_000, now: c.now });
  health.failed("HTTP 429", { rateLimited: true });
  assert.equal(limiter.limit, 7);
  health.failed("HTTP 429", { rateLimited: true });
  assert.equal(limiter.limit, 7, "a burst of 429s counts once");
  c.advance(1_000);
  health.failed("HTTP 429", { rateLimited: true });
  assert.equal(limiter.limit, 4);
  health.failed("HTTP 500");
  assert.equal(limiter.limit, 4, "a 500 is no rate-limit signal");
  // Additive increase: one more slot after `limit` successes.
  for (let i = 0; i < 3; i++) health.succeeded();
  assert.equal(limiter.limit, 4);
  health.succeeded();
  assert.equal(limiter.limit, 5);
  for (let i = 0; i < 100; i++) health.succeeded();
  assert.equal(limiter.limit, 10, "never above the configured maximum");
});

test("a server saturated (a 529, an attempt timed out without a byte) is sent fewer calls at once, and may still be down", () => {
  const limiter = new Semaphore(10);
  const c = clock();
  const health = new ProviderHealth(limiter, { maxLimit: 10, outageAfterMs: 3_000, now: c.now });
  health.failed("the LLM server sent nothing for 300 s", { overloaded: true });
  assert.equal(limiter.limit, 7);
  c.advance(1_000);
  health.failed("HTTP 529 from the LLM server", { overloaded: true });
  assert.equal(limiter.limit, 4);
  c.advance(2_000);
  health.failed("HTTP 529 from the LLM server", { overloaded: true });
  assert.equal(health.state.down, true, "unlike a 429, no sign that it is up");
});

test("a lowered limit takes effect as holders release, and a raised one admits waiters at once", async () => {
  const limiter = new Semaphore(3);
  const holders = await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);
  limiter.setLimit(1);
  let admitted = 0;
  const waiting = [limiter.acquire().then(() => admitted++), limiter.acquire().then(() => admitted++)];
  holders[0]();
  holders[1]();
  await new Promise((r) => setImmediate(r));
  assert.equal(admitted, 0, "two holders released, but one still holds the only slot");
  assert.equal(limiter.inUse, 1);
  limiter.setLimit(3);
  await Promise.all(waiting);
  assert.equal(admitted, 2);
  assert.equal(limiter.inUse, 3);
});

test("failures without a success for the outage window mark the provider down; the first success brings it back", () => {
  const c = clock();
  const health = new ProviderHealth(undefined, { maxLimit: 8, outageAfterMs: 10_000, now: c.now });
  const seen: HealthState[] = [];
  health.subscribe((s) => seen.push(s));
  health.failed("HTTP 503 from the LLM server");
  c.advance(5_000);
  health.failed("HTTP 503 from the LLM server");
  c.advance(5_000);
  assert.equal(health.state.down, false, "two failures are not an outage");
  health.failed("HTTP 503 from the LLM server");
  assert.equal(health.state.down, true);
  assert.equal(health.state.reason, "HTTP 503 from the LLM server");
  health.succeeded();
  assert.equal(health.state.down, false);
  assert.deepEqual(seen.map((s) => s.down), [true, false]);
  // Sporadic failures between successes never add up to an outage.
  for (let i = 0; i < 20; i++) {
    health.failed("HTTP 500");
    c.advance(4_000);
    health.succeeded();
  }
  assert.equal(health.state.down, false);
});

test("while down, one caller probes and the others wait; nudge() makes the probe go at once", async () => {
  const c = clock();
  const health = new ProviderHealth(undefined, { maxLimit: 8, outageAfterMs: 0, minFailures: 1, probeBaseDelayMs: 60_000, now: c.now });
  health.failed("down");
  assert.equal(await health.admit(), true, "the first caller probes");
  let waiterAdmitted = false;
  const waiter = health.admit().then((probe) => {
    waiterAdmitted = true;
    return probe;
  });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(waiterAdmitted, false, "the others wait while the probe is out");
  // The probe fails and would sleep a minute; a nudge cuts that short and the next caller probes.
  const probeWait = health.probeFailed();
  assert.equal(health.nudge(), true);
  await probeWait;
  assert.equal(await waiter, true, "the waiter became the next probe");
  health.succeeded();
  assert.equal(await health.admit(), false, "up again: no probing");
});

test("a call outlives an outage longer than its retry budget, and only probes go out while it lasts", async () => {
  const health = new ProviderHealth(undefined, { maxLimit: 8, outageAfterMs: 50, minFailures: 2, probeBaseDelayMs: 20, probeMaxDelayMs: 40 });
  // The outage is three times the budget, and the budget eight times the outage's detection (50 ms, two
  // failures): on a loaded machine timers slip, and a budget spent before detection ends a call with the 503.
  const downUntil = Date.now() + 1200;
  // Requests sent after the provider was marked down, in flight at once.
  let probesInFlight = 0;
  let maxInFlightWhileDown = 0;
  const fetchImpl = (async () => {
    const probe = health.state.down;
    if (probe) maxInFlightWhileDown = Math.max(maxInFlightWhileDown, ++probesInFlight);
    const down = Date.now() < downUntil;
    await new Promise((r) => setTimeout(r, 5));
    if (probe) probesInFlight--;
    return new Response(down ? "unavailable" : "{}", { status: down ? 503 : 200 });
  }) as typeof fetch;
  const f = createRetryingFetch({ retryBudgetMs: 400, baseDelayMs: 10, maxDelayMs: 20, timeoutMs: 1000, fetchImpl, health });
  const results = await Promise.all(Array.from({ length: 6 }, () => f("http://llm.test/").then((r) => r.status)));
  assert.deepEqual(results, [200, 200, 200, 200, 200, 200]);
  assert.ok(Date.now() >= downUntil);
  assert.equal(maxInFlightWhileDown, 1, "one probe at a time during the outage");
  assert.equal(health.state.down, false);
});

test("a cancelled call waiting out an outage stops at once and frees the probe for others", async () => {
  const health = new ProviderHealth(undefined, { maxLimit: 8, outageAfterMs: 0, minFailures: 1, probeBaseDelayMs: 10_000 });
  health.failed("down");
  const fetchImpl = (async () => new Response("unavailable", { status: 503 })) as typeof fetch;
  const f = createRetryingFetch({ retryBudgetMs: 0, timeoutMs: 1000, fetchImpl, health });
  const controller = new AbortController();
  const call = f("http://llm.test/", { signal: controller.signal });
  await new Promise((r) => setTimeout(r, 30));
  controller.abort(new Error("cancelled"));
  await assert.rejects(call, /cancelled/);
  assert.equal(await health.admit(), true, "the probe is free again");
});

test("a 429 is no outage: it ends one (the provider answered) and only lowers the limit", () => {
  const limiter = new Semaphore(10);
  const c = clock();
  const health = new ProviderHealth(limiter, { maxLimit: 10, outageAfterMs: 10_000, now: c.now });
  const seen: boolean[] = [];
  health.subscribe((s) => seen.push(s.down));
  for (let i = 0; i < 5; i++) {
    health.failed("HTTP 429 from the LLM server", { rateLimited: true });
    c.advance(5_000);
  }
  assert.equal(health.state.down, false, "a provider that rate-limits for 25 s is up");
  assert.equal(limiter.limit, 1, "its 429s lowered the limit");
  for (let i = 0; i < 3; i++) {
    health.failed("HTTP 503 from the LLM server");
    c.advance(5_000);
  }
  health.failed("HTTP 503 from the LLM server");
  assert.equal(health.state.down, true);
  health.failed("HTTP 429 from the LLM server", { rateLimited: true });
  assert.equal(health.state.down, false, "the probe's 429 brings it back");
  assert.deepEqual(seen, [true, false]);
});

test("after an outage whose recovery answers half 429s, work resumes within 5 s of its first answer", async (t) => {
  // A fake clock: the probes back off to their 30 s maximum during a 2-minute outage.
  t.mock.timers.enable({ apis: ["setTimeout", "Date"], now: 1_000_000 });
  const health = new ProviderHealth(new Semaphore(4), { maxLimit: 4, outageAfterMs: 20_000 });
  const recoveredAt = Date.now() + 120_000;
  let answers = 0;
  let firstAnswerAt = 0;
  const fetchImpl = (async () => {
    if (Date.now() < recoveredAt) return new Response("unavailable", { status: 503 });
    // The probe out at the recovery sleeps up to 30 s first; what counts is what follows the first answer.
    firstAnswerAt ||= Date.now();
    // The recovering provider: every other answer a 429, starting with one.
    return answers++ % 2 === 0 ? new Response("slow down", { status: 429, headers: { "retry-after": "1" } }) : new Response("{}", { status: 200 });
  }) as typeof fetch;
  const f = createRetryingFetch({ retryBudgetMs: 300_000, timeoutMs: 600_000, fetchImpl, health });
  const done: number[] = [];
  const calls = Array.from({ length: 6 }, () => f("http://llm.test/").then((r) => done.push(Date.now()) && r.status));
  const flush = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  };
  while (done.length < 6 && Date.now() < recoveredAt + 300_000) {
    await flush();
    t.mock.timers.tick(100);
  }
  assert.equal(done.length, 6, "every call completed");
  assert.deepEqual(await Promise.all(calls), [200, 200, 200, 200, 200, 200]);
  const first = Math.min(...done) - firstAnswerAt;
  const last = Math.max(...done) - firstAnswerAt;
  assert.ok(first < 5_000, `the first call completed ${first} ms after the provider's first answer`);
  assert.ok(last < 15_000, `the last call completed ${last} ms after the provider's first answer`);
});
