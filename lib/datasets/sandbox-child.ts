// The query sandbox's worker process (lib/datasets/sandbox-process.ts runs it in a sandbox pool of
// one; `npm run build` bundles it into .next/quarry/dataset-worker.mjs): one DatasetSandbox, opened
// once and then queried, one query at a time.
import { serveTasks } from "../sandbox/child";
import { DatasetSandbox, type QueryLimits } from "./query";

let sandbox: DatasetSandbox | null = null;

serveTasks({
  open: async (input: { dbPath: string; limits: QueryLimits }) => {
    sandbox = await DatasetSandbox.open(input.dbPath, input.limits);
  },
  query: (sql: string) => {
    if (!sandbox) throw new Error("The sandbox is not open.");
    return sandbox.query(sql);
  },
});
