// What a tool sees of its call: who calls (checked again on every call, so that a token revoked
// meanwhile stops working at once), the call's abort signal, whether that abort is the client's
// cancel or the connection closing, and progress notifications on the client's progress token.
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** One MCP connection (a stdio process, or an HTTP session): closed once its transport closes. */
export interface Connection {
  /** The user the connection's token belongs to; throws `unauthorized:auth` once it no longer does. */
  userId(): Promise<string>;
  readonly closed: boolean;
  /** Told when a tool call begins (+1) and ends (-1): a session with a call in flight is not idle. */
  onCall?(delta: 1 | -1): void;
}

export interface ToolContext {
  userId: string;
  signal: AbortSignal;
  /**
   * True when the call was aborted by the client's cancel (notifications/cancelled), false while it
   * goes on and when the connection closed instead: a closed connection is not a cancel, and the
   * run the call started goes on (its result stays readable with get_report).
   */
  cancelled(): boolean;
  /** A progress notification, when the client asked for them (a progress token); `progress` only ever grows. */
  progress(update: { progress: number; total?: number; message?: string }): Promise<void>;
}

export async function toolContext(connection: Connection, extra: Extra): Promise<ToolContext> {
  const userId = await connection.userId();
  const token = extra._meta?.progressToken;
  let last = -Infinity;
  return {
    userId,
    signal: extra.signal,
    cancelled: () => extra.signal.aborted && !connection.closed,
    async progress({ progress, total, message }) {
      // The protocol requires every notification's progress to be above the one before.
      if (token === undefined || progress <= last || extra.signal.aborted) return;
      last = progress;
      await extra
        .sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, ...(total !== undefined && total >= progress ? { total } : {}), ...(message ? { message } : {}) } })
        // A client gone mid-run loses its progress, nothing else.
        .catch(() => undefined);
    },
  };
}
