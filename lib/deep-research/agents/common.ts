// What every Deep Research agent shares: how it is called, the task types, and the task drafts of
// the planners, whose datasets are chosen by handle (D1, D2 …) among those that exist.
import { z } from "zod";
import { choicesOf, type Choice } from "../../ai/resolve";
import type { UsageSink } from "../../ai/usage";
import { handleField, resolveAll } from "./choices";

export interface AgentCall {
  /** The world state as the engine retrieved it for this step, rendered within CONTEXT_TOKEN_BUDGET. */
  context: string;
  onUsage?: UsageSink;
  signal?: AbortSignal;
}

export const taskType = z.enum(["LITERATURE", "ANALYSIS"]).describe("LITERATURE: search and read published sources; ANALYSIS: analyse an uploaded dataset");

/** A dataset a plan may give an ANALYSIS task: a loaded one (with its table and profile), or one only named so far. */
export interface PlannedDataset {
  filename: string;
  table?: string;
  rowCount?: number;
  columns?: { name: string; type: string }[];
}

/** D1, D2 … for the datasets, in order; a model may also name one by its file or table name. */
export function datasetChoices(datasets: readonly PlannedDataset[]): Choice<PlannedDataset>[] {
  return choicesOf("D", datasets, (d) => [d.filename, ...(d.table ? [d.table] : [])]);
}

const COLUMNS_LISTED = 12;

/** "D1: expr.csv (table expr, 1,200 rows: gene VARCHAR, value DOUBLE)", one line per dataset. */
export function renderDatasetChoices(choices: readonly Choice<PlannedDataset>[]): string {
  return choices.map(({ handle, value: d }) => {
    const columns = (d.columns ?? []).slice(0, COLUMNS_LISTED).map((c) => `${c.name} ${c.type}`).join(", ");
    const more = (d.columns?.length ?? 0) > COLUMNS_LISTED ? ", …" : "";
    const facts = d.table ? ` (table ${d.table}, ${(d.rowCount ?? 0).toLocaleString("en-US")} rows${columns ? `: ${columns}${more}` : ""})` : "";
    return `${handle}: ${d.filename}${facts}`;
  }).join("\n");
}

/**
 * A task draft's schema for one call: with datasets, `datasets` offers their handles; with none, the
 * field is not there at all (nothing to choose, and an enum needs at least one value).
 */
export function taskDraftSchema(datasetHandles: readonly string[]) {
  const base = { type: taskType, objective: z.string().describe("What this task must find out, specific enough to act on alone") };
  if (datasetHandles.length === 0) return z.object(base);
  return z.object({
    ...base,
    datasets: z.array(handleField(datasetHandles, "A dataset's handle")).default([]).describe("For ANALYSIS: the handles of the datasets it analyses (D1, D2 …); empty for LITERATURE"),
  });
}

export type RawTaskDraft = { type: z.infer<typeof taskType>; objective: string; datasets?: string[] };

export interface TaskDraftOut {
  type: z.infer<typeof taskType>;
  objective: string;
  /** For ANALYSIS: the file names of the datasets it analyses. */
  datasetFilenames: string[];
}

/**
 * The drafts to keep: at most `max` with a non-blank objective (counts are enforced here, not trusted
 * to the model), each ANALYSIS task with the datasets it names. One that names none that exist gets
 * them all (with one dataset, that one): degraded to "analyse what there is", never dropped.
 */
export function resolveDrafts(drafts: readonly RawTaskDraft[], datasets: readonly Choice<PlannedDataset>[], max: number): TaskDraftOut[] {
  return drafts
    .map((d) => ({ ...d, objective: d.objective.trim() }))
    .filter((d) => d.objective)
    .slice(0, max)
    .map((d) => {
      if (d.type !== "ANALYSIS") return { type: d.type, objective: d.objective, datasetFilenames: [] };
      const { resolved } = resolveAll(d.datasets ?? [], datasets, { only: true });
      return { type: d.type, objective: d.objective, datasetFilenames: (resolved.length ? resolved : datasets).map((c) => c.value.filename) };
    });
}
