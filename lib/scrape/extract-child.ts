// The page extraction worker process's entry (lib/scrape/extract-pool.ts runs it in a sandbox pool;
// `npm run build` bundles it into .next/quarry/extract-worker.mjs).
import { serveTasks } from "../sandbox/child";
import { extractTask, type ExtractInput } from "./extract-task";

serveTasks({ extract: (input: ExtractInput) => extractTask(input) });
