// Which file a sandbox worker process runs. Resolved from the project's directory, not from this
// module: in the Next build this module is a bundled chunk. The built server's processes run the
// module `npm run build` bundled beside the build from the worker's entry (.next/quarry/<name>-worker.mjs,
// scripts/build-extract-worker.mjs); running from sources (tsx: tests, `npm run worker`), or with a
// build made without that step, they compile the entry's TypeScript through tsx's loader
// (lib/sandbox/source-worker.mjs) — ~28 MB more per process and an esbuild process beside it.
import fs from "node:fs";
import path from "node:path";
import WORKERS from "./workers.json";

export type WorkerName = keyof typeof WORKERS;
/** A product worker by name, or (tests) any TypeScript entry, run from sources. */
export type WorkerSpec = WorkerName | { entry: string };

export function bundledWorkerFile(name: WorkerName): string {
  return path.join(process.cwd(), ".next", "quarry", `${name}-worker.mjs`);
}

/** The arguments after `node` that start the worker: the bundle in the built server, else the sources. */
export function workerArgs(spec: WorkerSpec): string[] {
  const source = path.join(process.cwd(), "lib", "sandbox", "source-worker.mjs");
  if (typeof spec === "object") return [source, path.resolve(/*turbopackIgnore: true*/ spec.entry)];
  const name = spec;
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const bundled = bundledWorkerFile(name);
    if (fs.existsSync(bundled)) return [bundled];
    console.warn(`[quarry] ${path.relative(process.cwd(), bundled)} is missing (build with \`npm run build\`): its worker processes compile the sources instead`);
  }
  // Not traced into the build: the sources are read by tsx at run time, only when the bundle is missing.
  return [source, path.join(/*turbopackIgnore: true*/ process.cwd(), WORKERS[name])];
}
