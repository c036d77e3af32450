// /mcp and /api/openapi.json through the production server (`next start` of the build, with proxy.ts in
// front): what the in-process tests (mcp.test.ts, openapi.test.ts) cannot see. The SDK's client over
// real HTTP lists the tools and runs quick_answer with progress; signed out, /mcp is the API's JSON 401
// (not the sign-in page's redirect) and the description is public; the reference page needs sign-in.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes({ search: { failingPageShare: 0 } });
  app = await TestApp.start({ name: "mcp", env: { ...fakes.env, EMBEDDING_MODEL: "" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

test("the SDK's client over the server's /mcp: tools listed, a cited answer with progress", async () => {
  const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${app.user.token}` } } });
  const client = new Client({ name: "quarry-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === "quick_answer") && tools.some((t) => t.name === "research"));
    const progress: Progress[] = [];
    const result = (await client.callTool({ name: "quick_answer", arguments: { question: "How much storage did grid batteries add in 2024?" } }, undefined, {
      timeout: 120_000,
      onprogress: (p) => void progress.push(p),
    })) as CallToolResult;
    assert.ok(!result.isError, JSON.stringify(result.content));
    const out = result.structuredContent as { answer: string; references: unknown[] };
    assert.ok(out.answer.length > 0 && out.references.length > 0);
    assert.ok(progress.length > 0, "progress notifications came through the server's stream");
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
});

test("signed out: /mcp is a JSON 401, the OpenAPI document is public, the reference page asks for sign-in", async () => {
  const mcp = await fetch(`${app.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}", redirect: "manual" });
  assert.equal(mcp.status, 401);
  assert.equal(((await mcp.json()) as { code: string }).code, "unauthorized:auth");
  const doc = await fetch(`${app.url}/api/openapi.json`);
  assert.equal(doc.status, 200);
  assert.equal(((await doc.json()) as { openapi: string }).openapi, "3.1.0");
  const page = await fetch(`${app.url}/api-reference`, { redirect: "manual" });
  assert.equal(page.status, 307);
  assert.match(page.headers.get("location") ?? "", /\/sign-in/);
});
