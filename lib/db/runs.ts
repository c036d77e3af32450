// Query functions for runs: one row per execution of an engine, with its lease. Claiming, renewing
// and releasing a lease are compare-and-set updates, so two processes on one database never run the
// same run at once.
import { db } from "./client";
import { executeDirect, queryDirect, type RowTypes } from "./direct";
import { databaseProvider } from "./database-url";
import { Prisma } from "../generated/prisma/client";
import { getEnv } from "../env";
import type { Run } from "./types";

export type RunKind = "tree" | "answer" | "deep-research";
export type RunStatus = "queued" | "running" | "completed" | "failed" | "cancelled";

/** A lease lasts three heartbeats: a run is stale after three missed beats. */
export const LEASE_BEATS = 3;
export const runLeaseMs = () => getEnv().RUN_HEARTBEAT_MS * LEASE_BEATS;

/**
 * Opens (or reopens) a subject's run, queued. The process that opens it claims it at once; until one
 * lease has passed no other process's sweep takes it (the queued run's `leaseExpiresAt` is that
 * grace), so a sweep never races the opener for a run it just opened — only a run whose opener died
 * before claiming it is taken over.
 */
export async function openRun({ kind, subjectId, userId, mode, now = new Date() }: { kind: RunKind; subjectId: string; userId: string | null; mode: string; now?: Date }) {
  const reopen = {
    status: "queued",
    handoffAt: null,
    mode,
    leaseOwner: null,
    leaseExpiresAt: new Date(now.getTime() + runLeaseMs()),
    cancelRequestedAt: null,
    error: null,
    completedAt: null,
  };
  return db.run.upsert({
    where: { kind_subjectId: { kind, subjectId } },
    create: { kind, subjectId, userId, ...reopen },
    update: reopen,
  });
}

/** How a run row read in plain SQL comes back: its times (see RowTypes). */
const RUN_ROW: RowTypes = { dates: ["leaseExpiresAt", "heartbeatAt", "cancelRequestedAt", "pausedAt", "createdAt", "startedAt", "completedAt", "handoffAt"] };

/** The subject's run, or null (plain SQL: read at every claim, by every queue-mode part job and by the status views). */
export async function getRun({ kind, subjectId }: { kind: RunKind; subjectId: string }): Promise<Run | null> {
  const [row] = await queryDirect<Run>(Prisma.sql`SELECT * FROM "Run" WHERE "kind" = ${kind} AND "subjectId" = ${subjectId}`, RUN_ROW);
  return row ?? null;
}

/**
 * Takes the run's lease if it is free, expired or already ours. False when another process holds a
 * live lease, or the run has ended.
 */
export async function claimRun({ id, owner, leaseMs, now = new Date() }: { id: string; owner: string; leaseMs: number; now?: Date }): Promise<boolean> {
  // A pause was this process's view of its provider; a new owner starts from its own.
  const count = await executeDirect(Prisma.sql`
    UPDATE "Run" SET "status" = 'running', "leaseOwner" = ${owner}, "leaseExpiresAt" = ${new Date(now.getTime() + leaseMs)},
      "heartbeatAt" = ${now}, "attempt" = "attempt" + 1, "pausedAt" = NULL, "pauseReason" = NULL, "handoffAt" = NULL,
      "startedAt" = COALESCE("startedAt", ${now})
    WHERE "id" = ${id} AND "status" IN ('queued', 'running')
      AND ("leaseOwner" IS NULL OR "leaseOwner" = ${owner} OR "leaseExpiresAt" < ${now})`);
  return count === 1;
}

/** Renews the lease. `held: false` when another process took the run over (or it ended, or was deleted). */
export async function heartbeatRun({ id, owner, leaseMs, now = new Date() }: { id: string; owner: string; leaseMs: number; now?: Date }) {
  const count = await executeDirect(Prisma.sql`
    UPDATE "Run" SET "heartbeatAt" = ${now}, "leaseExpiresAt" = ${new Date(now.getTime() + leaseMs)}
    WHERE "id" = ${id} AND "leaseOwner" = ${owner} AND "status" = 'running'`);
  return { held: count === 1 };
}

