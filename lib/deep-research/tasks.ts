// Executing a level's tasks, in parallel; each records its own start, end, output, artifacts and
// error, and one failing does not stop the others. A LITERATURE task explores a tree on a hidden
// child research (resumable: a re-run goes on from what that research holds) and summarises what it
// extracted, citing the stored snippets. An ANALYSIS task runs the analysis agent over the loaded
// datasets it names (all of them when it names none that loaded) in the read-only sandbox and stores
// every query with its result as the task's artifacts; with no loaded data it is recorded as skipped
// with the reason, never faked.
import { analyseDatasets } from "./agents/analysis";
import { summariseLiterature } from "./agents/literature-summary";
import { datasetEntries } from "../db/datasets";
import { openSandbox } from "./datasets";
import { datasetsOfTask } from "./task-datasets";
import { errorMessage } from "../errors";
import { getConversation } from "../db/conversations";
import { childResearchOf, finishChildResearch, itemsOfResearches, tasksOf, updateTask, type ResearchTask } from "../db/research-tasks";
import { exploreTree } from "../explore/explore";
import { parseSources } from "../knowledge/sources";
import type { DrContext } from "./context";
import { parseJson } from "../db/json";
import { taskView } from "./views";

/** A task in one of these has ended. */
export const TERMINAL = new Set(["completed", "failed", "skipped"]);

/** Runs every unfinished task of the level here; resolves when all have ended. */
export async function executeLevel(ctx: DrContext, level: number): Promise<void> {
  const tasks = (await tasksOf(ctx.conversationId, level)).filter((t) => !TERMINAL.has(t.status));
  await Promise.all(tasks.map((t) => runTask(ctx, t)));
  ctx.check();
}

async function save(ctx: DrContext, task: ResearchTask, patch: Parameters<typeof updateTask>[1]): Promise<ResearchTask> {
  const updated = await updateTask(task.id, patch);
  ctx.emit("task", taskView(updated));
  return updated;
}

/** One task to its end (queue mode: in its own job, lib/deep-research/distributed.ts). */
export async function runTask(ctx: DrContext, task: ResearchTask): Promise<void> {
  try {
    task = await save(ctx, task, (t) => ({ status: "running", startedAt: t.startedAt ?? new Date() }));
    const patch = task.type === "LITERATURE" ? await literature(ctx, task) : await analysis(ctx, task);
    // A task's end is a compare-and-set from a running state (the versioned write): an end already
    // recorded (by a process that took the run over) stands.
    await save(ctx, task, (t) => (TERMINAL.has(t.status) ? null : { ...patch, endedAt: new Date(), error: patch.error ?? null }));
  } catch (error) {
    // A cancel or a lost lease is not this task's failure: it stays running and is resumed.
    if (ctx.signal.aborted) return;
    await save(ctx, task, (t) => (TERMINAL.has(t.status) ? null : { status: "failed", error: errorMessage(error), endedAt: new Date() })).catch(() => {});
  }
}

type Outcome = { status: "completed" | "skipped" | "failed"; output: string; artifacts?: string; error?: string | null };

async function literature(ctx: DrContext, task: ResearchTask): Promise<Outcome> {
  const researchId = await childResearchOf(task.id, {
    userId: ctx.userId, conversationId: ctx.conversationId, parentRunId: ctx.run.id, prompt: task.objective,
    depth: ctx.env.LITERATURE_TREE_DEPTH, breadth: ctx.env.LITERATURE_TREE_BREADTH,
  });
  if (researchId !== task.childResearchId) task = await save(ctx, task, () => null);
  const categories = ctx.env.LITERATURE_SEARXNG_CATEGORIES.split(",").map((c) => c.trim()).filter(Boolean);
  const sources = parseSources((await getConversation({ id: ctx.conversationId }))?.sources);
  try {
    // The tree's own events stay with the child research: the conversation's stream shows the task.
    await exploreTree({
      scope: {
        researchId, prompt: task.objective, qa: [], depth: ctx.env.LITERATURE_TREE_DEPTH, breadth: ctx.env.LITERATURE_TREE_BREADTH, categories,
        analyzeConcurrency: ctx.env.LITERATURE_ANALYZE_CONCURRENCY, sources, userId: ctx.userId,
      },
      sink: { emit: () => {} },
      signal: ctx.signal,
      leaseLost: () => ctx.run.leaseLost,
    });
  } catch (error) {
    if (!ctx.signal.aborted) await finishChildResearch(researchId, "failed", errorMessage(error));
    throw error;
  }
  await finishChildResearch(researchId, "completed", null);
  const items = (await itemsOfResearches([researchId])).map((i) => ({ id: i.id, taskKey: task.taskKey, content: i.content, url: i.url }));
  if (items.length === 0) {
    return { status: "completed", output: "The literature search found no usable sources for this objective.", artifacts: JSON.stringify({ childResearchId: researchId, itemCount: 0, citedItems: [] }) };
  }
  const { summary, citedItemIds } = await summariseLiterature({ objective: task.objective, items, budgetTokens: ctx.budgetOf("CONTEXT_TOKEN_BUDGET"), signal: ctx.signal, onUsage: ctx.usage });
  const urls = new Map(items.map((i) => [i.id, i.url]));
  return {
    status: "completed",
    output: summary,
    artifacts: JSON.stringify({ childResearchId: researchId, itemCount: items.length, citedItems: citedItemIds.map((itemId) => ({ itemId, url: urls.get(itemId) })) }),
  };
}

async function analysis(ctx: DrContext, task: ResearchTask): Promise<Outcome> {
  const conversation = await getConversation({ id: ctx.conversationId });
  const entries = datasetEntries(conversation?.uploadedDatasets);
  const chosen = datasetsOfTask(entries, parseJson<string[]>(task.datasetFilenames, []));
  if (!chosen.ok) return skipped(chosen.reason);
  const datasets = chosen.datasets.map((e) => ({ table: e.table!, filename: e.filename, rowCount: e.rowCount ?? 0, columns: e.columns ?? [], description: e.description ?? null }));
  const sandbox = await openSandbox(ctx);
  let result: Awaited<ReturnType<typeof analyseDatasets>>;
  try {
    result = await analyseDatasets({
      objective: task.objective, context: await ctx.context(task.level, Math.floor(ctx.budgetOf("CONTEXT_TOKEN_BUDGET") / 2)), datasets,
      runQuery: (sql) => sandbox.query(sql), maxSteps: ctx.env.ANALYSIS_MAX_STEPS, budgetTokens: Math.floor(ctx.budgetOf("CONTEXT_TOKEN_BUDGET") / 2),
      signal: ctx.signal, onUsage: ctx.usage,
    });
  } finally {
    sandbox.close();
  }
  const artifacts = JSON.stringify({
    kind: "analysis", datasets: datasets.map((d) => ({ filename: d.filename, table: d.table })), queries: result.queries, chart: result.chart,
    repairs: result.repairs, removedSentences: result.removedSentences,
  });
  if (!result.output) {
    const error = `The analysis wrote no output supported by its query results within ${ctx.env.ANALYSIS_MAX_STEPS} steps (${result.queries.length} queries run).`;
    return { status: "failed", output: error, artifacts, error };
  }
  return { status: "completed", output: result.output, artifacts };
}

function skipped(reason: string): Outcome {
  return { status: "skipped", output: reason, error: reason };
}
