// Real responses against the OpenAPI description, for each route family: the route handlers called in
// this process with Request objects (no build, no server) against the loopback fakes and a test
// database. Each response's status must be one the document lists for its operation, its content type
// one the document gives, and a JSON body must validate against the documented schema (ajv, JSON
// Schema 2020-12 as OpenAPI 3.1 uses) — successes and errors alike.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { useTestDatabase } from "../../lib/db/test-support";
import { startFakes, type Fakes } from "../fakes";

await useTestDatabase();
const fakes: Fakes = await startFakes({ search: { failingPageShare: 0 } });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-openapi-"));
Object.assign(process.env, fakes.env, {
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
});
const { db } = await import("../../lib/db/client");
const { issueApiToken } = await import("../../lib/auth/api-tokens");
const { openApiDocument } = await import("../../lib/api/openapi/document");

const APP = path.resolve(import.meta.dirname, "../../app");
const BASE = "http://quarry.test";
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; content?: Record<string, { schema: object }> }> }>>; components: { responses: Record<string, { content: Record<string, { schema: object }> }> } };
const doc = openApiDocument() as unknown as Doc;

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const DOC_ID = "https://quarry.test/openapi.json";
ajv.addSchema({ $id: DOC_ID, components: (openApiDocument() as { components: object }).components });
const absolute = (schema: object) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`)) as object;

const user = await db.user.create({ data: { email: "openapi@test.local", passwordHash: "x" } });
const { token } = await issueApiToken({ userId: user.id, name: "openapi test" });

/** The route file of a concrete path, and its params (the first template that matches). */
function routeOf(template: string): string {
  const dir = template
    .split("/")
    .filter(Boolean)
    .map((s) => s.replace(/^\{(.+)\}$/, "[$1]"));
  return path.join(APP, ...dir, "route.ts");
}

const paramsOf = (template: string, concrete: string) => {
  const names = template.split("/");
  const values = concrete.split("?")[0].split("/");
  return Object.fromEntries(names.flatMap((n, i) => (/^\{.+\}$/.test(n) ? [[n.slice(1, -1), decodeURIComponent(values[i])]] : [])));
};

/** Calls the route's handler for `method template` with the concrete path, as Next would. */
async function call(method: string, template: string, concrete: string, init: { json?: unknown; body?: BodyInit; headers?: Record<string, string>; auth?: boolean } = {}): Promise<Response> {
  const mod = (await import(routeOf(template))) as Record<string, (r: Request, c: { params: Promise<Record<string, string>> }) => Promise<Response>>;
  const headers: Record<string, string> = { ...(init.auth === false ? {} : { authorization: `Bearer ${token}` }), ...(init.json !== undefined ? { "content-type": "application/json" } : {}), ...init.headers };
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  const request = new Request(`${BASE}${concrete}`, { method, headers, body });
  return mod[method](request, { params: Promise.resolve(paramsOf(template, concrete)) });
}

/** The response against the document: a documented status and content type, and a JSON body that validates. */
async function conforms(method: string, template: string, res: Response): Promise<unknown> {
  const op = doc.paths[template]?.[method.toLowerCase()];
  assert.ok(op, `${method} ${template} is not described`);
  const described = op.responses[String(res.status)];
  const text = await res.text();
  assert.ok(described, `${method} ${template}: status ${res.status} is not described (${text.slice(0, 300)})`);
  const reply = described.$ref ? doc.components.responses[described.$ref.split("/").pop()!] : described;
  if (!reply.content) return null;
  const type = (res.headers.get("content-type") ?? "").split(";")[0].trim();
  assert.ok(type in reply.content, `${method} ${template} ${res.status}: content type ${type} is not described (${Object.keys(reply.content).join(", ")})`);
  if (type !== "application/json") return text;
  const body = JSON.parse(text) as unknown;
  const validate = ajv.compile(absolute(reply.content[type].schema));
  assert.ok(validate(body), `${method} ${template} ${res.status}: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`);
  return body;
}

async function expectStatus(method: string, template: string, concrete: string, status: number, init?: Parameters<typeof call>[3]) {
  const res = await call(method, template, concrete, init);
  const body = await conforms(method, template, res.clone());
  assert.equal(res.status, status, `${method} ${concrete}: ${await res.text()}`);
  return body as Record<string, unknown>;
}

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

after(async () => {
  await db.$disconnect();
  await fakes.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("tree research", () => {
  let id = "";
  before(async () => {
    const draft = await expectStatus("POST", "/api/research/questions", "/api/research/questions", 200, { json: { initial_prompt: "How do heat pumps perform in cold climates?", num_questions: 2 } });
    id = draft.research_id as string;
    const started = await expectStatus("POST", "/api/research/start", "/api/research/start", 202, { json: { research_id: id, followup_answers: ["Europe", "Homes"], depth: 1, breadth: 2 } });
    assert.equal(started.research_id, id);
    await waitFor(() => db.research.findUniqueOrThrow({ where: { id } }), (r) => r.status !== "running");
  });

  test("the research's views, report, items, export, verification and run", async () => {
    await expectStatus("GET", "/api/research", "/api/research?limit=5", 200);
    const full = await expectStatus("GET", "/api/research/{id}", `/api/research/${id}`, 200);
    assert.equal(full.status, "completed");
    await expectStatus("GET", "/api/research/{id}", `/api/research/${id}?view=status`, 200);
    await expectStatus("GET", "/api/research/{id}/items", `/api/research/${id}/items?limit=2`, 200);
    await expectStatus("GET", "/api/research/{id}/report", `/api/research/${id}/report`, 200);
    await expectStatus("GET", "/api/research/{id}/export", `/api/research/${id}/export?format=md`, 200);
    await expectStatus("GET", "/api/research/{id}/verification", `/api/research/${id}/verification`, 200);
    const run = await db.run.findFirstOrThrow({ where: { subjectId: id } });
    await expectStatus("GET", "/api/runs/{id}", `/api/runs/${run.id}`, 200);
  });

  test("share links, and the shared research without sign-in", async () => {
    const created = await expectStatus("POST", "/api/research/{id}/shares", `/api/research/${id}/shares`, 201);
    await expectStatus("GET", "/api/research/{id}/shares", `/api/research/${id}/shares`, 200);
    await expectStatus("GET", "/api/share/{token}", `/api/share/${created.token as string}`, 200, { auth: false });
    const link = created.shareLink as { id: string };
    await expectStatus("DELETE", "/api/research/{id}/shares/{shareId}", `/api/research/${id}/shares/${link.id}`, 200);
    await expectStatus("GET", "/api/share/{token}", `/api/share/${created.token as string}`, 404, { auth: false });
  });

  test("errors in the API's shape: 400 naming the field, 404, 409, 401", async () => {
    const bad = await expectStatus("POST", "/api/research/start", "/api/research/start", 400, { json: { initial_prompt: "x", depth: 0, breadth: 2 } });
    assert.equal(bad.field, "depth");
    await expectStatus("GET", "/api/research/{id}", "/api/research/nope", 404);
    await expectStatus("POST", "/api/research/{id}/cancel", `/api/research/${id}/cancel`, 409);
    await expectStatus("GET", "/api/research", "/api/research", 401, { headers: { authorization: "Bearer nope" } });
  });
});

describe("quick answers and the OpenAI-compatible API", () => {
  test("a question asked, listed, read; a finished one cannot be cancelled", async () => {
    const started = await expectStatus("POST", "/api/v1/query", "/api/v1/query", 202, { json: { q: "How much storage did grid batteries add in 2024?" } });
    const requestId = started.requestId as string;
    await waitFor(() => db.answerRun.findFirstOrThrow({ where: { requestId } }), (r) => r.status !== "running" && r.status !== "queued");
    await expectStatus("GET", "/api/v1/answers", "/api/v1/answers", 200);
    const one = await expectStatus("GET", "/api/v1/answers/{requestId}", `/api/v1/answers/${requestId}`, 200);
    assert.equal(one.status, "completed");
    await expectStatus("POST", "/api/v1/answers/{requestId}/cancel", `/api/v1/answers/${requestId}/cancel`, 409);
    await expectStatus("POST", "/api/v1/query", "/api/v1/query", 400, { json: { q: "" } });
  });

  test("models, a chat completion, and OpenAI's error shape", async () => {
    await expectStatus("GET", "/v1/models", "/v1/models", 200);
    await expectStatus("GET", "/v1/models/{id}", "/v1/models/quarry-answer", 200);
    await expectStatus("GET", "/v1/models/{id}", "/v1/models/gpt-nope", 404);
    const completion = await expectStatus("POST", "/v1/chat/completions", "/v1/chat/completions", 200, { json: { model: "quarry-answer", messages: [{ role: "user", content: "How much storage did grid batteries add in 2024?" }] } });
    assert.equal(completion.object, "chat.completion");
    await expectStatus("POST", "/v1/chat/completions", "/v1/chat/completions", 400, { json: { model: "quarry-answer", messages: [] } });
  });
});

describe("deep research", () => {
  test("a start, its status, the conversations and one conversation", async () => {
    const started = await expectStatus("POST", "/api/deep-research/start", "/api/deep-research/start", 200, { json: { message: "Regional sales of anvils #tasks-1", researchMode: "steering" } });
    const messageId = started.messageId as string;
    await expectStatus("GET", "/api/deep-research/status/{messageId}", `/api/deep-research/status/${messageId}`, 200);
    await waitFor(() => db.conversationMessage.findUniqueOrThrow({ where: { id: messageId } }), (m) => m.status === "completed" || m.status === "failed", 120_000);
    await expectStatus("GET", "/api/deep-research/status/{messageId}", `/api/deep-research/status/${messageId}`, 200);
    await expectStatus("GET", "/api/deep-research/conversations", "/api/deep-research/conversations", 200);
    await expectStatus("GET", "/api/deep-research/conversations/{id}", `/api/deep-research/conversations/${started.conversationId as string}`, 200);
    await expectStatus("POST", "/api/deep-research/start", "/api/deep-research/start", 400, { json: { message: "" } });
  });
});

describe("documents, account and the description itself", () => {
  test("a collection: created, renamed, a document uploaded and searched, removed", async () => {
    const created = await expectStatus("POST", "/api/collections", "/api/collections", 201, { json: { name: "Notes" } });
    const cid = (created.collection as { id: string }).id;
    await expectStatus("GET", "/api/collections", "/api/collections", 200);
    await expectStatus("PATCH", "/api/collections/{id}", `/api/collections/${cid}`, 200, { json: { name: "Field notes" } });
    const form = new FormData();
    form.append("file", new Blob(["# Baikal\n\nThe seals of Baikal are called nerpa.\n"]), "baikal.md");
    const uploaded = await expectStatus("POST", "/api/collections/{id}/documents", `/api/collections/${cid}/documents`, 201, { body: form });
    const did = (uploaded.document as { id: string }).id;
    await expectStatus("GET", "/api/collections/{id}", `/api/collections/${cid}`, 200);
    const found = await expectStatus("GET", "/api/collections/{id}/search", `/api/collections/${cid}/search?q=nerpa`, 200);
    assert.ok((found.results as unknown[]).length > 0);
    await expectStatus("GET", "/api/collections/{id}/documents/{documentId}", `/api/collections/${cid}/documents/${did}`, 200);
    await expectStatus("DELETE", "/api/collections/{id}/documents/{documentId}", `/api/collections/${cid}/documents/${did}`, 204);
    await expectStatus("DELETE", "/api/collections/{id}", `/api/collections/${cid}`, 204);
    await expectStatus("GET", "/api/collections/{id}", `/api/collections/${cid}`, 404);
  });

  test("the account, tokens, configuration and the description", async () => {
    await expectStatus("GET", "/api/account", "/api/account", 200);
    await expectStatus("GET", "/api/tokens", "/api/tokens", 200);
    // A token cannot mint tokens: 403 in the API's shape.
    await expectStatus("POST", "/api/tokens", "/api/tokens", 403, { json: { name: "x" } });
    await expectStatus("GET", "/api/config/status", "/api/config/status", 200, { auth: false });
    const described = await expectStatus("GET", "/api/openapi.json", "/api/openapi.json", 200, { auth: false });
    assert.equal(described.openapi, "3.1.0");
  });
});
