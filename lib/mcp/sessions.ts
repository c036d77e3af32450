// The MCP sessions of this process (Streamable HTTP): each one a transport and a server bound to one
// user. Memory is bounded: a session idle for IDLE_MS (no request, no tool call in flight) is closed,
// and a user opening more than MAX_PER_USER closes their least recently used. Closing a session is
// not cancelling its work: a run one of its calls started goes on (lib/mcp/context.ts).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

export interface McpSession {
  userId: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  /** Tool calls in flight. */
  busy: number;
  lastSeen: number;
  closed: boolean;
}

export const IDLE_MS = 30 * 60_000;
export const MAX_PER_USER = 16;
const SWEEP_MS = 60_000;

export class SessionStore {
  private readonly byId = new Map<string, McpSession>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  get(id: string): McpSession | undefined {
    return this.byId.get(id);
  }

  add(id: string, session: McpSession): void {
    this.byId.set(id, session);
    const own = [...this.byId.values()].filter((s) => s.userId === session.userId && s !== session && s.busy === 0);
    const over = own.length + 1 - MAX_PER_USER;
    if (over > 0) for (const s of own.sort((a, b) => a.lastSeen - b.lastSeen).slice(0, over)) void close(s);
    this.sweep();
  }

  remove(id: string): void {
    this.byId.delete(id);
  }

  get size(): number {
    return this.byId.size;
  }

  /** Closes the idle sessions now, and every minute while there are sessions. */
  sweep(now = Date.now()): void {
    for (const s of this.byId.values()) if (s.busy === 0 && now - s.lastSeen > IDLE_MS) void close(s);
    if (this.byId.size > 0 && !this.sweeper) {
      this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
      this.sweeper.unref();
    } else if (this.byId.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}

async function close(session: McpSession): Promise<void> {
  await session.server.close().catch(() => undefined);
}

const globalForSessions = globalThis as unknown as { quarryMcpSessions?: SessionStore };
export const sessions: SessionStore = (globalForSessions.quarryMcpSessions ??= new SessionStore());
