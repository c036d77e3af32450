// The MCP server driven by the SDK's own client, against the loopback fakes and a test database, with no
// build: over Streamable HTTP in this process (the client's fetch calls the /mcp route's handler with
// Request objects) and over stdio (the client spawns `tsx scripts/mcp.ts`, which runs the engines in
// its own process on the same database). Tool listing; quick_answer, research, deep_research and its
// status, search_documents and get_report end to end; progress notifications; a cancelled call cancels
// its run and a closed connection does not; another user's ids, sessions and resources are not found;
// a bad token and a foreign Origin are refused; a per-user limit is a tool error with retryAfterSeconds.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { useTestDatabase } from "../../lib/db/test-support";
import { startFakes, type Fakes } from "../fakes";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BASE = "http://quarry.test";

await useTestDatabase();
const fakes: Fakes = await startFakes({ search: { failingPageShare: 0 } });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-mcp-"));
const TEST_ENV = {
  ...fakes.env,
  LLM_RETRY_BUDGET_MS: "0",
  SCRAPE_TIMEOUT_MS: "3000",
  LITERATURE_TREE_DEPTH: "1",
  LITERATURE_TREE_BREADTH: "1",
  UPLOADS_DIR: path.join(dataDir, "uploads"),
  REPORTS_DIR: path.join(dataDir, "reports"),
  RATE_LIMIT_STARTS_PER_HOUR: "100000",
  RATE_LIMIT_PLANNING_CALLS_PER_HOUR: "100000",
  MAX_CONCURRENT_RUNS_PER_USER: "100",
  EMBEDDING_MODEL: "",
  // Cancels reach the run's process within the registry's poll; the test waits for them.
  RUN_HEARTBEAT_MS: "1000",
};
Object.assign(process.env, TEST_ENV);
const { db } = await import("../../lib/db/client");
const { issueApiToken, revokeApiToken } = await import("../../lib/auth/api-tokens");
const { handleMcpRequest } = await import("../../lib/mcp/http");
const { cancelResearch } = await import("../../lib/research/service");
const { resetEnvCache } = await import("../../lib/env");
const kb = await import("../../lib/knowledge/collections");

async function account(email: string) {
  const user = await db.user.create({ data: { email, passwordHash: "x" } });
  const { token } = await issueApiToken({ userId: user.id, name: "mcp test" });
  return { id: user.id, token };
}
const alice = await account("alice-mcp@test.local");
const bob = await account("bob-mcp@test.local");

/** The /mcp route in this process: every request of the client goes to its handler. */
const inProcessFetch = (url: string | URL, init?: RequestInit) => handleMcpRequest(new Request(url, init));

async function httpClient(token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), { fetch: inProcessFetch, requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "quarry-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

function stdioTransport(token: string): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", path.join(ROOT, "scripts/mcp.ts")],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), ...TEST_ENV, QUARRY_API_TOKEN: token, QUARRY_SKIP_MIGRATE: "1" },
    stderr: "pipe",
  });
  const lines: string[] = [];
  stderrs.set(transport, lines);
  transport.stderr?.on("data", (chunk: Buffer) => lines.push(chunk.toString()));
  return transport;
}

/** What a stdio server wrote to stderr so far. */
const stderrs = new WeakMap<StdioClientTransport, string[]>();
function stderrOf(transport: StdioClientTransport): string {
  return (stderrs.get(transport) ?? []).join("").slice(-6000);
}

/** A tool call's result, its progress notifications kept. */
async function call(client: Client, name: string, args: Record<string, unknown>, options: { signal?: AbortSignal; onprogress?: (p: Progress) => void } = {}) {
  const progress: Progress[] = [];
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    signal: options.signal,
    timeout: 240_000,
    resetTimeoutOnProgress: true,
    onprogress: (p) => {
      progress.push(p);
      options.onprogress?.(p);
    },
  })) as CallToolResult;
  return { result, progress };
}

