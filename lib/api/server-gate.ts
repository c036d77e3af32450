// Checks on Node's HTTP server itself, before Next sees a request (each installed once, by
// instrumentation.ts): a method no route serves (unsupported-methods.ts), a body over its limit or too
// slow (body-guard.ts). Next creates its server before instrumentation runs, so the gate wraps the
// prototype's emit of "request", once for every guard, which run in the order they were added.
import http from "node:http";

/** Answers the request itself and returns true, or returns false to let it go on to Next. */
export type RequestGuard = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

const GUARDS = Symbol.for("quarry.requestGuards");

export function addRequestGuard(name: string, guard: RequestGuard): void {
  const proto = http.Server.prototype as http.Server & { [GUARDS]?: Map<string, RequestGuard> };
  let guards = proto[GUARDS];
  if (!guards) {
    const all = (guards = proto[GUARDS] = new Map());
    const emit = proto.emit;
    proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === "request") {
        const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
        for (const [guardName, check] of all) {
          let answered = false;
          try {
            answered = check(req, res);
          } catch (error) {
            // A broken guard must not take every request down with it.
            console.error(`[quarry] request guard "${guardName}" failed:`, error);
          }
          if (answered) return true;
        }
      }
      return Reflect.apply(emit, this, [event, ...args]) as boolean;
    } as typeof proto.emit;
  }
  guards.set(name, guard);
}

/** Writes a fetch Response on a Node response (a small, whole body). */
export async function send(response: Response, res: http.ServerResponse): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...Object.fromEntries(response.headers), "content-length": body.length });
  res.end(body);
}
