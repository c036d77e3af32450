// Bull Board (the queue dashboard) at /admin/queues, served by a Next route handler. Bull Board has
// no Next adapter; its Hono adapter speaks Web Request/Response, which a route handler can hand
// over as is. Static files are read from @bull-board/ui's directory by a small handler of our own
// (Hono's serveStatic for Node is a separate package, @hono/node-server, for four lines of work).
import fs from "node:fs/promises";
import path from "node:path";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { HonoAdapter } from "@bull-board/hono";
import { Hono, type MiddlewareHandler } from "hono";
import { drTasksQueue, runsQueue, treeNodesQueue } from "./connection";

export const BOARD_PATH = "/admin/queues";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

/** The adapter's serveStatic contract: files under `root` (relative to the working directory), the request path rewritten. */
function serveStatic({ root, rewriteRequestPath }: { root?: string; rewriteRequestPath?: (p: string) => string }): MiddlewareHandler {
  const base = path.resolve(process.cwd(), root ?? ".");
  return async (c, next) => {
    const rel = decodeURIComponent(rewriteRequestPath ? rewriteRequestPath(c.req.path) : c.req.path);
    const file = path.resolve(base, `.${rel}`);
    const type = TYPES[path.extname(file)];
    if (!file.startsWith(base + path.sep) || !type) return next();
    try {
      return c.body(await fs.readFile(file), 200, { "content-type": type, "cache-control": "public, max-age=3600" });
    } catch {
      return next();
    }
  };
}

const globalForBoard = globalThis as unknown as { quarryBoard?: Hono };

/** The dashboard as a Hono app answering under BOARD_PATH (built once per process). */
export function queueBoard(): Hono {
  if (globalForBoard.quarryBoard) return globalForBoard.quarryBoard;
  const adapter = new HonoAdapter(serveStatic as never).setBasePath(BOARD_PATH);
  createBullBoard({ queues: [runsQueue(), treeNodesQueue(), drTasksQueue()].map((q) => new BullMQAdapter(q)), serverAdapter: adapter, options: { uiConfig: { boardTitle: "Quarry queues" } } });
  const app = new Hono().basePath(BOARD_PATH);
  app.route("/", adapter.registerPlugin());
  return (globalForBoard.quarryBoard = app);
}
