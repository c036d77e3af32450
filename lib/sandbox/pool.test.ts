// The sandbox pool: items answer from worker processes; a process past its memory limit or an item
// past its time limit is killed, that item fails naming the limit, a fresh process takes the next
// item, and the other items (and this process) are not touched.
import assert from "node:assert/strict";
import path from "node:path";
import { after, describe, it } from "node:test";
import { AppError } from "../errors";
import { runInSandbox, SandboxLimitError, SandboxPool, type SandboxPoolOptions } from "./pool";

const entry = path.join(process.cwd(), "lib", "sandbox", "pool-test-worker.ts");
const pools: SandboxPool[] = [];
function pool(options: Partial<SandboxPoolOptions> = {}): SandboxPool {
  const p = new SandboxPool({ label: "test item", worker: { entry }, size: 2, memoryMb: 256, memorySetting: "TEST_MEMORY_MB", timeoutMs: 5_000, timeoutSetting: "TEST_TIMEOUT_MS", ...options });
  pools.push(p);
  return p;
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const until = async (check: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  assert.ok(check());
};

describe("the sandbox pool", () => {
  after(() => pools.forEach((p) => p.close()));

  it("answers from another process, bytes and all, with no secrets of the server's environment", async () => {
    process.env.QUARRY_TEST_SECRET = "hunter2";
    const p = pool();
    const r = await runInSandbox<{ value: Uint8Array; pid: number }>(p, "echo", { value: new Uint8Array([1, 2, 3]) });
    delete process.env.QUARRY_TEST_SECRET;
    assert.deepEqual([...r.value], [1, 2, 3]);
    assert.notEqual(r.pid, process.pid);
    const names = await runInSandbox<string[]>(p, "env", {});
    assert.ok(!names.includes("QUARRY_TEST_SECRET"), names.join(","));
    assert.ok(names.every((n) => ["NODE_ENV", "PATH", "HOME", "TMPDIR", "LANG", "TZ", "PWD"].includes(n) || n.startsWith("TSX")), names.join(","));
  });

  it("a handler's error comes back as thrown: an AppError keeps its code and field", async () => {
    const p = pool();
    await assert.rejects(runInSandbox(p, "fail", { code: "payload_too_large:document" }), (e: unknown) => e instanceof AppError && e.code === "payload_too_large:document" && e.field === "file" && e.message === "refused as asked");
    await assert.rejects(runInSandbox(p, "fail", {}), (e: unknown) => e instanceof Error && !(e instanceof AppError) && e.message === "failed as asked");
    await assert.rejects(runInSandbox(p, "nope", {}), /no task "nope"/);
  });

  it("kills a process past its V8 heap / memory limit: the item fails naming the limit, the next runs in a fresh process", async () => {
    // A long time limit: filling the heap is slow on a loaded machine, and the memory limit must be what stops it.
    const p = pool({ size: 1, timeoutMs: 120_000 });
    const first = (await runInSandbox<{ pid: number }>(p, "echo", { value: 1 })).pid;
    const rss = process.memoryUsage().rss;
    await assert.rejects(runInSandbox(p, "heap", {}), (e: unknown) => e instanceof SandboxLimitError && e.limit === "memory" && e.setting === "TEST_MEMORY_MB" && e.value === 256 && /memory limit of 256 MB \(TEST_MEMORY_MB\)/.test(e.message));
    assert.ok(process.memoryUsage().rss - rss < 100 * 1024 * 1024, "this process's memory did not move");
    await until(() => !alive(first));
    const second = (await runInSandbox<{ pid: number }>(p, "echo", { value: 2 })).pid;
    assert.notEqual(second, first);
  });

  it("native memory past the OS limit fails the item naming the limit, and its process is replaced", async () => {
    const p = pool({ size: 1, timeoutMs: 120_000 });
    const first = (await runInSandbox<{ pid: number }>(p, "echo", { value: 1 })).pid;
    await assert.rejects(runInSandbox(p, "native", {}), (e: unknown) => e instanceof SandboxLimitError && e.limit === "memory" && /256 MB \(TEST_MEMORY_MB\)/.test(e.message));
    await until(() => !alive(first));
    assert.notEqual((await runInSandbox<{ pid: number }>(p, "echo", { value: 2 })).pid, first);
  });

  it("kills a process whose item runs past its time limit (a busy loop too): the item fails naming the limit, the next runs", async () => {
    const p = pool({ size: 1, timeoutMs: 500 });
    const first = (await runInSandbox<{ pid: number }>(p, "echo", { value: 1 })).pid;
    const started = Date.now();
    await assert.rejects(runInSandbox(p, "spin", { ms: 60_000 }), (e: unknown) => e instanceof SandboxLimitError && e.limit === "timeout" && e.setting === "TEST_TIMEOUT_MS" && e.value === 500 && /time limit of 500 ms \(TEST_TIMEOUT_MS\)/.test(e.message));
    // Stopped by the limit, long before the loop's own minute.
    assert.ok(Date.now() - started < 15_000, `stopped after ${Date.now() - started} ms`);
    await until(() => !alive(first));
    assert.notEqual((await runInSandbox<{ pid: number }>(p, "echo", { value: 2 })).pid, first);
    // A per-item limit overrides the pool's.
    await assert.rejects(runInSandbox(p, "sleep", { ms: 2_000 }, { timeoutMs: 200 }), (e: unknown) => e instanceof SandboxLimitError && e.value === 200);
  });

  it("runs items concurrently up to its size, queues the rest, and a breach fails only its own item", async () => {
    const p = pool({ size: 2, timeoutMs: 1_500 });
    const started = Date.now();
    const results = await Promise.allSettled([
      runInSandbox<number>(p, "sleep", { ms: 400 }),
      runInSandbox<number>(p, "sleep", { ms: 400 }),
      runInSandbox<number>(p, "sleep", { ms: 400 }),
      runInSandbox<number>(p, "sleep", { ms: 400 }),
      runInSandbox(p, "heap", {}),
      runInSandbox<number>(p, "sleep", { ms: 400 }),
    ]);
    const elapsed = Date.now() - started;
    assert.deepEqual(results.map((r) => r.status), ["fulfilled", "fulfilled", "fulfilled", "fulfilled", "rejected", "fulfilled"]);
    const pids = new Set(results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : [])));
    assert.ok(pids.size >= 2 && pids.size <= 3, `pids ${[...pids]}`);
    assert.ok(p.pids.length <= 2, "never more processes than its size");
    assert.ok(elapsed >= 800, `two at a time: ${elapsed} ms`);
  });

  it("an abort stops the wait; a queued item leaves the queue", async () => {
    const p = pool({ size: 1 });
    const busy = runInSandbox(p, "sleep", { ms: 500 });
    const controller = new AbortController();
    const queued = runInSandbox(p, "echo", { value: 1 }, { signal: controller.signal });
    controller.abort(new Error("stopped"));
    await assert.rejects(queued, /stopped/);
    assert.equal(typeof (await busy), "number");
  });

  it("closing ends its processes; an idle process ends after idleMs", async () => {
    const p = pool({ size: 1, idleMs: 300 });
    const pid = (await runInSandbox<{ pid: number }>(p, "echo", { value: 1 })).pid;
    await until(() => !alive(pid));
    const q = pool({ size: 1 });
    const other = (await runInSandbox<{ pid: number }>(q, "echo", { value: 1 })).pid;
    q.close();
    await until(() => !alive(other));
    await assert.rejects(runInSandbox(q, "echo", {}), /closed/);
  });
});
