// The answer agent as an engine of the run platform: the loop (step.ts) until an accepted answer,
// else beast mode. Every step is stored with the state after it before its event goes out, so a
// run taken over after a crash goes on from its last stored step.
import { parseSources } from "../knowledge/sources";
import { beastAnswer } from "./agents/beast";
import * as store from "../db/answers";
import { getEnv } from "../env";
import { errorMessage } from "../errors";
import { eventBus } from "../events/bus";
import { eventLog } from "../events/log";
import type { Engine, RunHandle, RunOutcome, RunSnapshot } from "../runs/engine";
import { emitOutsideRun } from "../runs/events";
import { getRun, pausedOf } from "../db/runs";
import { checkReferences } from "./attribution";
import { NO_SOURCES_NOTE, withCitationMarkers } from "./citations";
import { cutAtStop, toSentenceEnd } from "./cut";
import { BudgetExhaustedError, DEFAULT_MAX_OUTPUT, TokenBudget } from "./budget";
import { writeFinalAnswer } from "./agents/final";
import { budgetedEmbed } from "./embed";
import { answerTopic, type AnswerEvent, type FinalAnswer, type Trackers } from "./events";
import { beastReason } from "./loop";
import { knowledgeTokens, readPages, runStep, type LoopContext, type StepRecord } from "./step";
import { PURPOSES, zeroUsage, type AnswerState, type Reference, type UsageByPurpose } from "./types";
import { toAnswerView, usageSummary } from "./view";

type Row = NonNullable<Awaited<ReturnType<typeof store.loadAnswerRun>>>;

function parseUsage(json: string): UsageByPurpose {
  const usage = zeroUsage();
  try {
    Object.assign(usage, JSON.parse(json));
  } catch {
    // an unreadable usage column starts from zero
  }
  return usage;
}

export const answerEngine: Engine = {
  kind: "answer",

  async execute(run: RunHandle): Promise<RunOutcome> {
    const row = await store.loadAnswerRun(run.subjectId);
    if (!row) return "failed";
    if (row.status === "completed" || row.status === "failed" || row.status === "cancelled") return row.status;
    await store.markAnswerRunning(row.id);
    const budget = new TokenBudget(row.budget, parseUsage(row.usage), {
      begin: () => store.beginAnswerUsage(row.id),
      settle: (usage, totalTokens) => store.settleAnswerUsage({ id: row.id, usage, totalTokens }),
    }, run.signal);
    const ctx: LoopContext = {
      runId: row.id,
      question: row.question,
      context: row.context,
      state: JSON.parse(row.state) as AnswerState,
      budget,
      pages: (await store.answerPages(row.id)).map((p) => ({ url: p.url, title: p.title, content: p.content })),
      signal: run.signal,
      embed: budgetedEmbed(budget, run.signal),
      sources: parseSources(row.sources),
      userId: row.userId,
    };
    if (ctx.state.step > 0) await logUnloggedSteps(run.id, row.id);
    try {
      const env = getEnv();
      let beast: string | null = null;
      for (;;) {
        run.signal.throwIfAborted();
        beast = beastReason(ctx.state, { maxSteps: env.ANSWER_MAX_STEPS, maxBadAttempt: row.maxBadAttempt });
        if (beast) break;
        const before = structuredClone(budget.usage);
        const result = await runStep(ctx);
        if (result.kind === "beast") {
          beast = result.reason;
          break;
        }
        run.signal.throwIfAborted();
        await recordStep(row, ctx, result.record, before);
        if (result.final) return await finish(row, ctx, result.final, null);
      }
      return await finish(row, ctx, await beastMode(row, ctx, beast), beast);
    } catch (error) {
      // Another process owns the run now: it goes on from the last stored step.
      if (run.leaseLost) return "abandoned";
      await store.saveAnswerUsage({ id: row.id, usage: budget.usage, totalTokens: budget.used }).catch(() => {});
      if (run.signal.aborted) return "cancelled";
      return fail(row, budget, error);
    }
  },

  markCancelled: (answerRunId: string) => store.markAnswerCancelled(answerRunId),

  async announce(answerRunId: string): Promise<void> {
    const row = await store.loadAnswerRun(answerRunId);
    if (row?.status === "cancelled") await emitOutsideRun(answerTopic(answerRunId), { type: "error", data: { message: "Cancelled by the user" } });
  },

  async snapshot(answerRunId: string, userId: string | null): Promise<RunSnapshot<ReturnType<typeof toAnswerView>> | null> {
    const row = await store.loadAnswerRun(answerRunId);
    if (!row || row.userId !== userId) return null;
    const final = row.status === "completed" || row.status === "failed" || row.status === "cancelled";
    return { data: toAnswerView(row, await store.answerSteps(row.id), await getRun({ kind: "answer", subjectId: row.id })), final };
  },

  async announcePause(answerRunId: string): Promise<void> {
    const row = await store.loadAnswerRun(answerRunId);
    if (row?.status !== "running") return;
    const paused = pausedOf(await getRun({ kind: "answer", subjectId: answerRunId }));
    await emitOutsideRun(answerTopic(answerRunId), { type: "paused", data: { paused } });
  },

  // An answer run ends with one answer or one error.
  isFinal: (event) => event.type === "answer" || event.type === "error",
};

