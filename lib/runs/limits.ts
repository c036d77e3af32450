// Per-user limits on starting runs, for every engine: starts per hour and runs going at once, in two
// pools — researches (tree and Deep Research share one) and quick answers (their own: a question is
// cheap and asked often). Counted from the database (durable across restarts); the check and the
// start run under a per-user lock held in the database, so that two simultaneous requests — to one
// server process or several — cannot both pass the last free slot.
// Planning calls (tree research's follow-up questions, Deep Research's clarification questions and
// plans) start no run but each makes LLM calls: they have their own limits, calls in flight and calls
// per hour, counted from their rows under the same lock; each row records the tokens its calls used.
// A user's own knowledge-base work outside runs (collection searches that embed their query, uploads
// and re-indexes) is counted the same way, from the same rows, each kind against its own limits.
import { randomUUID } from "node:crypto";
import { sleep } from "../concurrency";
import { runningAnswerIds, listAnswerStartTimes, listRunningAnswerStarts, recentAnswerDurations } from "../db/answers";
import { runningResearchIds, listRunningResearchStarts, listStartTimes, recentResearchDurations } from "../db/research";
import { activeConversationIds, listConversationStartTimes, listRunningConversationStarts, recentConversationStartDurations } from "../db/conversations";
import { liveRunSubjects } from "../db/runs";
import { acquireUserStartLock, releaseUserStartLock } from "../db/users";
import { addPlanningCallUsage, countPlanningCallsInFlight, endPlanningCall, insertPlanningCall, listPlanningCallStartTimes, type KnowledgeCallKind, type PlanningCallKind } from "../db/planning-calls";
import type { UsageSink } from "../ai/usage";
import { getEnv } from "../env";
import { AppError, type ErrorCode } from "../errors";
import { runRegistry } from "./registry";

const HOUR_MS = 60 * 60 * 1000;
/** What a start refused for an unreachable run queue is told to wait before it tries again. */
const QUEUE_RETRY_AFTER_SECONDS = 5;

export type LimitPool = "research" | "answer";

interface Pool {
  running(userId: string): Promise<Going>;
  /** Start times since `since`, oldest first, at most `limit`. */
  startTimes(userId: string, since: Date, limit: number): Promise<Date[]>;
  /** What the user has going, in the messages: "researches", "answers". */
  noun: string;
  startsCode: "rate_limit:research_starts" | "rate_limit:answer_starts";
  /** "started 30 researches", "asked 30 questions". */
  started: (n: number) => string;
  /** Seconds until one of the user's running runs is likely to end (the busy 429's Retry-After). */
  slotFreesIn: (userId: string, now: Date) => Promise<number>;
}

/** How long a run is expected to take without a history to go by, and the shortest wait told. */
const DEFAULT_RUN_SECONDS = 60;
const MIN_SLOT_WAIT_SECONDS = 2;

/** Runs of one kind: when the running ones started, and how long the user's recent ones took. */
export interface RunningKind {
  runningStarts: Date[];
  recentDurationsMs: number[];
}

/**
 * Seconds until the soonest of the running runs is expected to end: a run takes about the median of
 * the user's recent durations of its kind (DEFAULT_RUN_SECONDS without any), so its remaining time is
 * that less its elapsed time. A run past its expected end is expected any moment: MIN_SLOT_WAIT_SECONDS.
 * Without any running run to go by (a start being opened), MIN_SLOT_WAIT_SECONDS too.
 */
export function slotWaitSeconds(kinds: RunningKind[], now: Date): number {
  let soonest = Infinity;
  for (const { runningStarts, recentDurationsMs } of kinds) {
    const sorted = [...recentDurationsMs].sort((a, b) => a - b);
    const typicalMs = sorted.length ? sorted[Math.floor(sorted.length / 2)] : DEFAULT_RUN_SECONDS * 1000;
    for (const start of runningStarts) soonest = Math.min(soonest, start.getTime() + typicalMs - now.getTime());
  }
  if (soonest === Infinity) return MIN_SLOT_WAIT_SECONDS;
  return Math.max(MIN_SLOT_WAIT_SECONDS, Math.ceil(soonest / 1000));
}

/** Runs going: `total` counts each once; `ending` of them have ended by their engine's status and wait only for their Run row to end. */
interface Going {
  total: number;
  ending: number;
}

/**
 * How many runs are going: by the engines' own status or by their Run rows, each counted once. A
 * run's row ends a moment after its engine's status (once its last events are out, in another process
 * in queue mode); counting only the status let a start in while the row still ran, one over the limit.
 */
