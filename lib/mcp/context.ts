// What a tool sees of its call: who calls (checked again on every call, so that a token revoked
// meanwhile stops working at once), the call's abort signal, whether that abort is the client's
// cancel or the connection closing, and progress notifications on the client's progress token. A
// call made over HTTP with an API token ends when that token is revoked or expires (its signal aborts
// as when the connection closes: the run it follows goes on, readable with get_report), and the call
// fails with a tool error saying so (lib/mcp/server.ts).
import { credentialEndedMessage, credentialSignal, releaseCredentialSignal } from "../auth/api-tokens-watch";
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
  /** Why the call's signal aborted when it was its token's revocation or expiry (the message to fail with); undefined otherwise. */
  credentialEnded(): string | undefined;
  /** The call is over: its token is no longer watched. */
  release(): void;
  /** A progress notification, when the client asked for them (a progress token); `progress` only ever grows. */
  progress(update: { progress: number; total?: number; message?: string }): Promise<void>;
}

export async function toolContext(connection: Connection, extra: Extra): Promise<ToolContext> {
  const userId = await connection.userId();
  const token = extra._meta?.progressToken;
  let last = -Infinity;
  // Over HTTP, the token of the request that made the call (lib/mcp/http.ts); stdio has none.
  const tokenId = extra.authInfo?.extra?.tokenId;
  const signal = typeof tokenId === "string" ? credentialSignal({ userId, via: "token", tokenId }, extra.signal) : extra.signal;
  return {
    userId,
    signal,
    // The client's own signal: a revoked token is not a cancel, and leaves the run going.
    cancelled: () => extra.signal.aborted && !connection.closed,
    credentialEnded: () => credentialEndedMessage(signal),
    release: () => releaseCredentialSignal(signal),
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
