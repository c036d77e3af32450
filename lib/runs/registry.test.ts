// The registry's hand-off (queue mode's phase per job) against a real database: a job whose engine
// ends a phase leaves the run running with no owner, the next job's claim takes it up as a
// continuation, and a cancel recorded between two jobs stops the next one at once. Outside a queue
// job an engine may not hand off.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";

await useTestDatabase();
const { db } = await import("../db/client");
const { claimRun, openRun, requestCancel, orphanedRuns } = await import("../db/runs");
const { RunRegistry } = await import("./registry");
type Engine = import("./engine").Engine;
type RunHandle = import("./engine").RunHandle;
type RunOutcome = import("./engine").RunOutcome;

/** An engine of two phases: the first hands off in a queue job; what each execution saw is kept. */
function twoPhases() {
  const seen: { continued: boolean; phased: boolean; aborted: boolean }[] = [];
  const engine: Engine = {
    kind: "tree",
    async execute(run: RunHandle): Promise<RunOutcome> {
      seen.push({ continued: run.continued, phased: run.phased, aborted: run.signal.aborted });
      if (run.signal.aborted) return "cancelled";
      return run.phased && !run.continued ? "handed-off" : "completed";
    },
    markCancelled: async () => true,
    announce: async () => {},
    snapshot: async () => null,
    isFinal: () => false,
  };
  return { engine, seen };
}

const row = (subjectId: string) => db.run.findFirstOrThrow({ where: { kind: "tree", subjectId } });

test("a queue job hands the run off after a phase; the next job takes it up as a continuation", async () => {
  const { engine, seen } = twoPhases();
  const first = new RunRegistry();
  const second = new RunRegistry();
  first.register(engine);
  second.register(engine);
  await openRun({ kind: "tree", subjectId: "r-phases", userId: null, mode: "tree" });

  assert.equal(await first.runJob("tree", "r-phases"), "handed-off");
  const between = await row("r-phases");
  assert.equal(between.status, "running", "the run goes on");
  assert.equal(between.leaseOwner, null, "owned by nobody until the next job");
  assert.ok(between.handoffAt);
  assert.ok(between.leaseExpiresAt && between.leaseExpiresAt > new Date(), "a lease of grace: the sweep leaves it to its waiting job");
  assert.deepEqual((await orphanedRuns()).map((r) => r.id).filter((id) => id === between.id), []);

  // Another worker's job: a continuation, run to its end.
  assert.equal(await second.runJob("tree", "r-phases"), "executed");
  const ended = await row("r-phases");
  assert.equal(ended.status, "completed");
  assert.equal(ended.handoffAt, null, "the claim took the hand-off up");
  assert.equal(ended.attempt, 2);
  assert.deepEqual(seen, [
    { continued: false, phased: true, aborted: false },
    { continued: true, phased: true, aborted: false },
  ]);
});

test("a cancel recorded between two jobs stops the next one before its phase", async () => {
  const { engine, seen } = twoPhases();
  const registry = new RunRegistry();
  registry.register(engine);
  await openRun({ kind: "tree", subjectId: "r-cancel", userId: null, mode: "tree" });
  assert.equal(await registry.runJob("tree", "r-cancel"), "handed-off");
  await requestCancel({ kind: "tree", subjectId: "r-cancel" });
  assert.equal(await registry.runJob("tree", "r-cancel"), "executed");
  assert.equal((await row("r-cancel")).status, "cancelled");
  assert.deepEqual(seen.map((s) => s.aborted), [false, true]);
});

test("a crash after a hand-off is a takeover, not a continuation; outside a queue job nothing hands off", async () => {
  const { engine, seen } = twoPhases();
  const registry = new RunRegistry();
  registry.register(engine);
  // In process (not a queue job): the engine runs to its end in one execution.
  await openRun({ kind: "tree", subjectId: "r-inline", userId: null, mode: "tree" });
  await registry.start("tree", "r-inline");
  assert.equal((await row("r-inline")).status, "completed");
  assert.deepEqual(seen.at(-1), { continued: false, phased: false, aborted: false });

  // An engine that hands off outside a queue job is a bug: the run fails, it is not left to nobody.
  const rogue: Engine = { ...engine, kind: "answer", execute: async () => "handed-off" };
  registry.register(rogue);
  await openRun({ kind: "answer", subjectId: "r-rogue", userId: null, mode: "" });
  await registry.start("answer", "r-rogue");
  const rogueRow = await db.run.findFirstOrThrow({ where: { kind: "answer", subjectId: "r-rogue" } });
  assert.equal(rogueRow.status, "failed");
  assert.match(rogueRow.error ?? "", /not a queue job/);

  // A job that took the run up after a hand-off died (its lease expired): the next is a takeover.
  await openRun({ kind: "tree", subjectId: "r-crash", userId: null, mode: "tree" });
  assert.equal(await registry.runJob("tree", "r-crash"), "handed-off");
  const { id } = await row("r-crash");
  assert.equal(await claimRun({ id, owner: "dead-worker", leaseMs: 60_000 }), true);
  await db.run.update({ where: { id }, data: { leaseExpiresAt: new Date(Date.now() - 1) } });
  assert.equal(await registry.runJob("tree", "r-crash"), "handed-off", "a taken-over run starts its phase again");
  assert.deepEqual(seen.at(-1), { continued: false, phased: true, aborted: false });
});

test("a queue worker's lease lasts its job lock, renewed every third of it, never longer than the platform's", async () => {
  const leases: number[] = [];
  const beats = new Set<number>();
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const engine: Engine = {
    kind: "tree",
    async execute(): Promise<RunOutcome> {
      await held;
      return "completed";
    },
    markCancelled: async () => true,
    announce: async () => {},
    snapshot: async () => null,
    isFinal: () => false,
  };
  const worker = new RunRegistry();
  worker.register(engine);
  worker.holdLeasesFor(900);
  await openRun({ kind: "tree", subjectId: "r-lease", userId: null, mode: "tree" });
  const running = worker.runJob("tree", "r-lease");
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const r = await row("r-lease");
    if (r.leaseOwner !== worker.owner || !r.heartbeatAt || !r.leaseExpiresAt) continue;
    leases.push(r.leaseExpiresAt.getTime() - r.heartbeatAt.getTime());
    beats.add(r.heartbeatAt.getTime());
  }
  release();
  assert.equal(await running, "executed");
  assert.ok(leases.length > 0 && leases.every((ms) => ms === 900), `every claim and beat holds the run 900 ms: ${leases.join(", ")}`);
  assert.ok(beats.size >= 4, `renewed every 300 ms over 1.5 s: ${beats.size} distinct beats`);

  // A lease longer than the platform's (three heartbeats) is not taken: a worker never holds a run longer than a web process would.
  const long = new RunRegistry();
  long.holdLeasesFor(10 * 60_000);
  await openRun({ kind: "tree", subjectId: "r-long", userId: null, mode: "tree" });
  let longLease = 0;
  long.register({
    ...engine,
    execute: async () => {
      const r = await row("r-long");
      longLease = r.leaseExpiresAt!.getTime() - r.heartbeatAt!.getTime();
      return "completed";
    },
  });
  assert.equal(await long.runJob("tree", "r-long"), "executed");
  assert.equal(longLease, 30_000, "capped at 3 × RUN_HEARTBEAT_MS");
});
