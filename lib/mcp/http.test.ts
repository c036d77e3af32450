// The /mcp edge without a server: the Origin check the protocol asks for, and the session store's
// bounds (idle sessions closed, a user's oldest idle session closed past the cap, busy ones kept).
import assert from "node:assert/strict";
import { test } from "node:test";
import { originAllowed } from "./http";
import { IDLE_MS, MAX_PER_USER, SessionStore, type McpSession } from "./sessions";

const post = (headers: Record<string, string>) => new Request("http://quarry.local:3000/mcp", { method: "POST", headers });

test("a program's request (no Origin) and the app's own origin pass; another site, a bad Origin do not", () => {
  assert.equal(originAllowed(post({})), true);
  assert.equal(originAllowed(post({ origin: "http://quarry.local:3000", host: "quarry.local:3000" })), true);
  assert.equal(originAllowed(post({ origin: "https://evil.example", host: "quarry.local:3000" })), false);
  assert.equal(originAllowed(post({ origin: "null" })), false);
  // A forwarded host counts only behind a proxy the server was told of (TRUST_PROXY).
  assert.equal(originAllowed(post({ origin: "https://evil.example", "x-forwarded-host": "evil.example" })), false);
});

function fakeSession(userId: string, lastSeen: number, busy = 0) {
  const session = { userId, lastSeen, busy, closed: false } as McpSession;
  session.server = { close: async () => void (session.closed = true) } as McpSession["server"];
  return session;
}

test("sessions idle past IDLE_MS are closed, busy ones never; a user past the cap loses their oldest idle one", async () => {
  const store = new SessionStore();
  const now = Date.now();
  const idle = fakeSession("u1", now - IDLE_MS - 1);
  const busy = fakeSession("u1", now - IDLE_MS - 1, 1);
  store.add("idle", idle);
  store.add("busy", busy);
  await new Promise((r) => setImmediate(r));
  assert.equal(idle.closed, true);
  assert.equal(busy.closed, false);

  const many = Array.from({ length: MAX_PER_USER }, (_, i) => fakeSession("u2", now - 1000 + i));
  many.forEach((s, i) => store.add(`s${i}`, s));
  const other = fakeSession("u3", now - 5000);
  store.add("other", other);
  await new Promise((r) => setImmediate(r));
  assert.equal(many.filter((s) => s.closed).length, 0, "at the cap, none closed");
  store.add("one-more", fakeSession("u2", now));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(many.map((s) => s.closed).indexOf(true), 0, "the least recently used of that user");
  assert.equal(many.filter((s) => s.closed).length, 1);
  assert.equal(other.closed, false, "another user's are not counted");
  store.sweep(Infinity);
});
