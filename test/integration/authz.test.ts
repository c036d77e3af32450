// Authorisation matrix through the real HTTP server: for every API route and method, another user
// (by session and by token) gets 404 for Alice's objects, a signed-out caller and a revoked, expired
// or tampered token get 401, and a share token opens its own report (or conversation) only.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { signApiToken } from "@/lib/auth/api-token-jwt";
import { isSessionRefresh } from "@/lib/auth/session-refresh";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { createTestToken, createTestUser, signInSession, signOutSession, TEST_AUTH_SECRET, type TestUser } from "../helpers/auth";

type Method = "GET" | "POST" | "DELETE" | "PUT" | "PATCH";
interface Ids {
  research: string;
  failed: string;
  draft: string;
  shareId: string;
  shareToken: string;
  tokenId: string;
  run: string;
  /** Alice's answer run's requestId. */
  answer: string;
  conversation: string;
  conversationShareId: string;
  conversationShareToken: string;
  message: string;
  clarification: string;
  collection: string;
  document: string;
}
interface Call {
  path: string;
  body?: unknown;
}
/** How to call each route against Alice's objects, and what the route is. */
interface RouteSpec {
  kind: "object" | "collection" | "public";
  call: (ids: Ids) => Call;
}

const ROUTES: Record<string, Partial<Record<Method, RouteSpec>>> = {
  "/api/research": { GET: { kind: "collection", call: () => ({ path: "/api/research" }) } },
  "/api/research/questions": {
    POST: { kind: "collection", call: () => ({ path: "/api/research/questions", body: { initial_prompt: "Bob's own question", num_questions: 1 } }) },
  },
  "/api/research/start": {
    POST: { kind: "object", call: (ids) => ({ path: "/api/research/start", body: { research_id: ids.draft, followup_answers: ["yes"], depth: 1, breadth: 1 } }) },
  },
  "/api/research/[id]": {
    GET: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}` }) },
    DELETE: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}` }) },
  },
  "/api/research/[id]/cancel": { POST: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}/cancel` }) } },
  "/api/research/[id]/resume": { POST: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.failed}/resume` }) } },
  "/api/research/[id]/follow-up": {
    POST: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}/follow-up`, body: { question: "Bob's follow-up", depth: 1, breadth: 1 } }) },
  },
  "/api/research/[id]/write-report": { POST: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.failed}/write-report` }) } },
  "/api/research/[id]/rerun": { POST: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.failed}/rerun`, body: {} }) } },
  "/api/research/[id]/report": { GET: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}/report` }) } },
  "/api/research/[id]/export": { GET: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}/export?format=pdf` }) } },
  "/api/research/[id]/items": { GET: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}/items` }) } },
  "/api/research/[id]/verification": { GET: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}/verification` }) } },
  "/api/research/[id]/error-output": { GET: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.failed}/error-output` }) } },
  "/api/research/[id]/stream": { GET: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}/stream` }) } },
  "/api/research/[id]/shares": {
    GET: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}/shares` }) },
    POST: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}/shares`, body: {} }) },
  },
  "/api/research/[id]/shares/[shareId]": {
    DELETE: { kind: "object", call: (ids) => ({ path: `/api/research/${ids.research}/shares/${ids.shareId}` }) },
  },
  "/api/runs/[id]": { GET: { kind: "object", call: (ids) => ({ path: `/api/runs/${ids.run}` }) } },
  "/api/runs/[id]/stream": { GET: { kind: "object", call: (ids) => ({ path: `/api/runs/${ids.run}/stream` }) } },
  "/api/v1/query": { POST: { kind: "collection", call: () => ({ path: "/api/v1/query", body: { q: "What is 1+1=? (Bob's own question)" } }) } },
  "/api/v1/answers": { GET: { kind: "collection", call: () => ({ path: "/api/v1/answers" }) } },
  "/api/v1/answers/[requestId]": { GET: { kind: "object", call: (ids) => ({ path: `/api/v1/answers/${ids.answer}` }) } },
  "/api/v1/answers/[requestId]/cancel": { POST: { kind: "object", call: (ids) => ({ path: `/api/v1/answers/${ids.answer}/cancel` }) } },
  "/api/v1/stream/[requestId]": { GET: { kind: "object", call: (ids) => ({ path: `/api/v1/stream/${ids.answer}` }) } },
  "/api/deep-research/start": {
    POST: { kind: "object", call: (ids) => ({ path: "/api/deep-research/start", body: { message: "Bob's message", conversationId: ids.conversation } }) },
  },
  "/api/deep-research/status/[messageId]": { GET: { kind: "object", call: (ids) => ({ path: `/api/deep-research/status/${ids.message}` }) } },
  "/api/deep-research/conversations": { GET: { kind: "collection", call: () => ({ path: "/api/deep-research/conversations" }) } },
  "/api/deep-research/conversations/[id]": { GET: { kind: "object", call: (ids) => ({ path: `/api/deep-research/conversations/${ids.conversation}` }) } },
  "/api/deep-research/conversations/[id]/stream": { GET: { kind: "object", call: (ids) => ({ path: `/api/deep-research/conversations/${ids.conversation}/stream` }) } },
  "/api/deep-research/conversations/[id]/shares": {
    GET: { kind: "object", call: (ids) => ({ path: `/api/deep-research/conversations/${ids.conversation}/shares` }) },
    POST: { kind: "object", call: (ids) => ({ path: `/api/deep-research/conversations/${ids.conversation}/shares`, body: {} }) },
  },
  "/api/deep-research/conversations/[id]/shares/[shareId]": {
    DELETE: { kind: "object", call: (ids) => ({ path: `/api/deep-research/conversations/${ids.conversation}/shares/${ids.conversationShareId}` }) },
  },
  "/api/deep-research/conversations/[id]/export": { GET: { kind: "object", call: (ids) => ({ path: `/api/deep-research/conversations/${ids.conversation}/export?format=md` }) } },
  "/api/deep-research/conversations/[id]/verification": { GET: { kind: "object", call: (ids) => ({ path: `/api/deep-research/conversations/${ids.conversation}/verification` }) } },
  "/api/deep-research/conversations/[id]/stop": { POST: { kind: "object", call: (ids) => ({ path: `/api/deep-research/conversations/${ids.conversation}/stop` }) } },
  "/api/clarification/generate-questions": {
    POST: { kind: "collection", call: () => ({ path: "/api/clarification/generate-questions", body: { query: "Bob's question" } }) },
  },
  "/api/clarification/submit-answers": {
    POST: { kind: "object", call: (ids) => ({ path: "/api/clarification/submit-answers", body: { sessionId: ids.clarification, answers: [{ questionIndex: 0, answer: "x" }] } }) },
  },
  "/api/clarification/plan-feedback": {
    POST: { kind: "object", call: (ids) => ({ path: "/api/clarification/plan-feedback", body: { sessionId: ids.clarification, approved: true } }) },
  },
  "/api/clarification/[sessionId]": { GET: { kind: "object", call: (ids) => ({ path: `/api/clarification/${ids.clarification}` }) } },
  "/api/collections": {
    GET: { kind: "collection", call: () => ({ path: "/api/collections" }) },
    POST: { kind: "collection", call: () => ({ path: "/api/collections", body: { name: "Bob's collection" } }) },
  },
  "/api/collections/[id]": {
    GET: { kind: "object", call: (ids) => ({ path: `/api/collections/${ids.collection}` }) },
    PATCH: { kind: "object", call: (ids) => ({ path: `/api/collections/${ids.collection}`, body: { name: "Bob's now" } }) },
    DELETE: { kind: "object", call: (ids) => ({ path: `/api/collections/${ids.collection}` }) },
  },
  "/api/collections/[id]/reindex": { POST: { kind: "object", call: (ids) => ({ path: `/api/collections/${ids.collection}/reindex` }) } },
  "/api/collections/[id]/search": { GET: { kind: "object", call: (ids) => ({ path: `/api/collections/${ids.collection}/search?q=alice` }) } },
  "/api/collections/[id]/documents": {
    GET: { kind: "object", call: (ids) => ({ path: `/api/collections/${ids.collection}/documents?sort=name&status=ready` }) },
    POST: { kind: "object", call: (ids) => ({ path: `/api/collections/${ids.collection}/documents`, body: {} }) },
  },
  "/api/collections/[id]/documents/[documentId]": {
    GET: { kind: "object", call: (ids) => ({ path: `/api/collections/${ids.collection}/documents/${ids.document}` }) },
    DELETE: { kind: "object", call: (ids) => ({ path: `/api/collections/${ids.collection}/documents/${ids.document}` }) },
  },
  "/api/collections/[id]/documents/[documentId]/file": {
    GET: { kind: "object", call: (ids) => ({ path: `/api/collections/${ids.collection}/documents/${ids.document}/file` }) },
  },
  "/api/account": { GET: { kind: "collection", call: () => ({ path: "/api/account" }) } },
  // A wrong current password: the matrix changes nobody's password.
  "/api/account/password": { POST: { kind: "collection", call: () => ({ path: "/api/account/password", body: { currentPassword: "not it", newPassword: "a new password" } }) } },
  "/api/tokens": {
    GET: { kind: "collection", call: () => ({ path: "/api/tokens" }) },
    POST: { kind: "collection", call: () => ({ path: "/api/tokens", body: { name: "bob's" } }) },
  },
  "/api/tokens/[id]": { DELETE: { kind: "object", call: (ids) => ({ path: `/api/tokens/${ids.tokenId}` }) } },
  "/api/share/[token]": { GET: { kind: "public", call: (ids) => ({ path: `/api/share/${ids.shareToken}` }) } },
  "/api/share/[token]/export": { GET: { kind: "public", call: (ids) => ({ path: `/api/share/${ids.shareToken}/export?format=md` }) } },
  "/api/config/status": { GET: { kind: "public", call: () => ({ path: "/api/config/status" }) } },
  "/api/openapi.json": { GET: { kind: "public", call: () => ({ path: "/api/openapi.json" }) } },
  // The JSON 404 of every /api path no route matches: nothing there to authorise.
  "/api/[...path]": {},
  "/api/auth/[...nextauth]": { GET: { kind: "public", call: () => ({ path: "/api/auth/session" }) }, POST: { kind: "public", call: () => ({ path: "/api/auth/signout" }) } },
};

/** Every route.ts under app/api with the methods it exports. */
function discoverRoutes(): { route: string; methods: Method[] }[] {
  const root = path.resolve(import.meta.dirname, "../../app");
  const out: { route: string; methods: Method[] }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const source = fs.readFileSync(full, "utf8");
        // The 405 handlers of otherMethods() are not methods the route implements.
        const methods = [...source.matchAll(/export\s+(?:const|async function|function)\s+(GET|POST|DELETE|PUT|PATCH)\b|export\s+const\s+\{\s*([A-Z, ]+)\s*\}\s*=(?!\s*otherMethods\b)/g)].flatMap((m) =>
          m[1] ? [m[1] as Method] : m[2].split(",").map((s) => s.trim() as Method),
        );
        const route = "/" + path.relative(root, path.dirname(full)).split(path.sep).filter((s) => !s.startsWith("(")).join("/");
        out.push({ route, methods });
      }
    }
  };
  walk(path.join(root, "api"));
  return out;
}

let fakes: Fakes;
let app: TestApp;
let alice: TestUser;
let bob: TestUser;
let bobCookie: string;
let ids: Ids;
let bobResearch: string;
let bobShareToken: string;
const badTokens: Record<string, string> = {};

type As = { token: string } | { cookie: string } | null;

function send(as: As, method: Method, call: Call): Promise<Response> {
  const headers: Record<string, string> = {};
  if (as && "token" in as) headers.authorization = `Bearer ${as.token}`;
  if (as && "cookie" in as) {
    headers.cookie = as.cookie;
    headers.origin = app.url; // what a browser sends on a same-origin request
  }
  if (call.body !== undefined) headers["content-type"] = "application/json";
  // Not app.fetch: that adds the default user's token.
  return fetch(`${app.url}${call.path}`, { method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body), redirect: "manual" });
}

async function errorBody(res: Response): Promise<{ error: string; code: string }> {
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const json = (await res.json()) as { error: string; code: string };
  assert.equal(typeof json.error, "string");
  assert.equal(typeof json.code, "string");
  assert.ok(!/\n\s+at /.test(json.error), "no stack trace");
  return json;
}

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "authz", env: { ...fakes.env } });
  alice = await createTestUser(app.db, { email: "alice@test.local" });
  bob = await createTestUser(app.db, { email: "bob@test.local" });
  bobCookie = await signInSession(app.url, bob.email, bob.password);
  const now = new Date();
  const research = await app.db.research.create({
    data: { userId: alice.id, initialPrompt: "Alice's private topic", status: "completed", report: "# Alice's report", depth: 1, breadth: 1, startedAt: now, completedAt: now },
  });
  await app.db.reportVerification.create({ data: { researchId: research.id, original: "# Alice's report", status: "done" } });
  const failed = await app.db.research.create({
    data: { userId: alice.id, initialPrompt: "Alice's failed topic", status: "failed", error: "boom", depth: 1, breadth: 1, startedAt: now, completedAt: now },
  });
  const draft = await app.db.research.create({ data: { userId: alice.id, initialPrompt: "Alice's draft", followupQuestions: JSON.stringify(["Why?"]) } });
  const shared = await send({ token: alice.token }, "POST", { path: `/api/research/${research.id}/shares`, body: {} });
  assert.equal(shared.status, 201, await shared.clone().text());
  const share = (await shared.json()) as { token: string; shareLink: { id: string } };
  const answer = await app.db.answerRun.create({
    data: { userId: alice.id, requestId: "alice-answer-1", question: "Alice's question", budget: 1_000, maxBadAttempt: 1, status: "running", answer: null },
  });
  const run = await app.db.run.create({ data: { kind: "tree", subjectId: research.id, userId: alice.id, status: "completed", mode: "tree" } });
  // Alice's Deep Research conversation (an active loop, so that a stop would change it) and a clarification session.
  const conversation = await app.db.conversation.create({ data: { userId: alice.id, objective: "Alice's research objective", active: true } });
  const message = await app.db.conversationMessage.create({ data: { conversationId: conversation.id, role: "user", content: "Alice's message", status: "processing", phase: "plan", iteration: 1 } });
  await app.db.conversation.update({ where: { id: conversation.id }, data: { rootMessageId: message.id, keyInsights: JSON.stringify(["Alice's insight"]) } });
  // A literature task whose tree is Alice's research: a shared conversation must not link to it.
  await app.db.researchTask.create({ data: { conversationId: conversation.id, taskKey: "lit-1-1", level: 1, position: 0, type: "LITERATURE", objective: "Alice's task objective", status: "completed", output: "Alice's task summary", childResearchId: research.id } });
  const conversationShared = await send({ token: alice.token }, "POST", { path: `/api/deep-research/conversations/${conversation.id}/shares`, body: {} });
  assert.equal(conversationShared.status, 201, await conversationShared.clone().text());
  const conversationShare = (await conversationShared.json()) as { token: string; shareLink: { id: string } };
  const clarification = await app.db.clarificationSession.create({
    data: { userId: alice.id, query: "Alice's query", status: "plan_generated", questions: JSON.stringify([{ category: "scope", question: "Q?", priority: "high" }]), plan: JSON.stringify({ objective: "o", initialTasks: [] }) },
  });
  const collection = await app.db.collection.create({ data: { userId: alice.id, name: "Alice's collection" } });
  const document = await app.db.knowledgeDocument.create({
    data: { collectionId: collection.id, name: "alice.txt", format: "text", bytes: 13, sha256: "x", content: Buffer.from("Alice's notes"), status: "ready" },
  });
  ids = {
    collection: collection.id, document: document.id,
    research: research.id, failed: failed.id, draft: draft.id, shareId: share.shareLink.id, shareToken: share.token, tokenId: alice.tokenId,
    conversation: conversation.id, conversationShareId: conversationShare.shareLink.id, conversationShareToken: conversationShare.token, message: message.id, clarification: clarification.id, run: run.id, answer: answer.requestId,
  };

  const bobs = await app.db.research.create({ data: { userId: bob.id, initialPrompt: "Bob's topic", status: "completed", report: "# Bob's report", completedAt: now } });
  bobResearch = bobs.id;
  const bobShare = (await (await send({ token: bob.token }, "POST", { path: `/api/research/${bobs.id}/shares`, body: {} })).json()) as { token: string };
  bobShareToken = bobShare.token;

  // Alice's own bad tokens: refused with 401 even on her own objects.
  const revoked = await createTestToken(app.db, alice.id, { name: "revoked" });
  await app.db.apiToken.update({ where: { id: revoked.tokenId }, data: { revokedAt: new Date() } });
  badTokens.revoked = revoked.token;
  badTokens.expired = (await createTestToken(app.db, alice.id, { name: "expired", days: 1, now: new Date(Date.now() - 3 * 86_400_000) })).token;
  const expiredInDb = await createTestToken(app.db, alice.id, { name: "expired in db" });
  await app.db.apiToken.update({ where: { id: expiredInDb.tokenId }, data: { expiresAt: new Date(Date.now() - 1000) } });
  badTokens.expiredInDatabase = expiredInDb.token;
  const [h, p, s] = alice.token.split(".");
  badTokens.tamperedSignature = `${h}.${p}.${s.slice(0, -3)}${s.endsWith("AAA") ? "BBB" : "AAA"}`;
  const payload = JSON.parse(Buffer.from(p, "base64url").toString()) as Record<string, unknown>;
  badTokens.tamperedPayload = `${h}.${Buffer.from(JSON.stringify({ ...payload, exp: 4_000_000_000 })).toString("base64url")}.${s}`;
  badTokens.otherSecret = await signApiToken({ userId: alice.id, tokenId: alice.tokenId, expiresAt: new Date(Date.now() + 86_400_000), secret: `${TEST_AUTH_SECRET}-other` });
  badTokens.deletedRow = await signApiToken({ userId: alice.id, tokenId: "no-such-token", expiresAt: new Date(Date.now() + 86_400_000), secret: TEST_AUTH_SECRET });
  badTokens.unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${p}.`;
  badTokens.garbage = "not-a-token";
});

