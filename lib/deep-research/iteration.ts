// One iteration of the loop, phase by phase, in the order. The start's message records the
// phase reached; each phase saves its result and moves the message on with a compare-and-set, so a
// run resumed after a crash continues at the first unfinished phase and repeats no saved step.
import { decideContinue, type ContinueDecision } from "./agents/continue";
import { findDiscoveries } from "./agents/discovery";
import { formHypothesis } from "./agents/hypothesis";
import { planTasks } from "./agents/planning";
import type { PlannedDataset } from "./agents/common";
import { datasetEntries } from "../db/datasets";
import { reflect } from "./agents/reflection";
import { NO_SNIPPETS_CITED, writeReply } from "./agents/reply";
import { languageProblem } from "../ai/language";
import { advanceMessage, getConversation, messagesOf, saveReply, setMessageContent, updateConversation, type ConversationMessage } from "../db/conversations";
import { applyDiscoveryChanges, discoveriesOf } from "../db/discoveries";
import { createLevelTasks, itemsOfResearches, tasksOf, type TaskDraft } from "../db/research-tasks";
import type { DrContext } from "./context";
import { parseJson } from "../db/json";
import { executeLevel } from "./tasks";
import { drTaskQueue, lookAtLevelOnWorkers } from "./distributed";
import { prepareDatasets } from "./datasets";
import { analysisItems } from "./analysis-evidence";
import { discoveryViews } from "./snapshot";
import { messageView, taskView } from "./views";
import { checkWhileWritten, citeSnippets, verifiedWriteUp, writeUpSources } from "./write-up";
import type { ReplyDelta } from "./events";
import { appendDraft, endDraft, startDraft } from "./drafts";
import { citedSourceCount } from "../report-citations";

/** Fully-autonomous runs stop here whatever the continue agent says. */
export const FULLY_AUTONOMOUS_CAP = 20;

export function iterationCap(mode: string, maxAuto: number): number {
  return mode === "steering" ? 1 : mode === "fully-autonomous" ? FULLY_AUTONOMOUS_CAP : maxAuto;
}

type Step = (ctx: DrContext, m: ConversationMessage) => Promise<"parked" | void>;

/** Runs the phase the message is at, saving its result and moving the message to the next phase. */
/** Runs the message's phase; "parked" when its work goes on elsewhere (queue mode: the level's tasks on the workers). */
export async function runPhase(ctx: DrContext, m: ConversationMessage): Promise<"parked" | void> {
  const step = STEPS[m.phase ?? "plan"];
  if (!step) throw new Error(`Unknown phase ${m.phase}`);
  ctx.emit("phase", { messageId: m.id, iteration: m.iteration, level: m.level, phase: m.phase, phaseStartedAt: m.phaseStartedAt });
  return step(ctx, m);
}

async function move(ctx: DrContext, m: ConversationMessage, phase: string, extra: Partial<ConversationMessage> = {}) {
  await advanceMessage(m.id, { phase: m.phase!, iteration: m.iteration }, { phase, ...extra });
}

const plan: Step = async (ctx, m) => {
  // Uploaded files are loaded and profiled first, so that planning sees their tables.
  await prepareDatasets(ctx);
  const c = (await getConversation({ id: ctx.conversationId }))!;
  const level = c.currentLevel + 1;
  const max = ctx.env.MAX_TASKS_PER_ITERATION;
  const clarified = parseJson<{ objective: string; tasks: TaskDraft[] } | null>(c.clarificationContext, null);
  let drafts: TaskDraft[];
  if (m.iteration === 1 && m.clarificationSessionId && clarified?.tasks.length) {
    // The approved plan replaces planning on the first iteration.
    drafts = clarified.tasks.slice(0, max);
  } else if (m.iteration > 1) {
    // The loop continues on its own: the previous level's suggestions are this level's tasks.
    drafts = parseJson<TaskDraft[]>(c.suggestedNextSteps, []).slice(0, max);
  } else {
    drafts = await planTasks({ context: await ctx.context(c.currentLevel, 300), maxTasks: max, userMessage: m.content, mode: "initial", datasets: loadedDatasets(c.uploadedDatasets), signal: ctx.signal, onUsage: ctx.usage });
  }
  // A plan with nothing in it still searches the objective: an iteration without tasks learns nothing.
  if (drafts.length === 0) drafts = [{ type: "LITERATURE", objective: c.currentObjective ?? c.objective }];
  ctx.check();
  const created = await createLevelTasks(ctx.conversationId, level, drafts, { messageId: m.id, iteration: m.iteration });
  for (const t of created ?? []) ctx.emit("task", taskView(t));
  await ctx.emitState();
};

/** The datasets that loaded, in upload order: the planner offers them as D1, D2 … */
function loadedDatasets(uploadedDatasets: string | null): PlannedDataset[] {
  return datasetEntries(uploadedDatasets).flatMap((e) => (e.status === "loaded" && e.table ? [{ filename: e.filename, table: e.table, rowCount: e.rowCount, columns: e.columns }] : []));
}

