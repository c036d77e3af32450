// What every Deep Research agent shares: how it is called, and the task types.
import { z } from "zod";
import type { UsageSink } from "../../ai/usage";

export interface AgentCall {
  /** The world state as the engine retrieved it for this step, rendered within CONTEXT_TOKEN_BUDGET. */
  context: string;
  onUsage?: UsageSink;
  signal?: AbortSignal;
}

export const taskType = z.enum(["LITERATURE", "ANALYSIS"]).describe("LITERATURE: search and read published sources; ANALYSIS: analyse an uploaded dataset");

export const taskDraft = z.object({
  type: taskType,
  objective: z.string().describe("What this task must find out, specific enough to act on alone"),
  datasetFilenames: z.array(z.string()).default([]).describe("For ANALYSIS: the uploaded files to analyse (empty otherwise)"),
});

export type TaskDraftOut = z.infer<typeof taskDraft>;

/** Keeps at most `max` drafts with a non-blank objective (counts are enforced here, not trusted to the model). */
export function boundDrafts(drafts: TaskDraftOut[], max: number): TaskDraftOut[] {
  return drafts
    .map((d) => ({ ...d, objective: d.objective.trim() }))
    .filter((d) => d.objective)
    .slice(0, max);
}
