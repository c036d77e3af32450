// Before a start plans, its uploaded files are loaded into the conversation's DuckDB database and
// profiled, each with a description and, for text not in UTF-8 or with another delimiter, how it was
// read; a file that cannot be loaded keeps its error (naming it and the cause) and the conversation
// goes on without it. Done once per file: a resumed run skips files that have an outcome. The
// database lives beside the uploads, so analysis tasks query it read-only.
import path from "node:path";
import { describeDataset } from "./agents/dataset-description";
import { getConversation } from "../db/conversations";
import { datasetEntries, saveDatasetOutcomes, type DatasetEntry } from "../db/datasets";
import { databasePath, loadDatasets } from "../datasets/load";
import { SandboxProcess, type QuerySandbox } from "../datasets/sandbox-process";
import type { DrContext } from "./context";

export function datasetDir(uploadsDir: string, conversationId: string): string {
  return path.join(uploadsDir, conversationId);
}

export async function prepareDatasets(ctx: DrContext): Promise<void> {
  const c = await getConversation({ id: ctx.conversationId });
  const entries = datasetEntries(c?.uploadedDatasets);
  const pending = entries.filter((e) => !e.status);
  if (pending.length === 0) return;
  const dir = datasetDir(ctx.env.UPLOADS_DIR, ctx.conversationId);
  const results = await loadDatasets({
    dbPath: databasePath(dir),
    files: pending.map((e) => ({ filename: e.filename, path: path.join(dir, e.storedName ?? e.filename) })),
    maxBytes: ctx.env.DATASET_MAX_BYTES,
    memoryLimitMb: ctx.env.ANALYSIS_MEMORY_LIMIT_MB,
    keepTables: entries.flatMap((e) => (e.status === "loaded" && e.table ? [e.table] : [])),
  });
  const outcomes: (Partial<DatasetEntry> & { filename: string })[] = [];
  for (const r of results) {
    if (!r.ok) {
      outcomes.push({ filename: r.filename, status: "failed", error: r.error });
      continue;
    }
    let description: string | null = null;
    try {
      description = await describeDataset({ filename: r.filename, profile: r.profile, signal: ctx.signal, onUsage: ctx.usage });
    } catch (error) {
      // The profile stands without a description; only a stop of the run stops here.
      if (ctx.signal.aborted) throw error;
    }
    const { table, rowCount, columns, preview } = r.profile;
    outcomes.push({ filename: r.filename, status: "loaded", table, rowCount, columns, previewRows: preview, description, loadMs: r.loadMs, readAs: r.readAs });
  }
  ctx.check();
  await saveDatasetOutcomes(ctx.conversationId, outcomes);
  await ctx.emitState();
}

/**
 * The conversation's query sandbox, with the limits of the settings, in a process of its own under
 * an OS memory limit (lib/datasets/sandbox-process.ts): no query can take the server past its budget.
 */
export function openSandbox(ctx: DrContext): Promise<QuerySandbox> {
  const env = ctx.env;
  return SandboxProcess.open(databasePath(datasetDir(env.UPLOADS_DIR, ctx.conversationId)), {
    timeoutMs: env.ANALYSIS_QUERY_TIMEOUT_MS, maxRows: env.ANALYSIS_MAX_ROWS, memoryLimitMb: env.ANALYSIS_MEMORY_LIMIT_MB, threads: env.ANALYSIS_THREADS,
  });
}