const execute: Step = async (ctx, m) => {
  // Queue mode: each task is a job of its own, on whichever worker is free; the run's job parks while they work.
  const tasks = drTaskQueue();
  if (tasks) {
    if ((await lookAtLevelOnWorkers(ctx, m.level, tasks, { replaceEnded: !ctx.run.continued })) === "parked") return "parked";
  } else await executeLevel(ctx, m.level);
  await move(ctx, m, "hypothesis");
};

const hypothesis: Step = async (ctx, m) => {
  const tasks = await tasksOf(ctx.conversationId);
  const h = await formHypothesis({ context: await ctx.context(m.level), knownTaskIds: tasks.map((t) => t.taskKey), signal: ctx.signal, onUsage: ctx.usage });
  ctx.check();
  await updateConversation(ctx.conversationId, () => ({ currentHypothesis: JSON.stringify({ ...h, level: m.level }) }));
  await ctx.emitState();
  await move(ctx, m, "reflect");
};

/** Reflection and discovery run in parallel; each saves its own result once per level. */
const reflectAndDiscover: Step = async (ctx, m) => {
  const c = (await getConversation({ id: ctx.conversationId }))!;
  await Promise.all([c.reflectedLevel < m.level ? reflection(ctx, m.level) : null, c.discoveredLevel < m.level ? discovery(ctx, m.level) : null]);
  ctx.check();
  await move(ctx, m, "next");
};

async function reflection(ctx: DrContext, level: number) {
  const r = await reflect({ context: await ctx.context(level), signal: ctx.signal, onUsage: ctx.usage });
  ctx.check();
  await updateConversation(ctx.conversationId, (c) =>
    c.reflectedLevel >= level
      ? null
      : {
          conversationTitle: r.conversationTitle,
          evolvingObjective: r.evolvingObjective,
          currentObjective: r.currentObjective,
          methodology: r.methodology,
          keyInsights: JSON.stringify([...parseJson<string[]>(c.keyInsights, []), ...r.keyInsights]),
          reflectedLevel: level,
        },
  );
  await ctx.emitState();
}

async function discovery(ctx: DrContext, level: number) {
  const tasks = await tasksOf(ctx.conversationId);
  const levelTasks = tasks.filter((t) => t.level === level && t.childResearchId);
  const byResearch = new Map(levelTasks.map((t) => [t.childResearchId!, t.taskKey]));
  const items = [
    ...analysisItems(tasks.filter((t) => t.level === level)),
    ...(await itemsOfResearches([...byResearch.keys()])).map((i) => ({ id: i.id, taskKey: byResearch.get(i.researchId)!, content: i.content, url: i.url })),
  ];
  const existing = (await discoveriesOf(ctx.conversationId)).map((d) => ({ key: d.key, claim: d.claim, confidence: d.confidence, status: d.status }));
  const budget = ctx.budgetOf("CONTEXT_TOKEN_BUDGET");
  // Half the budget for the world view, the rest for this level's snippets.
  const result = await findDiscoveries({
    context: await ctx.context(level, Math.floor(budget / 2)), items, existing, itemBudgetTokens: Math.floor(budget / 2),
    knownTaskIds: tasks.map((t) => t.taskKey), signal: ctx.signal, onUsage: ctx.usage,
  });
  ctx.check();
  if (result.droppedItemIds.length || result.unlinked.length || result.rejected.length || result.relinked.length) {
    console.warn(`[quarry] conversation ${ctx.conversationId} level ${level}: dropped ${result.droppedItemIds.length} evidence id(s) naming no snippet, kept ${result.unlinked.length} discovery(ies) without linked evidence, linked ${result.relinked.length} to the snippets holding their numbers, rejected ${result.rejected.length} stating numbers no result holds`);
  }
  if (await applyDiscoveryChanges(ctx.conversationId, level, result.changes)) {
    for (const d of await discoveryViews(ctx.conversationId)) ctx.emit("discovery", d);
  }
}

const next: Step = async (ctx, m) => {
  const c = (await getConversation({ id: ctx.conversationId }))!;
  const steps = await planTasks({ context: await ctx.context(m.level, 300), maxTasks: ctx.env.MAX_TASKS_PER_ITERATION, mode: "next", datasets: loadedDatasets(c.uploadedDatasets), signal: ctx.signal, onUsage: ctx.usage });
  ctx.check();
  await updateConversation(ctx.conversationId, () => ({ suggestedNextSteps: JSON.stringify(steps) }));
  await ctx.emitState();
  await move(ctx, m, "continue");
};

