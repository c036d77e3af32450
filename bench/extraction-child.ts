// Runs one implementation's measurement in a fresh child process, so Readability's JIT state and the heap
// of one DOM cannot carry over to the next and bias whichever runs later.
import { fork } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { resolveImplementation } from "./extraction-implementations";
import { exposeGc, loadFixtures, measure, type Implementation, type ImplementationResult } from "./extraction-measure";
import { loaderArgs } from "./child-loader";

export type Outcome = { row: ImplementationResult } | { skipped: string };

export interface MeasureRequest {
  id: Implementation["id"];
  paths: string[];
  iterations: number;
  warmup: number;
}

const CHILD_FLAG = "--extraction-child";

export async function measureInProcess(req: MeasureRequest): Promise<Outcome> {
  const impl = await resolveImplementation(req.id);
  if ("skipped" in impl) return impl;
  return { row: await measure(impl, loadFixtures(req.paths), req.iterations, req.warmup, exposeGc()) };
}


export function measureInChild(req: MeasureRequest, timeoutMs = 15 * 60_000): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], { execArgv: [...loaderArgs(), "--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`extraction child for ${req.id} timed out after ${timeoutMs / 1000} s`));
    }, timeoutMs);
    let outcome: Outcome | undefined;
    let failure: string | undefined;
    child.on("message", (msg: { outcome?: Outcome; error?: string }) => {
      outcome = msg.outcome;
      failure = msg.error;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (outcome) resolve(outcome);
      else reject(new Error(`extraction child for ${req.id} failed (exit ${code})${failure ? `: ${failure}` : ""}`));
    });
    child.send(req);
  });
}

// Child side: one request in, one outcome out, then exit (the product module may hold handles open).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes(CHILD_FLAG)) {
  process.once("message", (req: MeasureRequest) => {
    measureInProcess(req)
      .then((outcome) => ({ outcome }))
      .catch((error: unknown) => ({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }))
      .then((msg) => process.send?.(msg, () => process.exit(0)));
  });
}