async function runningSubjects(statuses: Promise<string[]>[], rows: Promise<string[]>): Promise<Going> {
  const [byStatus, byRow] = await Promise.all([Promise.all(statuses), rows]);
  const going = new Set(byStatus.flat());
  const ending = new Set(byRow.filter((id) => !going.has(id)));
  return { total: going.size + ending.size, ending: ending.size };
}

/**
 * How long a start at the limit waits for runs that have ended but whose rows have not yet (their
 * last events going out: milliseconds, or a beat in another process), before it is refused: a client
 * that asks its next question the moment its last answer came back is not told it has one running.
 */
const ENDING_WAIT_MS = 3_000;
const ENDING_POLL_MS = 50;

const POOLS: Record<LimitPool, Pool> = {
  research: {
    running: (userId) => runningSubjects([runningResearchIds({ userId }), activeConversationIds({ userId })], liveRunSubjects({ userId, kinds: ["tree", "deep-research"] })),
    startTimes: async (userId, since, limit) =>
      [...(await listStartTimes({ userId, since, limit })), ...(await listConversationStartTimes({ userId, since, limit }))].sort((a, b) => a.getTime() - b.getTime()),
    noun: "researches",
    startsCode: "rate_limit:research_starts",
    started: (n) => `started ${n} researches`,
    // Tree researches and Deep Research starts take their own times: each kind by its own history.
    slotFreesIn: async (userId, now) => {
      const [researchStarts, researchDurations, conversationStarts, conversationDurations] = await Promise.all([
        listRunningResearchStarts({ userId }),
        recentResearchDurations({ userId, limit: 20 }),
        listRunningConversationStarts({ userId }),
        recentConversationStartDurations({ userId, limit: 20 }),
      ]);
      return slotWaitSeconds(
        [
          { runningStarts: researchStarts, recentDurationsMs: researchDurations },
          { runningStarts: conversationStarts, recentDurationsMs: conversationDurations },
        ],
        now,
      );
    },
  },
  answer: {
    running: (userId) => runningSubjects([runningAnswerIds({ userId })], liveRunSubjects({ userId, kinds: ["answer"] })),
    startTimes: (userId, since, limit) => listAnswerStartTimes({ userId, since, limit }),
    noun: "answers",
    startsCode: "rate_limit:answer_starts",
    started: (n) => `asked ${n} questions`,
    slotFreesIn: async (userId, now) =>
      slotWaitSeconds([{ runningStarts: await listRunningAnswerStarts({ userId }), recentDurationsMs: await recentAnswerDurations({ userId, limit: 20 }) }], now),
  },
};

/** Throws a 429 (with Retry-After) when the user may not start another run of the pool now. */
export async function assertWithinLimits({ userId, pool, now = new Date() }: { userId: string; pool: LimitPool; now?: Date }): Promise<void> {
  const env = getEnv();
  const p = POOLS[pool];
  const max = env.MAX_CONCURRENT_RUNS_PER_USER;
  let going = await p.running(userId);
  for (const deadline = Date.now() + ENDING_WAIT_MS; going.total >= max && going.total - going.ending < max && Date.now() < deadline; ) {
    await sleep(ENDING_POLL_MS);
    going = await p.running(userId);
  }
  const running = going.total;
  if (running >= max) {
    const retryAfterSeconds = await p.slotFreesIn(userId, now);
    throw new AppError(
      "rate_limit:concurrent_runs",
      `You already have ${running} ${p.noun} running (the limit is ${env.MAX_CONCURRENT_RUNS_PER_USER}). Wait for one to finish or cancel one, then try again.`,
      { retryAfterSeconds },
    );
  }
  const since = new Date(now.getTime() - HOUR_MS);
  const recent = (await p.startTimes(userId, since, env.RATE_LIMIT_STARTS_PER_HOUR)).slice(0, env.RATE_LIMIT_STARTS_PER_HOUR);
  if (recent.length >= env.RATE_LIMIT_STARTS_PER_HOUR) {
    throw hourlyLimit(p.startsCode, `You have ${p.started(env.RATE_LIMIT_STARTS_PER_HOUR)} in the last hour, the limit.`, recent[0], now);
  }
}

/** A 429 whose Retry-After is when the oldest start in the hour's window leaves it (a slot frees). */
function hourlyLimit(code: ErrorCode, message: string, oldest: Date, now: Date): AppError {
  const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000));
  const minutes = Math.ceil(retryAfter / 60);
  return new AppError(code, `${message} Try again in about ${minutes} minute${minutes === 1 ? "" : "s"}.`, { retryAfterSeconds: retryAfter });
}

