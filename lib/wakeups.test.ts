// Wake-ups by key: a waiter armed before it looks sees a notification that came before its wait; one
// that is never notified resolves at its timeout or abort; other keys do not wake it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Wakeups } from "./wakeups";

const never = new AbortController().signal;

test("an armed waiter keeps a notification that comes before its wait; other keys do not wake it", async () => {
  let started = 0;
  const wakeups = new Wakeups(() => void started++);
  const armed = wakeups.arm("page-1");
  assert.equal(started, 1, "the source starts with the first waiter");
  wakeups.notify("page-2");
  wakeups.notify("page-1");
  const t0 = performance.now();
  await armed.wait(60_000, never);
  armed.dispose();
  assert.ok(performance.now() - t0 < 1_000, "resolved at once");
  wakeups.arm("page-1").dispose();
  assert.equal(started, 1, "started once");
});

test("a waiter resolves at a notification during its wait, at its timeout, or on abort", async () => {
  const wakeups = new Wakeups(() => {});
  const waiting = wakeups.wait("run-1", 60_000, never);
  setTimeout(() => wakeups.notify("run-1"), 20);
  await waiting;

  const t0 = performance.now();
  await wakeups.wait("run-1", 30, never);
  assert.ok(performance.now() - t0 >= 25, "not notified: its timeout");

  const controller = new AbortController();
  const aborted = wakeups.wait("run-1", 60_000, controller.signal);
  controller.abort();
  await aborted;

  // Without a notification since it was armed, an armed wait waits.
  const armed = wakeups.arm("run-2");
  wakeups.notify("run-1");
  const t1 = performance.now();
  await armed.wait(30, never);
  armed.dispose();
  assert.ok(performance.now() - t1 >= 25);
});