const decide: Step = async (ctx, m) => {
  const c = (await getConversation({ id: ctx.conversationId }))!;
  const mode = m.researchMode ?? c.researchMode;
  const cap = iterationCap(mode, ctx.env.MAX_AUTO_ITERATIONS);
  const steps = parseJson<unknown[]>(c.suggestedNextSteps, []);
  let decision: ContinueDecision;
  if (steps.length === 0) decision = { shouldContinue: false, confidence: "high", reasoning: "No next steps were suggested: the objective is met.", triggerReason: "objective_met" };
  else if (mode === "steering") decision = { shouldContinue: false, confidence: "high", reasoning: "Steering mode waits for the user after every iteration.", triggerReason: "steering" };
  else if (m.iteration >= cap) decision = { shouldContinue: false, confidence: "high", reasoning: `The limit of ${cap} iterations per start is reached.`, triggerReason: "iteration_cap" };
  else decision = await decideContinue({ context: await ctx.context(m.level, 100), iteration: m.iteration, maxIterations: cap, signal: ctx.signal, onUsage: ctx.usage });
  ctx.check();
  await move(ctx, m, "reply", { state: JSON.stringify({ ...parseJson<object>(m.state, {}), decision }) });
};

const reply: Step = async (ctx, m) => {
  const decision = parseJson<{ decision?: ContinueDecision }>(m.state, {}).decision;
  const continuing = Boolean(decision?.shouldContinue);
  // The last reply of a start is its write-up: it cites the stored snippets, and is verified next,
  // its parts while it is written.
  const sources = continuing ? null : await writeUpSources(ctx.conversationId, Math.floor(ctx.budgetOf("CONTEXT_TOKEN_BUDGET") / 2));
  const c = (await getConversation({ id: ctx.conversationId }))!;
  const checks = sources ? checkWhileWritten(ctx, m.id, sources, c.currentObjective ?? c.objective) : null;
  let content: string;
  try {
    const context = await ctx.context(m.level, sources ? Math.floor(ctx.budgetOf("CONTEXT_TOKEN_BUDGET") / 2) : 0);
    // Shown as it is written; an attempt's first piece has offset 0 (a client drops what an earlier attempt sent).
    let draft = startDraft(ctx.conversationId, m.id);
    /** Why the attempt starts over, told with its first piece. */
    let restartNote: string | undefined;
    // Written again (the server cut its prompt, or it cited nothing): a new attempt, its first piece at offset 0.
    const onRestart = (note?: string) => {
      draft = startDraft(ctx.conversationId, m.id);
      restartNote = note;
      checks?.restart();
    };
    const onDelta = (delta: string) => {
      const offset = draft.text.length;
      appendDraft(ctx.conversationId, draft, delta);
      ctx.emit("reply-delta", { replyToId: m.id, offset, delta, ...(offset === 0 && restartNote ? { note: restartNote } : {}) } satisfies ReplyDelta);
      checks?.push(delta);
    };
    const write = (problem?: string) => writeReply({ context, iteration: m.iteration, continuing, snippets: sources?.text, problem, onDelta, onRestart: () => onRestart(), signal: ctx.signal, onUsage: ctx.usage });
    const cited = (written: string) => (sources ? citeSnippets(written, sources.choices, sources.pages) : written);
    content = cited(await write());
    // A write-up citing none of the snippets it was shown (a small model that let the rule go), or written in
    // another language than the user's: written once more, the model told so; the second stands (its uncited
    // facts are flagged by the verification).
    if (sources) {
      const problems = [
        ...(sources.choices.length > 0 && citedSourceCount(content) === 0 ? [{ log: `the write-up cited none of its ${sources.choices.length} snippets`, told: NO_SNIPPETS_CITED }] : []),
        ...[languageProblem(content, await ctx.language(), "write-up")].filter((p) => p !== null),
      ];
      if (problems.length > 0) {
        console.warn(`[quarry] conversation ${ctx.conversationId}: ${problems.map((p) => p.log).join("; ")}; asking the model to write it again`);
        onRestart(`Written again: ${problems.map((p) => p.log).join("; ")}.`);
        content = cited(await write(problems.map((p) => p.told).join("\n")));
      }
    }
    checks?.end();
    ctx.check();
  } catch (error) {
    checks?.cancel();
    throw error;
  } finally {
    endDraft(ctx.conversationId);
  }
  const nextPatch = continuing ? { phase: "plan", iteration: m.iteration + 1 } : { phase: "verify" };
  const saved = await saveReply({ conversationId: ctx.conversationId, rootId: m.id, iteration: m.iteration, content, suggestedNextSteps: c.suggestedNextSteps, next: nextPatch });
  if (saved) ctx.emit("message", messageView(saved));
};

/** The write-up's citations checked against the pages' stored text; a repair replaces the reply's text. */
const verify: Step = async (ctx, m) => {
  const last = (await messagesOf(ctx.conversationId)).filter((r) => r.role === "assistant" && r.replyToId === m.id).at(-1);
  if (last) {
    const c = (await getConversation({ id: ctx.conversationId }))!;
    const text = await verifiedWriteUp(ctx, last, c.currentObjective ?? c.objective);
    ctx.check();
    if (text !== last.content) ctx.emit("message", messageView(await setMessageContent(last.id, text)));
  }
  await move(ctx, m, "done");
};

const STEPS: Record<string, Step> = { plan, execute, hypothesis, reflect: reflectAndDiscover, next, continue: decide, reply, verify };