const globalForLocks = globalThis as unknown as { quarryStartLocks?: Map<string, Promise<unknown>> };
const locks = (globalForLocks.quarryStartLocks ??= new Map());

/** How long a start may hold the lock (a holder that crashed frees it after this), and wait for it. */
const LOCK_LEASE_MS = 15_000;
const LOCK_WAIT_MS = 10_000;

/** Runs `fn` holding the user's start lock in the database, waiting for another holder to finish. */
async function withDatabaseLock<T>(userId: string, fn: () => Promise<T>): Promise<T> {
  const owner = randomUUID();
  const deadline = Date.now() + LOCK_WAIT_MS;
  while (!(await acquireUserStartLock({ userId, owner, leaseMs: LOCK_LEASE_MS }))) {
    if (Date.now() > deadline) {
      throw new AppError("rate_limit:start_busy", "Another start of yours is still being processed. Try again in a moment.", { retryAfterSeconds: 5 });
    }
    await sleep(20 + Math.random() * 30);
  }
  try {
    return await fn();
  } finally {
    await releaseUserStartLock({ userId, owner });
  }
}

/**
 * Runs `fn` after the user's previous guarded call in this process has settled (no polling for the
 * common case), holding the user's start lock in the database (for other processes).
 */
async function withUserStartLock<T>(userId: string, fn: () => Promise<T>): Promise<T> {
  const previous = locks.get(userId) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(() => withDatabaseLock(userId, fn));
  locks.set(userId, current);
  try {
    return await current;
  } finally {
    if (locks.get(userId) === current) locks.delete(userId);
  }
}

/**
 * Checks the pool's limits and starts the run under the user's lock. `start` must have recorded the
 * start (running, with its start time) in the database before it resolves. `existing`, asked first
 * under the same lock, finds a start this request repeats (an idempotent retry): it is returned as is.
 */
export function startWithinLimits<T>({ userId, pool, start, existing }: { userId: string; pool: LimitPool; start: () => Promise<T>; existing?: () => Promise<T | null> }): Promise<T> {
  return withUserStartLock(userId, async () => {
    // A retry of a start already made joins it: no new start, so no limit applies.
    const joined = await existing?.();
    if (joined) return joined;
    // Queue mode with Redis unreachable: a 503 now, with nothing stored (the error made here: the
    // registry's code may be another bundle's, whose AppError the route would not recognise).
    if (!(await runRegistry.canStartNow())) {
      throw new AppError("unavailable:queue", "The run queue (Redis) cannot be reached: nothing was started. Try again in a few seconds.", { retryAfterSeconds: QUEUE_RETRY_AFTER_SECONDS });
    }
    await assertWithinLimits({ userId, pool });
    return start();
  });
}

/**
 * A planning call not ended after this long is not counted as in flight: its process died. Longer
 * than any such request runs (a plan may be asked twice when its output does not parse, each call
 * with its timeout and retries within the retry budget).
 */
function planningStaleMs(): number {
  const env = getEnv();
  return 2 * (env.LLM_TIMEOUT_MS + env.LLM_RETRY_BUDGET_MS);
}

/** Throws a 429 (with Retry-After) when the user may not make another planning call now. */
export async function assertPlanningWithinLimits({ userId, now = new Date() }: { userId: string; now?: Date }): Promise<void> {
  const env = getEnv();
  const inFlight = await countPlanningCallsInFlight({ userId, since: new Date(now.getTime() - planningStaleMs()) });
  if (inFlight >= env.MAX_CONCURRENT_PLANNING_CALLS_PER_USER) {
    throw new AppError(
      "rate_limit:concurrent_planning_calls",
      `You already have ${inFlight} questions or plans being written (the limit is ${env.MAX_CONCURRENT_PLANNING_CALLS_PER_USER}). Wait for one to finish, then try again.`,
      { retryAfterSeconds: 10 },
    );
  }
  const max = env.RATE_LIMIT_PLANNING_CALLS_PER_HOUR;
  const recent = await listPlanningCallStartTimes({ userId, since: new Date(now.getTime() - HOUR_MS), limit: max });
  if (recent.length >= max) {
    throw hourlyLimit("rate_limit:planning_calls", `You have asked for ${max} sets of questions or plans in the last hour, the limit.`, recent[0], now);
  }
}