function usageDiff(after: UsageByPurpose, before: UsageByPurpose): UsageByPurpose {
  const out = zeroUsage();
  for (const p of PURPOSES) {
    out[p] = { promptTokens: after[p].promptTokens - before[p].promptTokens, completionTokens: after[p].completionTokens - before[p].completionTokens, calls: after[p].calls - before[p].calls };
  }
  return out;
}

/**
 * After a takeover: a step the last owner stored but whose event never reached the event log (it
 * died in the moment between the two) goes out now, with its stored number, before any new step, so
 * that streams following the run from another process see every step once and in order.
 */
async function logUnloggedSteps(runId: string, answerRunId: string): Promise<void> {
  const { seq: logged } = await eventLog().head(runId);
  for (const s of await store.answerStepEventsAfter({ runId: answerRunId, after: logged })) {
    eventBus.emit(answerTopic(answerRunId), { type: "progress", data: { trackers: JSON.parse(s.trackers) as Trackers } }, { runId, seq: s.seq });
  }
}

async function recordStep(row: Row, ctx: LoopContext, record: StepRecord, before: UsageByPurpose): Promise<void> {
  const { state, budget } = ctx;
  const trackers: Trackers = {
    tokenUsage: budget.used,
    tokenBreakdown: Object.fromEntries(PURPOSES.map((p) => [p, budget.usage[p].promptTokens + budget.usage[p].completionTokens])) as Trackers["tokenBreakdown"],
    actionState: record.actionState,
    step: state.step,
    badAttempts: state.badAttempts,
    gaps: [...state.gaps],
  };
  // Numbered first and stored with its number, then emitted: a stream never sees it without one.
  const numbered = eventBus.allocate(answerTopic(row.id));
  await store.saveAnswerStep({
    runId: row.id,
    step: state.step,
    seq: numbered.seq,
    action: record.actionState.action,
    gap: record.gap,
    think: record.actionState.think,
    payload: record.payload,
    usage: usageDiff(budget.usage, before),
    trackers,
    state,
    runUsage: budget.usage,
    totalTokens: budget.used,
  });
  eventBus.emit(answerTopic(row.id), { type: "progress", data: { trackers } }, numbered);
}

/** The final answer from everything known, on the budget's reserve; only verified references stay. */
async function beastMode(row: Row, ctx: LoopContext, reason: string): Promise<{ answer: string; references: Reference[] }> {
  const before = structuredClone(ctx.budget.usage);
  const knowledge = ctx.state.knowledge;
  const r = await beastAnswer({
    question: ctx.question,
    context: ctx.context,
    knowledge,
    pages: readPages(ctx),
    reason,
    knowledgeTokens: knowledgeTokens(ctx.budget, "beast"),
    budget: ctx.budget.guard("beast", 2_000),
    onUsage: ctx.budget.sink("beast"),
    signal: ctx.signal,
  });
  const { verified, problems, reattributed } = checkReferences(r.references, ctx.pages);
  ctx.state.step++;
  await recordStep(row, ctx, { gap: ctx.question, actionState: { action: "answer", think: `Beast mode: ${reason}`, answer: r.answer }, payload: { beast: true, reason, ...r, droppedReferences: problems, reattributed } }, before);
  return { answer: r.answer, references: verified };
}

/**
 * The research's answer in the client's terms (length limit, format, sampling), when it asked for
 * any: one more call on the budget's reserve. A budget too spent for it cuts the answer at the limit.
 */
