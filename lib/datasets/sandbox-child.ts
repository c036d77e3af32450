// The sandbox's child process: one DatasetSandbox, opened and queried on the parent's messages over
// the IPC channel, one at a time. It ends when the parent says so or goes away.
import { DatasetSandbox, type QueryLimits } from "./query";

export type ChildMessage = { type: "open"; dbPath: string; limits: QueryLimits } | { type: "query"; sql: string };
export type ChildRequest = ChildMessage & { id: number };

export type ChildReply = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: string };

let sandbox: DatasetSandbox | null = null;
let queue = Promise.resolve();

async function handle(request: ChildRequest): Promise<ChildReply> {
  try {
    if (request.type === "open") {
      sandbox = await DatasetSandbox.open(request.dbPath, request.limits);
      return { id: request.id, ok: true };
    }
    if (!sandbox) return { id: request.id, ok: false, error: "The sandbox is not open." };
    return { id: request.id, ok: true, value: await sandbox.query(request.sql) };
  } catch (error) {
    return { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

process.on("message", (request: ChildRequest) => {
  queue = queue.then(async () => {
    const reply = await handle(request);
    process.send?.(reply);
  });
});
// The parent went away (or closed the channel): nothing is left to serve.
process.on("disconnect", () => {
  sandbox?.close();
  process.exit(0);
});
process.send?.({ id: 0, ok: true, value: "ready" });