export interface PlanningCallScope {
  /** Records one LLM call's tokens against the user (pass it as the agent's onUsage). */
  onUsage: UsageSink;
  /** The draft or session the call was for, once it exists. */
  setSubject(id: string): void;
}

/**
 * Runs a planning call within the user's limits: checks them and records the call under the user's
 * start lock (so simultaneous requests cannot both take the last slot), then runs `fn` outside it
 * (an LLM call takes seconds) with a usage sink that adds each LLM call's tokens to the record.
 */
export async function withinPlanningLimits<T>(
  { userId, kind, subjectId }: { userId: string; kind: PlanningCallKind; subjectId?: string },
  fn: (scope: PlanningCallScope) => Promise<T>,
): Promise<T> {
  const call = await withUserStartLock(userId, async () => {
    await assertPlanningWithinLimits({ userId });
    return insertPlanningCall({ userId, kind, subjectId });
  });
  let subject = subjectId;
  try {
    return await fn({ onUsage: (t) => addPlanningCallUsage(call.id, t), setSubject: (id) => void (subject = id) });
  } finally {
    // The call's outcome (or error) is the caller's answer: a failed bookkeeping write is only logged,
    // and the row then stops counting as in flight after planningStaleMs.
    await endPlanningCall({ id: call.id, subjectId: subject }).catch((error: unknown) => console.error(`[quarry] planning call ${call.id} could not be closed:`, error));
  }
}

/** A knowledge-base limit: in flight at once and per hour, the 429's codes, and what is counted. */
interface KnowledgeLimit {
  concurrent: number;
  perHour: number;
  /** "collection searches", "uploads". */
  noun: string;
  concurrentCode: ErrorCode;
  hourlyCode: ErrorCode;
  /** Seconds until one in flight is likely to have ended (the busy 429's Retry-After). */
  endsWithinSeconds: number;
}

function knowledgeLimit(kind: KnowledgeCallKind): KnowledgeLimit {
  const env = getEnv();
  return kind === "knowledge-search"
    ? {
        concurrent: env.MAX_CONCURRENT_KNOWLEDGE_SEARCHES_PER_USER,
        perHour: env.RATE_LIMIT_KNOWLEDGE_SEARCHES_PER_HOUR,
        noun: "collection searches",
        concurrentCode: "rate_limit:concurrent_knowledge_searches",
        hourlyCode: "rate_limit:knowledge_searches",
        endsWithinSeconds: 2,
      }
    : {
        concurrent: env.MAX_CONCURRENT_UPLOADS_PER_USER,
        perHour: env.RATE_LIMIT_UPLOADS_PER_HOUR,
        noun: "uploads or re-indexes",
        concurrentCode: "rate_limit:concurrent_uploads",
        hourlyCode: "rate_limit:uploads",
        endsWithinSeconds: 10,
      };
}

/** Throws a 429 (with Retry-After) when the user may not begin another piece of this kind of knowledge work now. */
export async function assertKnowledgeWithinLimits({ userId, kind, now = new Date() }: { userId: string; kind: KnowledgeCallKind; now?: Date }): Promise<void> {
  const limit = knowledgeLimit(kind);
  const inFlight = await countPlanningCallsInFlight({ userId, since: new Date(now.getTime() - planningStaleMs()), kinds: [kind] });
  if (inFlight >= limit.concurrent) {
    throw new AppError(
      limit.concurrentCode,
      `You already have ${inFlight} ${limit.noun} under way (the limit is ${limit.concurrent}). Wait for one to finish, then try again.`,
      { retryAfterSeconds: limit.endsWithinSeconds },
    );
  }
  const recent = await listPlanningCallStartTimes({ userId, since: new Date(now.getTime() - HOUR_MS), limit: limit.perHour, kinds: [kind] });
  if (recent.length >= limit.perHour) {
    throw hourlyLimit(limit.hourlyCode, `You have made ${limit.perHour} ${limit.noun} in the last hour, the limit.`, recent[0], now);
  }
}

/**
 * Checks the user's limits for this kind of knowledge work and records it (its row, counted as in
 * flight until `endPlanningCall`) under the user's start lock, so that simultaneous requests cannot
 * both take the last slot. The row then carries the work's embedding usage.
 */
export function beginKnowledgeWork({ userId, kind, subjectId }: { userId: string; kind: KnowledgeCallKind; subjectId?: string }): Promise<{ id: string }> {
  return withUserStartLock(userId, async () => {
    await assertKnowledgeWithinLimits({ userId, kind });
    return insertPlanningCall({ userId, kind, subjectId });
  });
}