/**
 * Of the runs a process is executing, those with a cancel recorded (by any process) and those whose
 * row is gone (deleted with its subject). One query for all of them: the owner polls it often.
 */
export async function runsToStop({ ids }: { ids: string[] }): Promise<{ cancelled: string[]; gone: string[] }> {
  if (ids.length === 0) return { cancelled: [], gone: [] };
  const rows = await queryDirect<{ id: string; cancelled: number | bigint | boolean }>(Prisma.sql`
    SELECT "id", CASE WHEN "cancelRequestedAt" IS NULL THEN 0 ELSE 1 END AS "cancelled" FROM "Run" WHERE "id" IN (${Prisma.join(ids)})`);
  const present = new Set(rows.map((r) => r.id));
  return { cancelled: rows.filter((r) => Number(r.cancelled) === 1).map((r) => r.id), gone: ids.filter((id) => !present.has(id)) };
}

/**
 * Ends the run, if this process still holds it and it is still running: a compare-and-set, so no
 * terminal status overwrites another.
 */
export async function finishRun({ id, owner, status, error = null }: { id: string; owner: string; status: Exclude<RunStatus, "queued" | "running">; error?: string | null }) {
  const count = await executeDirect(Prisma.sql`
    UPDATE "Run" SET "status" = ${status}, "error" = ${error}, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "completedAt" = ${new Date()},
      "pausedAt" = NULL, "pauseReason" = NULL
    WHERE "id" = ${id} AND "leaseOwner" = ${owner} AND "status" = 'running'`);
  return count === 1;
}

/**
 * Queue mode: this process's job ran one phase of the run and hands it on; the run stays running,
 * with no owner, until the next job's claim (any worker's) takes it up. One lease of grace keeps the
 * sweep from queueing a job for it meanwhile (its job waits already). False when the lease was not held.
 */
export async function handOffRun({ id, owner, now = new Date() }: { id: string; owner: string; now?: Date }) {
  const count = await executeDirect(Prisma.sql`
    UPDATE "Run" SET "leaseOwner" = NULL, "leaseExpiresAt" = ${new Date(now.getTime() + runLeaseMs())}, "handoffAt" = ${now},
      "pausedAt" = NULL, "pauseReason" = NULL
    WHERE "id" = ${id} AND "leaseOwner" = ${owner} AND "status" = 'running'`);
  return count === 1;
}

/**
 * Marks runs this process holds paused (waiting for the LLM provider), or no longer paused. One
 * write for them all: an outage pauses every run at once.
 */
export async function setRunsPaused({ ids, owner, paused }: { ids: string[]; owner: string; paused: { reason: string; since: Date } | null }) {
  if (ids.length === 0) return;
  await executeDirect(Prisma.sql`
    UPDATE "Run" SET "pausedAt" = ${paused?.since ?? null}, "pauseReason" = ${paused?.reason ?? null}
    WHERE "id" IN (${Prisma.join(ids)}) AND "leaseOwner" = ${owner} AND "status" = 'running'`);
}

/** A run row's pause as the views show it: only while it runs. */
export function pausedOf(run: Pick<Run, "status" | "pausedAt" | "pauseReason"> | null | undefined): { reason: string; since: string } | null {
  if (!run?.pausedAt || run.status !== "running") return null;
  return { reason: run.pauseReason ?? "Waiting for the LLM provider", since: run.pausedAt.toISOString() };
}

/** Records a cancel; whichever process runs the run stops it within its cancel poll (lib/runs/registry.ts). */
export async function requestCancel({ kind, subjectId }: { kind: RunKind; subjectId: string }) {
  await db.run.updateMany({ where: { kind, subjectId, status: { in: ["queued", "running"] } }, data: { cancelRequestedAt: new Date() } });
}

/**
 * Whether no process executes the run any more: it ended (or has no row), or no live lease holds it
 * (never claimed, or its owner died: a run with a cancel recorded is not taken over).
 */
export async function runStopped({ kind, subjectId, now = new Date() }: { kind: RunKind; subjectId: string; now?: Date }): Promise<boolean> {
  const run = await getRun({ kind, subjectId });
  if (!run || (run.status !== "queued" && run.status !== "running")) return true;
  return run.leaseOwner === null || (run.leaseExpiresAt !== null && run.leaseExpiresAt < now);
}