after(async () => {
  await app?.stop();
  await fakes?.stop();
});

describe("authorisation matrix", () => {
  test("every API route and method is in the matrix", () => {
    for (const { route, methods } of discoverRoutes()) {
      assert.ok(ROUTES[route], `route ${route} is missing from the authorisation matrix`);
      for (const m of methods) assert.ok(ROUTES[route][m], `${m} ${route} is missing from the authorisation matrix`);
    }
  });

  test("Alice can use her own objects (positive control)", async () => {
    const me = { token: alice.token };
    assert.equal((await send(me, "GET", { path: `/api/research/${ids.research}` })).status, 200);
    assert.equal((await send(me, "GET", { path: `/api/research/${ids.research}?view=status` })).status, 200);
    assert.equal((await send(me, "GET", { path: `/api/research/${ids.research}/report` })).status, 200);
    assert.equal((await send(me, "GET", { path: `/api/research/${ids.failed}/error-output` })).status, 200);
    assert.equal((await send(me, "GET", { path: `/api/research/${ids.research}/verification` })).status, 200);
    for (const format of ["md", "pdf", "docx"]) assert.equal((await send(me, "GET", { path: `/api/research/${ids.research}/export?format=${format}` })).status, 200, format);
    assert.equal((await send(me, "GET", { path: `/api/research/${ids.research}/shares` })).status, 200);
    assert.equal((await send(me, "GET", { path: `/api/deep-research/conversations/${ids.conversation}/shares` })).status, 200);
    assert.equal((await send(me, "GET", { path: `/api/runs/${ids.run}` })).status, 200);
    const list = (await (await send(me, "GET", { path: "/api/research" })).json()) as { researches: { research_id: string }[] };
    assert.ok(list.researches.some((r) => r.research_id === ids.research));
  });

  for (const who of ["token", "session"] as const) {
    test(`Bob (${who}) gets 404 for every one of Alice's objects, and nothing of hers changes`, async () => {
      const as: As = who === "token" ? { token: bob.token } : { cookie: bobCookie };
      for (const [route, methods] of Object.entries(ROUTES)) {
        for (const [method, spec] of Object.entries(methods) as [Method, RouteSpec][]) {
          if (spec.kind !== "object") continue;
          const call = spec.call(ids);
          const res = await send(as, method, call);
          if (route === "/api/research/start" || route === "/api/deep-research/start") {
            // An unknown and a foreign research_id (conversationId) are indistinguishable.
            const field = route === "/api/research/start" ? "research_id" : "conversationId";
            const unknown = await send(as, method, { ...call, body: { ...(call.body as object), [field]: "does-not-exist" } });
            assert.equal(res.status, unknown.status, `${method} ${route}`);
            assert.deepEqual((await errorBody(res)).code, (await errorBody(unknown)).code);
            assert.ok([400, 404].includes(res.status));
            continue;
          }
          assert.equal(res.status, 404, `${method} ${call.path} as Bob (${who}) → ${res.status}`);
          const body = await errorBody(res);
          assert.match(body.code, /^not_found:/);
        }
      }
      // The lean status view (what pollers read) is another read of the same route.
      const status = await send(as, "GET", { path: `/api/research/${ids.research}?view=status` });
      assert.equal(status.status, 404, `the status view as Bob (${who})`);
      assert.equal((await errorBody(status)).code, "not_found:research");
      const research = await app.db.research.findUnique({ where: { id: ids.research } });
      assert.equal(research?.status, "completed", "Alice's research was neither deleted nor cancelled");
      assert.equal((await app.db.research.findUnique({ where: { id: ids.draft } }))?.status, "draft", "Alice's draft was not started");
      assert.equal((await app.db.research.findUnique({ where: { id: ids.failed } }))?.status, "failed", "Alice's failed research was neither resumed nor reported");
      assert.equal((await app.db.shareLink.findUnique({ where: { id: ids.shareId } }))?.revokedAt, null);
      assert.equal((await app.db.apiToken.findUnique({ where: { id: ids.tokenId } }))?.revokedAt, null);
      assert.equal(await app.db.shareLink.count({ where: { researchId: ids.research } }), 1, "Bob created no share link on Alice's research");
      assert.equal(await app.db.shareLink.count({ where: { conversationId: ids.conversation } }), 1, "Bob created no share link on Alice's conversation");
      assert.equal((await app.db.shareLink.findUnique({ where: { id: ids.conversationShareId } }))?.revokedAt, null, "Bob did not revoke Alice's conversation link");
      assert.equal((await app.db.answerRun.findFirst({ where: { userId: alice.id, requestId: ids.answer } }))?.status, "running", "Alice's answer run was not cancelled");
      assert.equal(await app.db.conversationMessage.count({ where: { conversationId: ids.conversation } }), 1, "Bob stored no message in Alice's conversation");
      assert.equal((await app.db.conversationMessage.findUniqueOrThrow({ where: { id: ids.message } })).stopRequestedAt, null, "Bob did not stop Alice's loop");
      assert.equal((await app.db.clarificationSession.findUniqueOrThrow({ where: { id: ids.clarification } })).status, "plan_generated", "Bob did not approve Alice's plan");
      assert.equal((await app.db.collection.findUniqueOrThrow({ where: { id: ids.collection } })).name, "Alice's collection", "Bob neither renamed nor deleted Alice's collection");
      assert.equal(await app.db.knowledgeDocument.count({ where: { collectionId: ids.collection } }), 1, "Bob neither added nor deleted a document");
    });

    test(`Bob's (${who}) lists hold only his own things`, async () => {
      const as: As = who === "token" ? { token: bob.token } : { cookie: bobCookie };
      const researches = await (await send(as, "GET", { path: "/api/research" })).text();
      assert.ok(researches.includes(bobResearch));
      for (const id of [ids.research, ids.failed, ids.draft]) assert.ok(!researches.includes(id));
      const conversations = await send(as, "GET", { path: "/api/deep-research/conversations" });
      assert.equal(conversations.status, 200);
      assert.ok(!(await conversations.text()).includes(ids.conversation), "Alice's conversation is not in Bob's list");
      const tokens = await (await send(as, "GET", { path: "/api/tokens" })).text();
      assert.ok(tokens.includes(bob.tokenId));
      assert.ok(!tokens.includes(alice.tokenId));
      assert.deepEqual(await (await send(as, "GET", { path: "/api/account" })).json(), { email: bob.email });
      const answers = await (await send(as, "GET", { path: "/api/v1/answers" })).text();
      assert.ok(!answers.includes(ids.answer));
    });
  }

  test("a token cannot mint tokens; a session can (same origin only)", async () => {
    assert.equal((await send({ token: bob.token }, "POST", { path: "/api/tokens", body: { name: "x" } })).status, 403);
    assert.equal((await send({ cookie: bobCookie }, "POST", { path: "/api/tokens", body: { name: "x" } })).status, 201);
  });

  // After Bob's lists above: from here on, he has an answer with the id of Alice's.
  test("request ids are per user: Bob may use the id of Alice's answer (learning nothing), and each sees their own", async () => {
    const res = await send({ token: bob.token }, "POST", { path: "/api/v1/query", body: { q: "Bob's own question?", requestId: ids.answer } });
    assert.equal(res.status, 202, await res.clone().text());
    const question = async (as: As) => ((await (await send(as, "GET", { path: `/api/v1/answers/${ids.answer}` })).json()) as { question: string }).question;
    assert.equal(await question({ token: alice.token }), "Alice's question");
    assert.equal(await question({ token: bob.token }), "Bob's own question?");
    const again = await send({ token: bob.token }, "POST", { path: "/api/v1/query", body: { q: "Again?", requestId: ids.answer } });
    assert.equal(again.status, 400, "his own id, used twice");
  });

  test("signed-in requests never re-issue the session cookie (a late response would undo a sign-out)", async () => {
    for (const path of ["/api/research", "/api/account", "/history", "/settings"]) {
      const res = await send({ cookie: bobCookie }, "GET", { path });
      assert.equal(res.status, 200, path);
      assert.deepEqual(res.headers.getSetCookie().filter(isSessionRefresh), [], path);
    }
  });

  test("cookie-authenticated changes from another site are refused (CSRF)", async () => {
    for (const headers of [{ origin: "http://evil.example" }, { "sec-fetch-site": "cross-site", origin: app.url }, {}] as Record<string, string>[]) {
      const res = await fetch(`${app.url}/api/research/${bobResearch}/shares`, {
        method: "POST",
        headers: { cookie: bobCookie, "content-type": "application/json", ...headers },
        body: "{}",
      });
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.equal((await errorBody(res)).code, "forbidden:csrf");
    }
    assert.equal(await app.db.shareLink.count({ where: { researchId: bobResearch } }), 1);
  });

  test("a signed-out caller gets a JSON 401 from every non-public route and method", async () => {
    for (const [route, methods] of Object.entries(ROUTES)) {
      for (const [method, spec] of Object.entries(methods) as [Method, RouteSpec][]) {
        if (spec.kind === "public") continue;
        const res = await send(null, method, spec.call(ids));
        assert.equal(res.status, 401, `${method} ${route}`);
        assert.equal((await errorBody(res)).code, "unauthorized:auth");
      }
    }
  });

  for (const kind of ["revoked", "expired", "expiredInDatabase", "tamperedSignature", "tamperedPayload", "otherSecret", "deletedRow", "unsigned", "garbage"]) {
    test(`a ${kind} token gets 401 everywhere, even on its owner's objects`, async () => {
      for (const [route, methods] of Object.entries(ROUTES)) {
        for (const [method, spec] of Object.entries(methods) as [Method, RouteSpec][]) {
          if (spec.kind === "public") continue;
          const res = await send({ token: badTokens[kind] }, method, spec.call(ids));
          assert.equal(res.status, 401, `${method} ${route} with a ${kind} token → ${res.status}`);
          assert.equal((await errorBody(res)).code, "unauthorized:auth");
        }
      }
    });
  }
});

