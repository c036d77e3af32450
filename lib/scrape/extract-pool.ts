// Page extraction (HTML → text, PDF → text) in a pool of worker processes (lib/sandbox/pool.ts), so
// that a large or hostile page neither stalls the server's event loop (and the progress streams on
// it) nor takes its memory: each process runs under SCRAPE_WORKER_MEMORY_MB, each page under
// SCRAPE_EXTRACT_TIMEOUT_MS, and a page past either fails alone. SCRAPE_WORKERS=0 extracts in process.
import { getEnv } from "@/lib/env";
import { runInSandbox, SandboxLimitError, SandboxPool } from "../sandbox/pool";
import { ScrapeError } from "./errors";
import { extractTask, type ExtractInput, type ExtractOutput } from "./extract-task";

export interface Extracted {
  title: string | null;
  text: string;
  author: string | null;
  published: string | null;
}

const globalForPool = globalThis as unknown as { quarryExtractPool?: SandboxPool; quarryExtractPoolWarm?: Promise<void> };

function pool(): SandboxPool | null {
  const env = getEnv();
  if (env.SCRAPE_WORKERS === 0) return null;
  globalForPool.quarryExtractPool ??= new SandboxPool({
    label: "page extraction",
    worker: "extract",
    size: env.SCRAPE_WORKERS,
    memoryMb: env.SCRAPE_WORKER_MEMORY_MB,
    memorySetting: "SCRAPE_WORKER_MEMORY_MB",
    timeoutMs: env.SCRAPE_EXTRACT_TIMEOUT_MS,
    timeoutSetting: "SCRAPE_EXTRACT_TIMEOUT_MS",
  });
  return globalForPool.quarryExtractPool;
}

/** Extracts a fetched body's text in a worker (or in process without workers). Throws ScrapeError. */
export async function extractInPool(input: ExtractInput, signal?: AbortSignal): Promise<Extracted> {
  const workers = pool();
  let result: ExtractOutput;
  try {
    // The caller stops waiting on abort, but the worker finishes the page (within its limits): a new
    // process costs a second of start-up (the next page's timeout).
    result = workers ? await runInSandbox<ExtractOutput>(workers, "extract", input, { signal }) : await extractTask(input, signal);
  } catch (error) {
    // A page past a worker's limits (memory, time), or a worker that crashed on it, fails that page.
    if (signal?.aborted || !workers) throw error;
    const detail = error instanceof SandboxLimitError ? error.message : error instanceof Error ? error.message.slice(0, 120) : "the worker failed";
    throw new ScrapeError(error instanceof SandboxLimitError && error.limit === "timeout" ? "timeout" : "empty", `Could not extract the page's text: ${detail}`, { cause: error });
  }
  if (!result.ok) throw new ScrapeError(result.reason, result.message);
  return { title: result.title, text: result.text, author: result.author, published: result.published };
}

/**
 * Starts the pool's first process and loads the extractor in it, once per pool: at a process's start
 * (the server, a worker, the CLIs, the MCP server), and before a page's time runs (lib/scrape: the
 * start takes seconds on a busy machine, and used to count in the first pages' SCRAPE_TIMEOUT_MS).
 * Resolves once warm, or failed (logged), within the pool's own time limit.
 */
export function warmExtractPool(): Promise<void> {
  const workers = pool();
  if (!workers) return Promise.resolve();
  return (globalForPool.quarryExtractPoolWarm ??= runInSandbox(workers, "extract", { kind: "html", body: new TextEncoder().encode("<title>warm-up</title><p>Warm-up.</p>"), charset: "utf-8", url: "https://localhost/" } satisfies ExtractInput).then(
    () => undefined,
    (error: unknown) => console.warn(`[quarry] the page extraction workers could not start: ${error instanceof Error ? error.message : String(error)}`),
  ));
}

/** Ends the pool's processes (tests, and processes that end); a page still running in one fails. */
export async function closeExtractPool(): Promise<void> {
  const workers = globalForPool.quarryExtractPool;
  globalForPool.quarryExtractPool = undefined;
  globalForPool.quarryExtractPoolWarm = undefined;
  workers?.close();
}