/** Runs that should be running but that no live process holds: queued past its opener's grace, or running with an expired lease. */
export async function orphanedRuns({ now = new Date() }: { now?: Date } = {}) {
  return db.run.findMany({
    where: {
      status: { in: ["queued", "running"] },
      cancelRequestedAt: null,
      // Queued runs carry their opener's grace in leaseExpiresAt (openRun); rows opened before it have none.
      OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }],
    },
    select: { id: true, kind: true, subjectId: true },
    orderBy: { createdAt: "asc" },
  });
}

/**
 * Reserves the next `block` event sequence numbers of a run and returns the first of them. The
 * counter lives in the database, so numbering goes on after a restart or a takeover, never repeating.
 */
export async function reserveSeq({ id, block }: { id: string; block: number }): Promise<number> {
  const last = (await reserveSeqs(new Map([[id, block]]))).get(id);
  if (last === undefined) throw new Error(`No run ${id}`);
  return last - block + 1;
}

/**
 * Reserves numbers of several runs in one statement (`blocks`: how many for each run) and returns the
 * last number reserved for each; a run with no row is not in the map. On PostgreSQL the rows are
 * locked in id order first, so that two processes reserving for overlapping runs at once never
 * deadlock (an UPDATE alone locks its rows in the order its plan meets them).
 */
export async function reserveSeqs(blocks: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  if (blocks.size === 0) return new Map();
  const ids = Prisma.join([...blocks.keys()]);
  const add = Prisma.sql`CASE "id" ${Prisma.join([...blocks].map(([id, n]) => Prisma.sql`WHEN ${id} THEN CAST(${n} AS INTEGER)`), " ")} END`;
  const rows = await queryDirect<{ id: string; seq: number }>(
    databaseProvider(getEnv().DATABASE_URL) === "postgresql"
      ? Prisma.sql`WITH "locked" AS (SELECT "id" FROM "Run" WHERE "id" IN (${ids}) ORDER BY "id" FOR UPDATE)
          UPDATE "Run" SET "seq" = "seq" + ${add} WHERE "id" IN (SELECT "id" FROM "locked") RETURNING "id", "seq"`
      : Prisma.sql`UPDATE "Run" SET "seq" = "seq" + ${add} WHERE "id" IN (${ids}) RETURNING "id", "seq"`,
  );
  return new Map(rows.map((r) => [r.id, Number(r.seq)]));
}

export async function deleteRunsOf({ kind, subjectId }: { kind: RunKind; subjectId: string }) {
  await db.run.deleteMany({ where: { kind, subjectId } });
}

/** A run by id, scoped by owner (null when it is someone else's). */
export async function getOwnRun({ id, userId }: { id: string; userId: string }) {
  return db.run.findFirst({ where: { id, userId } });
}

/**
 * The subjects of a user's top-level runs of `kinds` not yet ended (a Deep Research task's tree is part
 * of its conversation's run). A run's row ends after its engine's own status (once its last events
 * are out): the per-user limit counts both, so that a run never counts as ended before its row does.
 */
export async function liveRunSubjects({ userId, kinds }: { userId: string; kinds: RunKind[] }): Promise<string[]> {
  const rows = await db.run.findMany({ where: { userId, kind: { in: kinds }, parentRunId: null, status: { in: ["queued", "running"] } }, select: { subjectId: true } });
  return rows.map((r) => r.subjectId);
}

/**
 * The user of a run and how many live (queued or running) runs that user has, this one included; null
 * when there is no such run. One plain statement: read for every part job queued (lib/queue/enqueue.ts).
 */
export async function liveRunsOfUser({ kind, subjectId }: { kind: RunKind; subjectId: string }): Promise<{ userId: string | null; live: number } | null> {
  const [row] = await queryDirect<{ userId: string | null; live: number | bigint | string }>(Prisma.sql`
    SELECT r."userId" AS "userId",
      (SELECT COUNT(*) FROM "Run" o WHERE o."userId" = r."userId" AND o."status" IN ('queued', 'running')) AS "live"
    FROM "Run" r WHERE r."kind" = ${kind} AND r."subjectId" = ${subjectId}`);
  return row ? { userId: row.userId, live: Number(row.live) } : null;
}
