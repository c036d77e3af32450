// How every launcher starts the production server (`next start`): npm start (scripts/start.mjs),
// Playwright's app server (e2e/serve-app.mjs) and the tests' and the bench's TestApp
// (test/helpers/app-server.ts), so that what the tests and the bench measure is what users run.
//
// Memory: on a machine with plenty of RAM, V8 lets a heap grow to several times its live objects
// before a full collection (its limits scale with the machine, up to 4 GB), and glibc gives each of
// the server's threads (extraction workers, libuv's pool, V8's helpers) a malloc arena of its own.
// Over a (5, 5) research on the 800-page fixture web the main thread's heap grew from 60 to 130 MB of
// old space with no full collection (~90 MB of it live) and the server peaked at 450-540 MB of RSS.
// These settings keep it near what is live (bench/README.md, "peak RSS"): a full collection once
// the old space has grown by half since the last (--heap-growing-percent=50), 8 MB semi-spaces for
// the young generation (16 MB by default on 64-bit; also the extraction threads'), and two malloc
// arenas. Measured cost: ~0.3 s more GC over a 35 s-CPU research. An operator's own NODE_OPTIONS
// (--max-semi-space-size) or MALLOC_ARENA_MAX win over these.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Node flags for the server's process, before any a caller adds (the last of a flag wins). */
export function serverNodeArgs(env = process.env) {
  const args = ["--heap-growing-percent=50"];
  if (!/--max-semi-space-size/.test(env.NODE_OPTIONS ?? "")) args.push("--max-semi-space-size=8");
  return args;
}

/**
 * `spawn(command, args, { env })` starts the production build on `port` (and `host`): Node itself
 * (not npx, which would add a process and take no V8 flags) running Next's CLI, with `env` and
 * MALLOC_ARENA_MAX=2 unless `env` sets its own.
 */
export function nextStartCommand({ port, host, nodeArgs = [], env = process.env }) {
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  return {
    command: process.execPath,
    args: [...serverNodeArgs(env), ...nodeArgs, nextBin, "start", "-p", String(port), ...(host ? ["-H", host] : [])],
    env: { MALLOC_ARENA_MAX: "2", ...env },
  };
}
