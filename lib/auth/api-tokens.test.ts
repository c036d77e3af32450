import assert from "node:assert/strict";
import { test } from "node:test";
import { SignJWT } from "jose";
import { useTestDatabase } from "../db/test-support";

await useTestDatabase();
const { db } = await import("../db/client");
const { issueApiToken, verifyApiToken, revokeApiToken, listApiTokens } = await import("./api-tokens");
const { apiTokenKey } = await import("./secret");

const alice = await db.user.create({ data: { email: "alice@example.com", passwordHash: "x" } });
const bob = await db.user.create({ data: { email: "bob@example.com", passwordHash: "x" } });

test("a fresh token identifies its owner, and listing never includes the token itself", async () => {
  const { token, apiToken } = await issueApiToken({ userId: alice.id, name: "laptop" });
  assert.deepEqual(await verifyApiToken(token), { userId: alice.id, tokenId: apiToken.id });
  const listed = await listApiTokens({ userId: alice.id });
  assert.ok(listed.some((t) => t.id === apiToken.id));
  assert.ok(!JSON.stringify(listed).includes(token));
  assert.equal((await listApiTokens({ userId: bob.id })).length, 0);
});

test("revocation takes effect on the next request", async () => {
  const { token, apiToken } = await issueApiToken({ userId: alice.id, name: "revoke me" });
  assert.ok(await verifyApiToken(token));
  await revokeApiToken({ userId: alice.id, id: apiToken.id });
  assert.equal(await verifyApiToken(token), null);
});

test("another user cannot revoke a token (404)", async () => {
  const { token, apiToken } = await issueApiToken({ userId: alice.id, name: "mine" });
  await assert.rejects(revokeApiToken({ userId: bob.id, id: apiToken.id }), (e: { code?: string }) => e.code === "not_found:token");
  assert.ok(await verifyApiToken(token));
});

test("an expired token is refused", async () => {
  const past = new Date(Date.now() - 3 * 86_400_000);
  const { token } = await issueApiToken({ userId: alice.id, name: "old", days: 1, now: past });
  assert.equal(await verifyApiToken(token), null);
});

test("tampered, foreign-key, unsigned and malformed tokens are refused", async () => {
  const { token, apiToken } = await issueApiToken({ userId: alice.id, name: "t" });
  const [h, p, s] = token.split(".");
  const payload = JSON.parse(Buffer.from(p, "base64url").toString());
  const forgedPayload = Buffer.from(JSON.stringify({ ...payload, sub: bob.id })).toString("base64url");
  assert.equal(await verifyApiToken(`${h}.${forgedPayload}.${s}`), null, "payload changed");
  const flipped = s.slice(0, -2) + (s.at(-2) === "A" ? "B" : "A") + s.at(-1);
  assert.equal(await verifyApiToken(`${h}.${p}.${flipped}`), null, "signature changed");
  const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
  assert.equal(await verifyApiToken(`${none}.${p}.`), null, "alg none");
  const otherKey = await new SignJWT(payload).setProtectedHeader({ alg: "HS256" }).sign(apiTokenKey("another secret that is long enough!!"));
  assert.equal(await verifyApiToken(otherKey), null, "other key");
  // Right key, but the jti names a token of another user.
  const wrongOwner = await new SignJWT({ ...payload, sub: bob.id }).setProtectedHeader({ alg: "HS256" }).sign(apiTokenKey());
  assert.equal(await verifyApiToken(wrongOwner), null, "sub does not own jti");
  for (const junk of ["", "abc", "a.b.c", token + "x"]) assert.equal(await verifyApiToken(junk), null, junk);
  assert.ok(await verifyApiToken(token), "the original still works");
  assert.ok(apiToken.id);
});

test("lastUsedAt is written at most once a minute", async () => {
  const t0 = new Date();
  const { token, apiToken } = await issueApiToken({ userId: alice.id, name: "usage", now: t0 });
  const read = async () => (await db.apiToken.findUniqueOrThrow({ where: { id: apiToken.id } })).lastUsedAt?.getTime();
  assert.equal(await read(), undefined);
  await verifyApiToken(token, t0);
  assert.equal(await read(), t0.getTime());
  await verifyApiToken(token, new Date(t0.getTime() + 30_000));
  assert.equal(await read(), t0.getTime(), "not rewritten within a minute");
  const later = new Date(t0.getTime() + 61_000);
  await verifyApiToken(token, later);
  assert.equal(await read(), later.getTime());
});

test("a token cannot outlive API_TOKEN_MAX_DAYS", async () => {
  await assert.rejects(issueApiToken({ userId: alice.id, name: "forever", days: 100_000 }), (e: { code?: string }) => e.code === "bad_request:token");
});
