// The MCP server over Streamable HTTP (app/mcp/route.ts): every request authenticated by its bearer API
// token (a session cookie is not enough: an MCP client is a program, and a token is revocable), its
// Origin checked as the protocol requires (a browser page of another site is refused), then handed to
// its session's transport. A session is the SDK's: it begins with `initialize`, lives in this process
// (lib/mcp/sessions.ts) and is its user's alone — another user's session id is not found, as any
// other object of theirs. Several web processes need sticky sessions for /mcp (a request reaching a
// process without the session gets the protocol's 404, and the client starts a new session).
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { randomUUID } from "node:crypto";
import { toErrorResponse } from "../api/errors";
import { verifyApiToken } from "../auth/api-tokens";
import { credentialEndedMessage, credentialSignal, releaseCredentialSignal } from "../auth/api-tokens-watch";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { createMcpServer } from "./server";
import { sessions, type McpSession } from "./sessions";

const UNAUTHORIZED = "Send a valid API token as Authorization: Bearer <token> (Settings → API tokens).";

/** A JSON-RPC error on its own, as the transport answers protocol errors. */
function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}

async function bearerUser(request: Request): Promise<{ userId: string; token: string; tokenId: string }> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  const verified = match ? await verifyApiToken(match[1]) : null;
  if (!match || !verified) throw new AppError("unauthorized:auth", UNAUTHORIZED);
  return { userId: verified.userId, token: match[1], tokenId: verified.tokenId };
}

const hostOf = (url: string | undefined) => {
  try {
    return url ? new URL(url).host : null;
  } catch {
    return null;
  }
};

/**
 * The protocol's DNS-rebinding defence: a request with an Origin (a browser's) must come from this
 * server's own origin (its Host, the proxy's forwarded host when TRUST_PROXY is set, or AUTH_URL).
 * Programs send no Origin and pass.
 */
export function originAllowed(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  const host = hostOf(origin);
  if (!host) return false;
  const forwarded = getEnv().TRUST_PROXY ? request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const own = [forwarded, request.headers.get("host"), hostOf(request.url), hostOf(process.env.AUTH_URL ?? process.env.NEXTAUTH_URL)];
  return own.includes(host);
}

async function readJson(request: Request): Promise<unknown | Response> {
  const max = getEnv().API_MAX_BODY_BYTES;
  const text = await request.text();
  if (Buffer.byteLength(text) > max) return rpcError(413, -32600, `The request body is larger than the limit of ${max} bytes (API_MAX_BODY_BYTES).`);
  try {
    return JSON.parse(text);
  } catch {
    return rpcError(400, -32700, "Parse error: the body is not JSON");
  }
}

/** What a request's handlers see of its token: its id, so that a tool call it made ends when the token is revoked (lib/mcp/context.ts). */
function authInfo(userId: string, token: string, tokenId: string) {
  return { token, clientId: userId, scopes: [], extra: { tokenId } };
}

/** A new session for `userId`, begun by this initialize request. */
async function openSession(request: Request, userId: string, token: string, tokenId: string, body: unknown): Promise<Response> {
  const session: McpSession = { userId, busy: 0, lastSeen: Date.now(), closed: false } as McpSession;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => sessions.add(id, session),
    onsessionclosed: (id) => sessions.remove(id),
    maxRequestBodySize: getEnv().API_MAX_BODY_BYTES,
  });
  // Set before the server connects, so that it runs before the protocol aborts the calls in flight:
  // their tools then know a closed connection from a cancel.
  transport.onclose = () => {
    session.closed = true;
    if (transport.sessionId) sessions.remove(transport.sessionId);
  };
  session.transport = transport;
  session.server = createMcpServer({
    userId: async () => session.userId,
    get closed() {
      return session.closed;
    },
    onCall: (delta) => {
      session.busy += delta;
      session.lastSeen = Date.now();
    },
  });
  await session.server.connect(transport);
  return transport.handleRequest(request, { parsedBody: body, authInfo: authInfo(userId, token, tokenId) });
}

/**
 * The session's standalone stream (a GET: the server's notifications) ends when the token that opened it
 * is revoked or expires, as every other stream does: its last event says why, and the transport's
 * stream is cancelled (the client may open another with a valid token). Other responses pass as they are.
 */
function endWithToken(response: Response, request: Request, userId: string, tokenId: string): Response {
  if (request.method !== "GET" || !response.body || !response.headers.get("content-type")?.includes("text/event-stream")) return response;
  const signal = credentialSignal({ userId, via: "token", tokenId }, request.signal);
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      signal.addEventListener(
        "abort",
        () => {
          const message = credentialEndedMessage(signal);
          if (!message) return;
          try {
            controller.enqueue(new TextEncoder().encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "error", logger: "quarry", data: message } })}\n\n`));
            controller.close();
          } catch {
            // Already closed.
          }
          void reader.cancel(message).catch(() => {});
        },
        { once: true },
      );
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          releaseCredentialSignal(signal);
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        releaseCredentialSignal(signal);
        // The stream was closed under the read (its token ended): nothing more to send.
        if (!signal.aborted) controller.error(error);
      }
    },
    cancel(reason) {
      releaseCredentialSignal(signal);
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export async function handleMcpRequest(request: Request): Promise<Response> {
  try {
    if (!originAllowed(request)) throw new AppError("forbidden:origin", "Requests from this Origin are not accepted: MCP clients in a browser must be served from this server's own origin.");
    const { userId, token, tokenId } = await bearerUser(request);
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      const session = sessions.get(sessionId);
      // Another user's session is no session of this caller's.
      if (!session || session.userId !== userId) return rpcError(404, -32001, "Session not found");
      session.lastSeen = Date.now();
      return endWithToken(await session.transport.handleRequest(request, { authInfo: authInfo(userId, token, tokenId) }), request, userId, tokenId);
    }
    if (request.method !== "POST") return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    const body = await readJson(request);
    if (body instanceof Response) return body;
    const messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
    if (!messages.some((m) => isInitializeRequest(m))) return rpcError(400, -32000, "Bad Request: no session; begin with an initialize request");
    return await openSession(request, userId, token, tokenId, body);
  } catch (error) {
    return toErrorResponse(error);
  }
}