describe("sessions end", () => {
  const account = async (as: As) => (await send(as, "GET", { path: "/api/account" })).status;

  test("a sign-out ends the session: a copy of its cookie kept from before no longer works (API tokens do)", async () => {
    const carol = await createTestUser(app.db);
    const cookie = await signInSession(app.url, carol.email, carol.password);
    const otherDevice = await signInSession(app.url, carol.email, carol.password);
    assert.equal(await account({ cookie }), 200);
    await signOutSession(app.url, cookie);
    assert.equal(await account({ cookie }), 401, "the signed-out session's cookie, replayed");
    assert.equal(await account({ cookie: otherDevice }), 401, "the user's other sessions end too");
    assert.equal(await account({ token: carol.token }), 200, "API tokens are separate");
    assert.equal(await account({ cookie: await signInSession(app.url, carol.email, carol.password) }), 200, "signing in again works");
  });

  test("a password change ends every session; the new password signs in, API tokens keep working", async () => {
    const dave = await createTestUser(app.db);
    const cookie = await signInSession(app.url, dave.email, dave.password);
    const change = (as: As, currentPassword: string) => send(as, "POST", { path: "/api/account/password", body: { currentPassword, newPassword: "a brand new passphrase" } });
    const wrong = await change({ cookie }, "not my password");
    assert.equal(wrong.status, 400);
    assert.equal(((await wrong.json()) as { field?: string }).field, "currentPassword");
    assert.equal((await change({ token: dave.token }, dave.password)).status, 403, "a token cannot change the password");
    assert.equal(await account({ cookie }), 200, "nothing changed yet");
    assert.equal((await change({ cookie }, dave.password)).status, 204);
    assert.equal(await account({ cookie }), 401);
    assert.equal(await account({ token: dave.token }), 200);
    await assert.rejects(signInSession(app.url, dave.email, dave.password), /sign-in failed/);
    assert.equal(await account({ cookie: await signInSession(app.url, dave.email, "a brand new passphrase") }), 200);
  });
});

