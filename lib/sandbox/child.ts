// The child's side of a sandbox pool (lib/sandbox/pool.ts): serves the parent's items over the IPC
// channel, one at a time, with the handlers of one worker (its entry file names them). Errors go back
// as data, an AppError with its code and field, so that the parent throws what a call in process would.
import { AppError } from "../errors";

export type TaskHandler = (input: never) => unknown;

export interface ItemRequest {
  id: number;
  task: string;
  input: unknown;
}

export interface SerializedError {
  message: string;
  name: string;
  code?: string;
  field?: string;
}

export type ItemReply = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: SerializedError };

/** The id of the message a child sends once its handlers are loaded. */
export const READY_ID = 0;

export function serializeError(error: unknown): SerializedError {
  if (error instanceof AppError) return { message: error.message, name: error.name, code: error.code, field: error.field };
  if (error instanceof Error) return { message: error.message, name: error.name };
  return { message: String(error), name: "Error" };
}

export function serveTasks(handlers: Record<string, TaskHandler>): void {
  let queue = Promise.resolve();
  process.on("message", (request: ItemRequest) => {
    queue = queue.then(async () => {
      const handler = handlers[request.task];
      let reply: ItemReply;
      try {
        if (!handler) throw new Error(`This worker has no task "${request.task}".`);
        reply = { id: request.id, ok: true, value: await handler(request.input as never) };
      } catch (error) {
        reply = { id: request.id, ok: false, error: serializeError(error) };
      }
      process.send?.(reply);
    });
  });
  // The parent went away (or closed the channel): nothing is left to serve.
  process.on("disconnect", () => process.exit(0));
  process.send?.({ id: READY_ID, ok: true } satisfies ItemReply);
}
