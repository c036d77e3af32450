// Page extraction (HTML → text, PDF → text) in a pool of worker threads, so that a large page does
// not stall the server's event loop (and the progress streams on it). SCRAPE_WORKERS=0 extracts in
// process.
import fs from "node:fs";
import path from "node:path";
import { Piscina } from "piscina";
import { getEnv } from "@/lib/env";
import { raceAbort } from "./abort";
import { ScrapeError } from "./errors";
import { extractTask, type ExtractInput } from "./extract-task";

export interface Extracted {
  title: string | null;
  text: string;
  author: string | null;
  published: string | null;
}

// Resolved from the project's directory, not from this module: in the Next build this module is a
// bundled chunk. The built server's threads load the worker that `npm run build` bundled beside the
// build (scripts/build-extract-worker.mjs); running from sources (tsx: tests, `npm run worker`), or
// with a build made without that step, they load the TypeScript through tsx (see the worker's header).
const BUNDLED_WORKER = path.join(process.cwd(), ".next", "quarry", "extract-worker.mjs");
const SOURCE_WORKER = path.join(process.cwd(), "lib", "scrape", "extract-worker.mjs");

/** The file the extraction threads load (exported for its test). */
export function extractWorkerFile(): string {
  if (process.env.NEXT_RUNTIME !== "nodejs") return SOURCE_WORKER;
  if (fs.existsSync(BUNDLED_WORKER)) return BUNDLED_WORKER;
  console.warn("[quarry] .next/quarry/extract-worker.mjs is missing (build with `npm run build`): page extraction threads compile the sources instead");
  return SOURCE_WORKER;
}

const globalForPool = globalThis as unknown as { quarryExtractPool?: Piscina };

function pool(): Piscina | null {
  const threads = getEnv().SCRAPE_WORKERS;
  if (threads === 0) return null;
  globalForPool.quarryExtractPool ??= new Piscina({
    filename: extractWorkerFile(),
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: 30_000,
    // A page that blows up a worker's heap fails that page, not the server.
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  return globalForPool.quarryExtractPool;
}

/** Extracts a fetched body's text in a worker (or in process without workers). Throws ScrapeError. */
export async function extractInPool(input: ExtractInput, signal?: AbortSignal): Promise<Extracted> {
  const workers = pool();
  let result: Awaited<ReturnType<typeof extractTask>>;
  try {
    // The caller stops waiting on abort, but the worker finishes the page: piscina would end the
    // thread of an aborted task, and a new thread costs seconds of start-up (the next page's timeout).
    result = workers
      ? await raceAbort(workers.run(input, { transferList: [input.body.buffer as ArrayBuffer] }), signal)
      : await extractTask(input, signal);
  } catch (error) {
    // A worker that died on the page (out of memory, a crash) fails that page, as a scrape failure.
    if (signal?.aborted || !workers) throw error;
    throw new ScrapeError("empty", `Could not extract the page's text: ${error instanceof Error ? error.message.slice(0, 120) : "the worker failed"}`, { cause: error });
  }
  if (!result.ok) throw new ScrapeError(result.reason, result.message);
  return { title: result.title, text: result.text, author: result.author, published: result.published };
}

/**
 * Starts the pool's first thread and loads the extractor in it, so that the first page does not wait
 * for it (seconds, counted in that page's SCRAPE_TIMEOUT_MS). Resolves once warm, or failed (logged).
 */
export async function warmExtractPool(): Promise<void> {
  await pool()
    ?.run({ kind: "html", body: new TextEncoder().encode("<title>warm-up</title><p>Warm-up.</p>"), charset: "utf-8", url: "https://localhost/" })
    .catch((error: unknown) => console.warn(`[quarry] the page extraction workers could not start: ${error instanceof Error ? error.message : String(error)}`));
}

/** Stops the pool's threads once their running pages are done (tests, and processes that end): a page
 * whose caller stopped waiting (abort) still finishes in its thread, and destroying the pool under it
 * made its late result an uncaught "Unexpected message from Worker". */
export async function closeExtractPool(): Promise<void> {
  const workers = globalForPool.quarryExtractPool;
  globalForPool.quarryExtractPool = undefined;
  await workers?.close();
}