describe("the OpenAI-compatible API (/v1)", () => {
  const calls: [Method, Call][] = [
    ["GET", { path: "/v1/models" }],
    ["POST", { path: "/v1/chat/completions", body: { model: "quarry-answer", messages: [{ role: "user", content: "What is 1+1=?" }] } }],
  ];

  test("signed out, or with a bad token: an OpenAI-shaped 401", async () => {
    for (const as of [null, { token: badTokens.revoked }, { token: badTokens.garbage }] as As[]) {
      for (const [method, call] of calls) {
        const res = await send(as, method, call);
        assert.equal(res.status, 401, `${method} ${call.path}`);
        const body = (await res.json()) as { error: { message: string; type: string; code: string } };
        assert.equal(body.error.type, "authentication_error");
        assert.equal(body.error.code, "invalid_api_key");
      }
    }
  });

  test("with a token it answers; a chat run belongs to its caller", async () => {
    const res = await send({ token: bob.token }, "POST", calls[1][1]);
    assert.equal(res.status, 200, await res.clone().text());
    const requestId = res.headers.get("x-request-id")!;
    assert.equal((await send({ token: alice.token }, "GET", { path: `/api/v1/answers/${requestId}` })).status, 404);
    assert.equal((await send({ token: bob.token }, "GET", { path: `/api/v1/answers/${requestId}` })).status, 200);
  });
});

