// The datasets an ANALYSIS task analyses, chosen when it runs from what the conversation loaded. The
// plan names them by file name (the planner resolved its handles, agents/common.ts); a plan from
// elsewhere (an approved clarification plan, an older step) may name them its own way, so the names
// are resolved again here. A task that names none that loaded analyses them all rather than nothing;
// with nothing loaded it is skipped, with the reason.
import { choicesOf } from "../ai/resolve";
import type { DatasetEntry } from "../db/datasets";
import { resolveAll } from "./agents/choices";

export type TaskDatasets = { ok: true; datasets: DatasetEntry[] } | { ok: false; reason: string };

export function datasetsOfTask(entries: readonly DatasetEntry[], named: readonly string[]): TaskDatasets {
  if (entries.length === 0) return { ok: false, reason: "No dataset was uploaded, so there is no data to analyse." };
  const loaded = entries.filter((e) => e.status === "loaded" && e.table);
  if (loaded.length === 0) {
    const failed = entries.filter((e) => e.status === "failed").map((e) => e.error);
    return { ok: false, reason: failed.length ? `No uploaded dataset could be loaded: ${failed.join(" ")}` : "No uploaded dataset is loaded yet." };
  }
  const { resolved } = resolveAll(named, choicesOf("D", loaded, (e) => [e.filename, e.table!]), { only: true });
  return { ok: true, datasets: resolved.length ? resolved.map((c) => c.value) : loaded };
}
