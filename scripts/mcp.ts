// npm run -s mcp — Quarry's MCP server over stdio, for desktop clients (Claude Desktop, Cursor, VS Code:
// docs/mcp.md). The client starts this process and talks JSON-RPC on its stdin and stdout.
// QUARRY_API_TOKEN (an API token: Settings → API tokens, or npm run token) says whose the calls are;
// it is checked at start and again on every call, so a revoked token stops working at once. The
// runs execute in this process against the installation's database, LLM and search (its .env), as
// with npm run research; in queue mode (REDIS_URL and QUEUE_RUNS) they are queued for the workers.
// When the client disconnects (ends stdin), the runs its calls started go on here until they end;
// a client that then stops the process (SIGTERM) leaves them to be taken over like any run of a
// stopped process (RESUME_ON_START on the web server or a worker).
// Exit codes: 0 disconnected, 1 configuration or token error.
import path from "node:path";
import { loadDotEnv } from "./load-env.mjs";

const root = path.resolve(import.meta.dirname, "..");
// A desktop client starts servers in a folder of its own choosing: relative paths (the SQLite file,
// the secret file, uploads) are the installation's.
process.chdir(root);
loadDotEnv(root);
// stdout is the protocol's alone: whatever the engines print goes to stderr, which clients log.
console.log = console.info = console.debug = console.error;

function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}

async function main() {
  const token = process.env.QUARRY_API_TOKEN?.trim();
  if (!token) fail("QUARRY_API_TOKEN is not set: create a token in Settings → API tokens (or npm run token -- create …) and put it in the client's configuration (docs/mcp.md).");
  const { dropBlankLlmVariables, getEnv, configProblems } = await import("../lib/env");
  dropBlankLlmVariables();
  let env;
  try {
    env = getEnv();
  } catch (error) {
    fail((error as Error).message);
  }
  for (const problem of configProblems()) console.error(`[quarry] configuration: ${problem.message}`);
  // QUARRY_SKIP_MIGRATE=1: the database is migrated and served already (as for npm run token).
  if (process.env.QUARRY_SKIP_MIGRATE !== "1") {
    const { migrateDatabase } = await import("./cli-support");
    try {
      migrateDatabase(env.DATABASE_URL);
    } catch (error) {
      fail((error as Error).message);
    }
  }
  const { verifyApiToken } = await import("../lib/auth/api-tokens");
  const { AppError } = await import("../lib/errors");
  if (!(await verifyApiToken(token))) fail("QUARRY_API_TOKEN is not a valid token of this installation: revoked, expired, or signed with another AUTH_SECRET.");
  if (env.REDIS_URL && env.QUEUE_RUNS) {
    const { runRegistry } = await import("../lib/runs/engines");
    const { enqueueRun, queueReachable, wakeRun } = await import("../lib/queue/enqueue");
    runRegistry.dispatchTo(enqueueRun, wakeRun, queueReachable);
  } else {
    // The runs read pages here: the extraction workers start now, beside the rest, not inside the first
    // pages' SCRAPE_TIMEOUT_MS (their start takes seconds on a busy machine, and its first pages timed out).
    void (await import("../lib/scrape/extract-pool")).warmExtractPool();
  }
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const { createMcpServer } = await import("../lib/mcp/server");
  const { settleStarted } = await import("../lib/mcp/started");
  const { disconnectDatabase } = await import("../lib/db/connection");

  let closed = false;
  const server = createMcpServer({
    async userId() {
      const verified = await verifyApiToken(token);
      if (!verified) throw new AppError("unauthorized:auth", "QUARRY_API_TOKEN is no longer valid (revoked or expired): set a new token and restart the server.");
      return verified.userId;
    },
    get closed() {
      return closed;
    },
  });
  const transport = new StdioServerTransport();
  // Before the server connects, so that it runs before the calls in flight are aborted: they then
  // know the connection closed (their runs go on) from a cancel (their runs are cancelled).
  transport.onclose = () => {
    closed = true;
  };
  await server.connect(transport);
  console.error("[quarry] MCP server ready on stdio");

  let ending = false;
  const disconnect = async () => {
    if (ending) return;
    ending = true;
    await server.close();
    await settleStarted();
    await disconnectDatabase().catch(() => undefined);
    process.exit(0);
  };
  process.stdin.once("end", () => void disconnect());
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
}

main().catch((error: unknown) => fail(`the MCP server could not start: ${error instanceof Error ? error.message : String(error)}`));
