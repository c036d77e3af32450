// A worker for the pool's tests (lib/sandbox/pool.test.ts): items that answer, wait, throw, hold
// memory past any limit, or end the process.
import { AppError } from "../errors";
import { serveTasks } from "./child";

const held: unknown[] = [];

serveTasks({
  echo: (input: { value: unknown }) => ({ value: input.value, pid: process.pid }),
  sleep: async (input: { ms: number }) => {
    await new Promise((resolve) => setTimeout(resolve, input.ms));
    return process.pid;
  },
  spin: (input: { ms: number }) => {
    const end = Date.now() + input.ms;
    while (Date.now() < end);
    return process.pid;
  },
  fail: (input: { code?: string }) => {
    throw input.code ? new AppError(input.code as never, "refused as asked", { field: "file" }) : new Error("failed as asked");
  },
  // JavaScript objects: V8's heap limit (below the data limit) ends the process.
  heap: () => {
    for (;;) held.push(Array.from({ length: 1e5 }, (_, i) => ({ i })));
  },
  // Native memory (buffers outside V8's heap), touched so that it is really taken: the OS limit.
  native: () => {
    for (;;) held.push(Buffer.alloc(64 * 1024 * 1024, 1));
  },
  env: () => Object.keys(process.env),
});