const structured = <T>(r: CallToolResult) => {
  assert.ok(!r.isError, `tool error: ${JSON.stringify(r.content)}`);
  return r.structuredContent as T;
};
const errorOf = (r: CallToolResult) => {
  assert.equal(r.isError, true, `expected a tool error, got ${JSON.stringify(r.structuredContent)}`);
  const text = (r.content[0] as { text: string }).text;
  return JSON.parse(text) as { error: string; code: string; field?: string; retryAfterSeconds?: number };
};

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const TOOLS = ["deep_research", "deep_research_status", "get_report", "quick_answer", "research", "search_documents"];

after(async () => {
  await db.$disconnect();
  await fakes.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("over Streamable HTTP", () => {
  let a: Client;
  let b: Client;
  let aliceTransport: StreamableHTTPClientTransport;
  let researchId = "";
  before(async () => {
    ({ client: a, transport: aliceTransport } = await httpClient(alice.token));
    ({ client: b } = await httpClient(bob.token));
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  test("lists the tools, each with an input and an output schema", async () => {
    const { tools } = await a.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, "object", t.name);
      assert.equal(t.outputSchema?.type, "object", `${t.name} has an output schema`);
      assert.ok((t.description ?? "").length > 40, `${t.name} says what it does and costs`);
    }
    const research = tools.find((t) => t.name === "research")!;
    assert.ok(research.inputSchema.required?.includes("prompt"));
  });

  test("quick_answer answers with references, quotes, usage and progress", async () => {
    const { result, progress } = await call(a, "quick_answer", { question: "How much storage did grid batteries add in 2024?" });
    const out = structured<{ requestId: string; answer: string; references: { url: string; quote: string }[]; usage: { totalTokens: number } }>(result);
    assert.ok(out.answer.length > 0);
    assert.ok(out.references.length > 0, "the answer cites a reference");
    assert.ok(out.references.every((r) => r.url.startsWith("http") && r.quote.length > 0), "each reference with its quote");
    assert.ok(out.usage.totalTokens > 0);
    assert.ok(progress.length > 0, "progress notifications while it ran");
    assert.ok(progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress), "progress only grows");
    const row = await db.answerRun.findFirstOrThrow({ where: { requestId: out.requestId } });
    assert.equal(row.userId, alice.id, "filed under the token's user");
  });

  test("research runs a tree to a report with numbered citations and sources, with progress to the end", async () => {
    const { result, progress } = await call(a, "research", { prompt: "How do heat pumps perform in cold climates?", depth: 1, breadth: 2 });
    const out = structured<{ researchId: string; report: string; sources: { n: number; url: string }[]; usage: { totalTokens: number }; uri: string }>(result);
    researchId = out.researchId;
    assert.match(out.report, /\[1\]\(https?:\/\//, "numbered citations");
    assert.match(out.report, /## Sources/);
    assert.ok(out.sources.length > 0 && out.sources[0].n === 1);
    assert.ok(out.usage.totalTokens > 0);
    assert.equal(out.uri, `quarry://research/${researchId}/report`);
    assert.ok(progress.length >= 2, `${progress.length} progress notifications`);
    assert.ok(progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress), "progress only grows");
    const last = progress.at(-1)!;
    assert.equal(last.progress, last.total, "the last notification is the end");
    const row = await db.research.findUniqueOrThrow({ where: { id: researchId } });
    assert.equal(row.userId, alice.id);
    assert.ok(row.promptTokens > 0, "usage recorded on the research as for the HTTP API");
  });

  test("get_report and the report resource give the research as Markdown; another user finds neither", async () => {
    const mine = structured<{ kind: string; markdown: string }>((await call(a, "get_report", { id: researchId })).result);
    assert.equal(mine.kind, "research");
    assert.match(mine.markdown, /## Sources/);
    const resource = await a.readResource({ uri: `quarry://research/${researchId}/report` });
    assert.match((resource.contents[0] as { text: string }).text, /## Sources/);
    const listed = await a.listResources();
    assert.ok(listed.resources.some((r) => r.uri === `quarry://research/${researchId}/report`), "the finished report is listed");

    assert.equal(errorOf((await call(b, "get_report", { id: researchId })).result).code, "not_found:report");
    await assert.rejects(b.readResource({ uri: `quarry://research/${researchId}/report` }), /not found/i);
    assert.ok(!(await b.listResources()).resources.some((r) => r.uri.includes(researchId)), "not in another user's list");
  });

  test("another user's HTTP session is not found", async () => {
    const res = await inProcessFetch(`${BASE}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${bob.token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": aliceTransport.sessionId!, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/list" }),
    });
    assert.equal(res.status, 404);
  });

  test("search_documents finds passages with their document and section; another user's collection is not found", async () => {
    const c = await kb.createCollection(alice.id, "Lake notes");
    await kb.addDocument(alice.id, c.id, { name: "baikal.md", bytes: new TextEncoder().encode("# Field notes\n\n## Baikal\n\nThe seals of Baikal are called nerpa.\n") });
    const out = structured<{ results: { text: string; document: { name: string }; section: string | null; collectionId: string }[] }>((await call(a, "search_documents", { query: "nerpa seals" })).result);
    assert.ok(out.results.length > 0);
    assert.equal(out.results[0].document.name, "baikal.md");
    assert.match(out.results[0].section ?? "", /Baikal$/, "the heading it is under");
    assert.equal(out.results[0].collectionId, c.id);
    assert.equal(errorOf((await call(b, "search_documents", { query: "nerpa", collections: [c.id] })).result).code, "not_found:collection");
    assert.equal(structured<{ results: unknown[] }>((await call(b, "search_documents", { query: "nerpa" })).result).results.length, 0, "bob's search sees nothing of alice's");
  });

  test("deep_research starts a conversation, its status follows it, its write-up is a report; another user sees none of it", async () => {
    const started = structured<{ conversationId: string; messageId: string; status: string }>((await call(a, "deep_research", { message: "Regional sales of anvils and bolts #tasks-1", mode: "steering" })).result);
    assert.ok(["processing", "queued"].includes(started.status));
    const status = await waitFor(
      async () => structured<{ status: string; result?: { text: string } }>((await call(a, "deep_research_status", { messageId: started.messageId })).result),
      (s) => s.status === "completed" || s.status === "failed",
      120_000,
    );
    assert.equal(status.status, "completed", JSON.stringify(status));
    assert.ok(status.result!.text.length > 0);
    const report = structured<{ kind: string; markdown: string }>((await call(a, "get_report", { id: started.conversationId })).result);
    assert.equal(report.kind, "deep-research");
    assert.equal(errorOf((await call(b, "deep_research_status", { messageId: started.messageId })).result).code, "not_found:message");
    assert.equal(errorOf((await call(b, "deep_research", { message: "go on", conversationId: started.conversationId })).result).field, "conversationId");
  });

  test("cancelling a research call cancels the research", async () => {
    fakes.llm.configure({ latencyMs: 150 });
    try {
      const controller = new AbortController();
      const pending = call(a, "research", { prompt: "Grid batteries in Spain", depth: 2, breadth: 2 }, {
        signal: controller.signal,
        onprogress: () => controller.abort("enough"),
      });
      assert.ok((await pending.then(() => null, (e: unknown) => e ?? "rejected")) !== null, "the call ends as cancelled");
      const row = await waitFor(
        async () => db.research.findFirst({ where: { userId: alice.id, initialPrompt: "Grid batteries in Spain" } }),
        (r) => r !== null && r.status !== "running",
      );
      assert.ok(row, "the research was started");
      assert.equal(row?.status, "cancelled");
    } finally {
      fakes.llm.configure({ latencyMs: 0 });
    }
  });

  test("a closed connection is no cancel: the run goes on to its end", async () => {
    const { client, transport } = await httpClient(alice.token);
    fakes.llm.configure({ latencyMs: 50 });
    try {
      const pending = call(client, "quick_answer", { question: "How much did wind power grow in Denmark?" }).catch((e: unknown) => e);
      await waitFor(async () => db.answerRun.findFirst({ where: { question: "How much did wind power grow in Denmark?" } }), (r) => r !== null);
      // DELETE ends the session on the server: its calls in flight are aborted as closed, not cancelled.
      await transport.terminateSession();
      await client.close();
      await pending;
      const row = await waitFor(
        async () => db.answerRun.findFirstOrThrow({ where: { question: "How much did wind power grow in Denmark?" } }),
        (r) => r.status !== "running" && r.status !== "queued",
        60_000,
      );
      assert.equal(row.status, "completed");
    } finally {
      fakes.llm.configure({ latencyMs: 0 });
    }
  });

  test("a research call whose token is revoked ends within seconds as a tool error saying why; the research goes on", async () => {
    const { token, apiToken } = await issueApiToken({ userId: alice.id, name: "mcp revoked mid-call" });
    const { client } = await httpClient(token);
    // Slow calls: the research cannot end while the test watches.
    fakes.llm.configure({ latencyMs: 3_000 });
    const prompt = "Pumped hydro storage in Portugal";
    try {
      let begun!: () => void;
      const started = new Promise<void>((resolve) => (begun = resolve));
      const pending = call(client, "research", { prompt, depth: 2, breadth: 2 }, { onprogress: () => begun() });
      await started;
      await revokeApiToken({ userId: alice.id, id: apiToken.id });
      const at = Date.now();
      const { result } = await pending;
      const tookMs = Date.now() - at;
      assert.ok(tookMs < 4_000, `the call ended ${tookMs} ms after the revocation`);
      const error = errorOf(result);
      assert.equal(error.code, "unauthorized:auth");
      assert.match(error.error, /token .*revoked/);
      // As a closed connection: not a cancel, the research goes on.
      const row = await db.research.findFirstOrThrow({ where: { userId: alice.id, initialPrompt: prompt } });
      assert.equal(row.status, "running");
      await assert.rejects(call(client, "get_report", { id: row.id }), "the revoked token makes no new call");
      await cancelResearch({ id: row.id, userId: alice.id });
    } finally {
      fakes.llm.configure({ latencyMs: 0 });
      await client.close().catch(() => undefined);
    }
  });

  test("the session's notification stream (a GET) ends when its token is revoked, saying why", async () => {
    const { token, apiToken } = await issueApiToken({ userId: alice.id, name: "mcp revoked stream" });
    const headers = { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", "content-type": "application/json" };
    const init = await inProcessFetch(`${BASE}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
    });
    const sessionId = init.headers.get("mcp-session-id");
    assert.ok(sessionId, "the initialize response names the session");
    await init.text();
    const sessionHeaders = { ...headers, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    const initialized = await inProcessFetch(`${BASE}/mcp`, { method: "POST", headers: sessionHeaders, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    assert.equal(initialized.status, 202);
    const stream = await inProcessFetch(`${BASE}/mcp`, { method: "GET", headers: { ...sessionHeaders, accept: "text/event-stream" } });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get("content-type") ?? "", /text\/event-stream/);
    const text = stream.text();
    await revokeApiToken({ userId: alice.id, id: apiToken.id });
    const at = Date.now();
    const body = await Promise.race([text, new Promise<string>((resolve) => setTimeout(() => resolve("(still open after 10 s)"), 10_000).unref())]);
    assert.ok(Date.now() - at < 4_000, `the stream ended within seconds of the revocation: ${body}`);
    assert.match(body, /token .*revoked/);
  });

  test("a per-user limit is a tool error with the API's code and when to retry", async () => {
    const carol = await account("carol-mcp@test.local");
    const { client } = await httpClient(carol.token);
    process.env.RATE_LIMIT_STARTS_PER_HOUR = "1";
    resetEnvCache();
    try {
      structured((await call(client, "quick_answer", { question: "What is 1+1?" })).result);
      const refused = errorOf((await call(client, "quick_answer", { question: "What is 2+2? 1+1" })).result);
      assert.equal(refused.code, "rate_limit:answer_starts");
      assert.ok((refused.retryAfterSeconds ?? 0) > 0);
    } finally {
      process.env.RATE_LIMIT_STARTS_PER_HOUR = TEST_ENV.RATE_LIMIT_STARTS_PER_HOUR;
      resetEnvCache();
      await client.close();
    }
  });

  test("a bad token, no token and a foreign Origin are refused", async () => {
    await assert.rejects(httpClient("not-a-token"), /401|unauthori/i);
    const init = { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }) };
    const none = await inProcessFetch(`${BASE}/mcp`, init);
    assert.equal(none.status, 401);
    assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.equal(((await none.json()) as { code: string }).code, "unauthorized:auth");
    const foreign = await inProcessFetch(`${BASE}/mcp`, { ...init, headers: { ...init.headers, authorization: `Bearer ${alice.token}`, origin: "https://evil.example" } });
    assert.equal(foreign.status, 403);
  });
});

describe("over stdio", () => {
  test("lists the tools and answers a question end to end in the server's own process", async () => {
    const transport = stdioTransport(alice.token);
    const client = new Client({ name: "quarry-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), TOOLS);
      const { result, progress } = await call(client, "quick_answer", { question: "How much storage did grid batteries add in 2024?" });
      const out = structured<{ requestId: string; answer: string; references: unknown[] }>(result);
      if (!(out.answer.length > 0 && out.references.length > 0)) {
        // What the run did, for a failure to name its cause.
        const run = await db.answerRun.findFirst({ where: { requestId: out.requestId } });
        console.log(`quick_answer: ${JSON.stringify(out).slice(0, 2000)}\nrun: ${JSON.stringify(run).slice(0, 6000)}\nstderr: ${stderrOf(transport)}`);
      }
      assert.ok(out.answer.length > 0 && out.references.length > 0);
      assert.ok(progress.length > 0);
      assert.equal((await db.answerRun.findFirstOrThrow({ where: { requestId: out.requestId } })).userId, alice.id);
    } finally {
      await client.close();
    }
  });

  test("runs a research to a cited report; another user's token sees nothing of it", async () => {
    const transport = stdioTransport(alice.token);
    const client = new Client({ name: "quarry-test", version: "1.0.0" });
    await client.connect(transport);
    let researchId = "";
    try {
      const { result, progress } = await call(client, "research", { prompt: "Tidal power in Brittany", depth: 1, breadth: 1 });
      const out = structured<{ researchId: string; report: string; sources: unknown[] }>(result);
      researchId = out.researchId;
      assert.match(out.report, /\[1\]\(https?:\/\//);
      assert.ok(out.sources.length > 0);
      assert.ok(progress.length > 0);
    } finally {
      await client.close();
    }
    const other = new Client({ name: "quarry-test", version: "1.0.0" });
    await other.connect(stdioTransport(bob.token));
    try {
      assert.equal(errorOf((await call(other, "get_report", { id: researchId })).result).code, "not_found:report");
    } finally {
      await other.close();
    }
  });

  test("a bad token is refused at start, with a message on stderr", async () => {
    const transport = stdioTransport("not-a-token");
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "quarry-test", version: "1.0.0" });
    await assert.rejects(client.connect(transport));
    await waitFor(async () => stderr, (s) => s.includes("QUARRY_API_TOKEN"), 10_000);
    assert.match(stderr, /QUARRY_API_TOKEN is not a valid token/);
  });
});
