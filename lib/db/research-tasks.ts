// Query functions for Deep Research tasks. A level's tasks are created once, together with the
// conversation's level (a compare-and-set on currentLevel), so a re-run of planning after a crash
// cannot create them twice. A task's own updates are versioned, so parallel writers lose nothing.
import { db } from "./client";
import type { ResearchTask } from "../generated/prisma/client";

export type { ResearchTask };

export interface TaskDraft {
  type: "LITERATURE" | "ANALYSIS";
  objective: string;
  datasetFilenames?: string[];
}

/** `lit-<level>-<n>` / `ana-<level>-<n>`, numbered per type within the level, so unique per conversation. */
export function taskKeys(level: number, drafts: TaskDraft[]): string[] {
  const counts = { LITERATURE: 0, ANALYSIS: 0 };
  return drafts.map((d) => `${d.type === "LITERATURE" ? "lit" : "ana"}-${level}-${++counts[d.type]}`);
}

/**
 * Creates the level's tasks and moves the conversation to that level, once: returns null when the
 * conversation is no longer at `level - 1` (another attempt planned it already).
 */
export async function createLevelTasks(
  conversationId: string,
  level: number,
  drafts: TaskDraft[],
  /** The start's message moves from planning to execution in the same transaction. */
  advance?: { messageId: string; iteration: number },
): Promise<ResearchTask[] | null> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.conversation.updateMany({ where: { id: conversationId, currentLevel: level - 1 }, data: { currentLevel: level, version: { increment: 1 } } });
    if (count === 0) return null;
    if (advance) {
      await tx.conversationMessage.updateMany({ where: { id: advance.messageId, phase: "plan", iteration: advance.iteration }, data: { phase: "execute", level } });
    }
    const keys = taskKeys(level, drafts);
    const created: ResearchTask[] = [];
    for (const [position, d] of drafts.entries()) {
      created.push(
        await tx.researchTask.create({
          data: { conversationId, taskKey: keys[position], level, position, type: d.type, objective: d.objective, datasetFilenames: JSON.stringify(d.datasetFilenames ?? []) },
        }),
      );
    }
    return created;
  });
}

export async function getTask(id: string) {
  return db.researchTask.findUnique({ where: { id } });
}

export async function tasksOf(conversationId: string, level?: number) {
  return db.researchTask.findMany({
    where: { conversationId, ...(level === undefined ? {} : { level }) },
    orderBy: [{ level: "asc" }, { position: "asc" }],
  });
}

/** The tasks of the most recent `levels` levels up to `upTo`, for bounded prompts. */
export async function recentTasks(conversationId: string, upTo: number, levels: number) {
  return db.researchTask.findMany({
    where: { conversationId, level: { gt: upTo - levels, lte: upTo } },
    orderBy: [{ level: "asc" }, { position: "asc" }],
  });
}

export type TaskPatch = Partial<Pick<ResearchTask, "status" | "output" | "artifacts" | "error" | "childResearchId" | "startedAt" | "endedAt">>;

/** Versioned read-modify-write of one task; `change` returns null to write nothing. */
export async function updateTask(id: string, change: (current: ResearchTask) => TaskPatch | null): Promise<ResearchTask> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const current = await db.researchTask.findUniqueOrThrow({ where: { id } });
    const patch = change(current);
    if (!patch) return current;
    const { count } = await db.researchTask.updateMany({ where: { id, version: current.version }, data: { ...patch, version: { increment: 1 } } });
    if (count === 1) return db.researchTask.findUniqueOrThrow({ where: { id } });
  }
  throw new Error(`Task ${id}: too many concurrent updates`);
}

/** The extracted items of the given child researches: the snippets tasks may cite. */
export async function itemsOfResearches(researchIds: string[]) {
  if (researchIds.length === 0) return [];
  return db.extractedItem.findMany({
    where: { researchId: { in: researchIds } },
    select: { id: true, content: true, url: true, researchId: true },
    orderBy: [{ createdAt: "asc" }, { position: "asc" }],
  });
}

export async function itemsById(ids: string[]) {
  if (ids.length === 0) return [];
  return db.extractedItem.findMany({ where: { id: { in: ids } }, select: { id: true, content: true, url: true, researchId: true } });
}

/**
 * The hidden research a literature task explores (not in the history, no tree run of its own),
 * created and linked to the task in one transaction: a crash cannot leave one unlinked, and a
 * re-run finds the one already linked.
 */
export async function childResearchOf(taskId: string, data: { userId: string; conversationId: string; parentRunId: string | null; prompt: string; depth: number; breadth: number }): Promise<string> {
  const linked = async () => (await db.researchTask.findUniqueOrThrow({ where: { id: taskId } })).childResearchId;
  const existing = await linked();
  if (existing) return existing;
  try {
    return await db.$transaction(async (tx) => {
      const child = await tx.research.create({
        data: {
          userId: data.userId, conversationId: data.conversationId, parentRunId: data.parentRunId, initialPrompt: data.prompt,
          depth: data.depth, breadth: data.breadth, status: "running", startedAt: new Date(),
        },
      });
      // Linked only if no other attempt linked one first (on PostgreSQL this waits for it and re-checks).
      const { count } = await tx.researchTask.updateMany({ where: { id: taskId, childResearchId: null }, data: { childResearchId: child.id, version: { increment: 1 } } });
      if (count === 0) throw new LinkedElsewhere();
      return child.id;
    });
  } catch (error) {
    // The losing attempt's research was rolled back with its transaction.
    if (!(error instanceof LinkedElsewhere)) throw error;
    return (await linked())!;
  }
}

class LinkedElsewhere extends Error {}

export async function finishChildResearch(id: string, status: "completed" | "failed", error: string | null) {
  await db.research.updateMany({ where: { id }, data: { status, error, completedAt: new Date() } });
}