async function clientAnswer(ctx: LoopContext, final: { answer: string; references: Reference[] }): Promise<{ answer: string; finishReason: "stop" | "length" }> {
  const o = ctx.state.options ?? {};
  // A stop sequence alone needs no rewrite: the answer is cut where it occurs (finish).
  const sampling = [o.temperature, o.topP, o.seed, o.frequencyPenalty, o.presencePenalty].some((v) => v !== undefined);
  if (o.maxAnswerTokens === undefined && !o.format && !sampling) return { answer: final.answer, finishReason: "stop" };
  try {
    return await writeFinalAnswer({
      question: ctx.question,
      answer: final.answer,
      references: final.references,
      maxTokens: o.maxAnswerTokens,
      format: o.format,
      temperature: o.temperature,
      topP: o.topP,
      stop: o.stop,
      seed: o.seed,
      frequencyPenalty: o.frequencyPenalty,
      presencePenalty: o.presencePenalty,
      budget: ctx.budget.guard("beast", o.maxAnswerTokens ?? DEFAULT_MAX_OUTPUT),
      onUsage: ctx.budget.sink("final"),
      signal: ctx.signal,
    });
  } catch (error) {
    if (!(error instanceof BudgetExhaustedError) || o.format) throw error;
    const limit = (o.maxAnswerTokens ?? Infinity) * 4;
    // Cut at the limit here; finish takes a "length" answer back to its last whole sentence.
    return final.answer.length > limit ? { answer: final.answer.slice(0, limit), finishReason: "length" } : { answer: final.answer, finishReason: "stop" };
  }
}

async function finish(row: Row, ctx: LoopContext, research: { answer: string; references: Reference[] }, beast: string | null): Promise<RunOutcome> {
  const { budget, state } = ctx;
  const written = await clientAnswer(ctx, research);
  const format = state.options?.format;
  // The client's stop sequences end the answer where they occur; a text the length limit cut ends
  // with its last whole sentence (a JSON reply stays as the model wrote it, as OpenAI's API gives it).
  const stopped = cutAtStop(written.answer, state.options?.stop);
  const cut = !stopped.stopped && written.finishReason === "length" && !format;
  const final = { answer: cut ? toSentenceEnd(stopped.text) : stopped.text, references: research.references };
  const finishReason = stopped.stopped ? "stop" : written.finishReason;
  const usage = budget.usage;
  const noSources = beast !== null && final.references.length === 0;
  // One citation style, [^n] after the sentence a reference supports; a forced answer without any says
  // so (not one cut to the client's length: noSources says it there). An answer in the client's
  // format (JSON) stays exactly that: its sources are in the references alone.
  const answer = format
    ? final.answer
    : noSources
      ? finishReason === "length" ? final.answer : `${final.answer}\n\n${NO_SOURCES_NOTE}`
      : withCitationMarkers(final.answer, final.references);
  const data: FinalAnswer = {
    requestId: row.requestId,
    ...(finishReason === "length" ? { finishReason: "length" as const } : {}),
    answer,
    references: final.references,
    visitedURLs: state.visited,
    readURLs: state.read,
    usage: usageSummary(usage, row.budget),
    steps: state.step,
    badAttempts: state.badAttempts,
    beastMode: beast,
    noSources,
  };
  const ended = await endRun(row, { status: "completed", answer, references: final.references, usage, totalTokens: budget.used }, { type: "answer", data });
  return ended ? "completed" : "cancelled";
}

async function fail(row: Row, budget: TokenBudget, error: unknown): Promise<RunOutcome> {
  const message = error instanceof BudgetExhaustedError ? `The token budget (${row.budget}) is too small for a final answer` : errorMessage(error);
  if (!(error instanceof BudgetExhaustedError)) console.error(`[quarry] answer run ${row.id} failed:`, error);
  const data = error instanceof BudgetExhaustedError ? { message, code: "budget_too_small" as const } : { message };
  const ended = await endRun(row, { status: "failed", error: message, usage: budget.usage, totalTokens: budget.used }, { type: "error", data });
  return ended ? "failed" : "cancelled";
}

/**
 * Stores the run's end with its final event's number, then emits that event; false (and no event:
 * the cancel's own ends the stream) when a cancel came first.
 */
async function endRun(row: Row, end: Omit<Parameters<typeof store.finishAnswerRun>[0], "id" | "finalSeq">, event: AnswerEvent): Promise<boolean> {
  const numbered = eventBus.allocate(answerTopic(row.id));
  if (!(await store.finishAnswerRun({ id: row.id, ...end, finalSeq: numbered.seq }))) return false;
  eventBus.emit(answerTopic(row.id), event, numbered);
  return true;
}