describe("share links", () => {
  test("a share token opens its own report and nothing of the owner's", async () => {
    for (const as of [null, { token: bob.token }] as As[]) {
      const res = await send(as, "GET", { path: `/api/share/${ids.shareToken}` });
      assert.equal(res.status, 200);
      const text = await res.text();
      const { research } = JSON.parse(text) as { research: { prompt: string; report: string } };
      assert.equal(research.prompt, "Alice's private topic");
      assert.equal(research.report, "# Alice's report");
      for (const secret of [alice.id, alice.email, ids.research, ids.failed, ids.draft, ids.shareId, "Bob's", "failed topic"]) {
        assert.ok(!text.includes(secret), `shared JSON leaks ${secret}`);
      }
    }
    const bobs = (await (await send(null, "GET", { path: `/api/share/${bobShareToken}` })).json()) as { research: { prompt: string } };
    assert.equal(bobs.research.prompt, "Bob's topic");
  });

  test("a share token exports its own report in every format, read-only, and counts no opening", async () => {
    const opens = async () => (await app.db.shareLink.findUniqueOrThrow({ where: { id: ids.shareId } })).openCount;
    const before = await opens();
    for (const [format, type] of [["md", "text/markdown"], ["pdf", "application/pdf"], ["docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"]]) {
      const res = await send(null, "GET", { path: `/api/share/${ids.shareToken}/export?format=${format}` });
      assert.equal(res.status, 200, format);
      assert.ok(res.headers.get("content-type")?.startsWith(type), format);
      assert.match(res.headers.get("content-disposition") ?? "", new RegExp(`^attachment; filename="quarry-alice-s-private-topic-\\d{4}-\\d{2}-\\d{2}\\.${format}"`));
      assert.equal(res.headers.get("x-robots-tag"), "noindex");
      if (format === "md") assert.ok((await res.text()).includes("> Alice's private topic"));
    }
    assert.equal(await opens(), before);
    const bad = await send(null, "GET", { path: `/api/share/${ids.shareToken}/export?format=exe` });
    assert.equal(bad.status, 400);
    assert.equal((await errorBody(bad)).code, "bad_request:export");
    assert.equal((await send(null, "GET", { path: `/api/share/not-a-real-token-0000000000/export?format=md` })).status, 404);
    // The research's own export route is the owner's only, whatever share link exists.
    assert.equal((await send({ token: bob.token }, "GET", { path: `/api/research/${ids.research}/export?format=md` })).status, 404);
  });

  test("a conversation's share token opens the conversation read-only and nothing else of the owner's", async () => {
    const res = await send(null, "GET", { path: `/api/share/${ids.conversationShareToken}` });
    assert.equal(res.status, 200);
    const text = await res.text();
    const { conversation } = JSON.parse(text) as { conversation: { objective: string; keyInsights: string[]; plan: { id: string; objective: string; output: string | null }[]; messages: { content: string }[] } };
    assert.equal(conversation.objective, "Alice's research objective");
    assert.deepEqual(conversation.keyInsights, ["Alice's insight"]);
    assert.deepEqual(conversation.plan.map((t) => [t.id, t.objective, t.output]), [["lit-1-1", "Alice's task objective", null]]);
    assert.deepEqual(conversation.messages.map((m) => m.content), ["Alice's message"]);
    // Not the task's tree (Alice's research), nor any id or email of hers.
    for (const secret of [alice.id, alice.email, ids.research, ids.conversation, ids.message, ids.conversationShareId, "Alice's private topic", "Bob's"]) {
      assert.ok(!text.includes(secret), `shared JSON leaks ${secret}`);
    }
    const page = await send(null, "GET", { path: `/share/${ids.conversationShareToken}` });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Alice(&#x27;|')s research objective/);
    for (const secret of [alice.id, alice.email, ids.research, ids.conversation, ids.conversationShareId]) assert.ok(!html.includes(secret), `page leaks ${secret}`);
    assert.ok(!html.includes(`/research/${ids.research}`), "no link to the task's tree");
  });

  test("a revoked conversation link opens nothing", async () => {
    const made = (await (await send({ token: alice.token }, "POST", { path: `/api/deep-research/conversations/${ids.conversation}/shares`, body: {} })).json()) as { token: string; shareLink: { id: string } };
    assert.equal((await send(null, "GET", { path: `/api/share/${made.token}` })).status, 200);
    // Not through the research's route: the link is the conversation's.
    assert.equal((await send({ token: alice.token }, "DELETE", { path: `/api/research/${ids.research}/shares/${made.shareLink.id}` })).status, 404);
    const revoke = await send({ token: alice.token }, "DELETE", { path: `/api/deep-research/conversations/${ids.conversation}/shares/${made.shareLink.id}` });
    assert.equal(revoke.status, 200);
    assert.equal((await send(null, "GET", { path: `/api/share/${made.token}` })).status, 404);
    assert.equal((await send(null, "GET", { path: `/share/${made.token}` })).status, 404);
  });

  test("the shared page renders the report signed out, without ids or emails", async () => {
    const res = await send(null, "GET", { path: `/share/${ids.shareToken}` });
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(html.includes("Alice&#x27;s private topic") || html.includes("Alice's private topic"));
    for (const secret of [alice.id, alice.email, ids.research, ids.failed, ids.shareId]) assert.ok(!html.includes(secret), `page leaks ${secret}`);
  });

  test("unknown, revoked and expired share tokens open nothing", async () => {
    for (const token of ["x".repeat(43), "short", ids.shareToken.slice(0, -1) + (ids.shareToken.endsWith("A") ? "B" : "A")]) {
      const res = await send(null, "GET", { path: `/api/share/${token}` });
      assert.equal(res.status, 404);
      await errorBody(res);
    }
    const made = (await (await send({ token: alice.token }, "POST", { path: `/api/research/${ids.research}/shares`, body: {} })).json()) as { token: string; shareLink: { id: string } };
    assert.equal((await send(null, "GET", { path: `/api/share/${made.token}` })).status, 200);
    const revoke = await send({ token: alice.token }, "DELETE", { path: `/api/research/${ids.research}/shares/${made.shareLink.id}` });
    assert.equal(revoke.status, 200);
    assert.equal((await send(null, "GET", { path: `/api/share/${made.token}` })).status, 404);
    assert.equal((await send(null, "GET", { path: `/share/${made.token}` })).status, 404);
    await app.db.shareLink.update({ where: { id: ids.shareId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assert.equal((await send(null, "GET", { path: `/api/share/${ids.shareToken}` })).status, 404);
    await app.db.shareLink.update({ where: { id: ids.shareId }, data: { expiresAt: null } });
  });

  test("the owner sees how often a link was opened", async () => {
    const before = (await app.db.shareLink.findUniqueOrThrow({ where: { id: ids.shareId } })).openCount;
    await send(null, "GET", { path: `/api/share/${ids.shareToken}` });
    const list = (await (await send({ token: alice.token }, "GET", { path: `/api/research/${ids.research}/shares` })).json()) as { shareLinks: { id: string; openCount: number }[] };
    assert.equal(list.shareLinks.find((l) => l.id === ids.shareId)?.openCount, before + 1);
  });
});

describe("limits on starting research", () => {
  test("a user over the concurrent-run cap or the hourly start limit gets a clear 429", async () => {
    const carol = await createTestUser(app.db, { email: "carol@test.local" });
    const draft = () => app.db.research.create({ data: { userId: carol.id, initialPrompt: "Carol's", followupQuestions: "[]" } });
    const start = async () => send({ token: carol.token }, "POST", { path: "/api/research/start", body: { research_id: (await draft()).id, followup_answers: [], depth: 1, breadth: 1 } });
    const now = new Date();
    // MAX_CONCURRENT_RUNS_PER_USER defaults to 3: three rows already running.
    const running = await Promise.all([0, 1, 2].map(() => app.db.research.create({ data: { userId: carol.id, initialPrompt: "r", status: "running", startedAt: new Date(now.getTime() - 7_200_000) } })));
    let res = await start();
    assert.equal(res.status, 429);
    let body = await errorBody(res);
    assert.equal(body.code, "rate_limit:concurrent_runs");
    assert.match(body.error, /limit is 3/);
    assert.ok(res.headers.get("retry-after"));
    await app.db.research.updateMany({ where: { id: { in: running.map((r) => r.id) } }, data: { status: "completed" } });
    // RATE_LIMIT_STARTS_PER_HOUR defaults to 30.
    await app.db.research.createMany({ data: Array.from({ length: 30 }, () => ({ userId: carol.id, initialPrompt: "s", status: "completed", startedAt: now })) });
    res = await start();
    assert.equal(res.status, 429);
    body = await errorBody(res);
    assert.equal(body.code, "rate_limit:research_starts");
    assert.match(body.error, /30 researches in the last hour/);
    // Bob is not affected by Carol's limits.
    const bobDraft = await app.db.research.create({ data: { userId: bob.id, initialPrompt: "Bob's run", followupQuestions: "[]" } });
    const ok = await send({ token: bob.token }, "POST", { path: "/api/research/start", body: { research_id: bobDraft.id, followup_answers: [], depth: 1, breadth: 1 } });
    assert.equal(ok.status, 202, await ok.clone().text());
  });
});
