import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";
import { AppError } from "../errors";

await useTestDatabase();
const { db } = await import("../db/client");
const { createShareLink, hashShareToken, listShareLinks, listUserShareLinks, resolveShareToken, revokeShareLink } = await import("./share-links");

const alice = await db.user.create({ data: { email: "alice@example.com", passwordHash: "x" } });
const bob = await db.user.create({ data: { email: "bob@example.com", passwordHash: "x" } });
const research = await db.research.create({ data: { userId: alice.id, initialPrompt: "solar panels", status: "completed" } });

test("a share token has 256 bits, is stored only as its SHA-256, and counts its openings", async () => {
  const { token, shareLink } = await createShareLink({ userId: alice.id, researchId: research.id });
  assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  const row = await db.shareLink.findUniqueOrThrow({ where: { id: shareLink.id } });
  assert.equal(row.tokenHash, hashShareToken(token));
  assert.notEqual(row.tokenHash, token);
  assert.deepEqual(await resolveShareToken(token), { researchId: research.id, conversationId: null, shareLinkId: shareLink.id });
  await resolveShareToken(token);
  const [listed] = (await listShareLinks({ userId: alice.id, researchId: research.id })).filter((l) => l.id === shareLink.id);
  assert.equal(listed.openCount, 2);
  assert.ok(listed.lastOpenedAt);
});

test("revoked and expired links open nothing", async () => {
  const { token, shareLink } = await createShareLink({ userId: alice.id, researchId: research.id });
  await revokeShareLink({ userId: alice.id, researchId: research.id, id: shareLink.id });
  assert.equal(await resolveShareToken(token), null);
  const past = new Date(Date.now() - 2 * 86_400_000);
  const expired = await createShareLink({ userId: alice.id, researchId: research.id, expiresInDays: 1, now: past });
  assert.equal(expired.shareLink.active, true, "active when created");
  assert.equal(await resolveShareToken(expired.token), null);
});

test("only the owner can create, list or revoke links (404 for others)", async () => {
  const notFound = (e: unknown) => e instanceof AppError && e.type === "not_found";
  await assert.rejects(createShareLink({ userId: bob.id, researchId: research.id }), notFound);
  await assert.rejects(listShareLinks({ userId: bob.id, researchId: research.id }), notFound);
  const { token, shareLink } = await createShareLink({ userId: alice.id, researchId: research.id });
  await assert.rejects(revokeShareLink({ userId: bob.id, researchId: research.id, id: shareLink.id }), notFound);
  const bobs = await db.research.create({ data: { userId: bob.id, initialPrompt: "bob's" } });
  // Bob cannot revoke Alice's link by naming his own research either.
  await assert.rejects(revokeShareLink({ userId: bob.id, researchId: bobs.id, id: shareLink.id }), notFound);
  assert.ok(await resolveShareToken(token));
});

test("a conversation's links: created, listed and revoked by its owner only; a research's link cannot be revoked through it", async () => {
  const notFound = (e: unknown) => e instanceof AppError && e.type === "not_found";
  const conversation = await db.conversation.create({ data: { userId: alice.id, objective: "kelp forests" } });
  const { token, shareLink } = await createShareLink({ userId: alice.id, conversationId: conversation.id });
  assert.equal(shareLink.conversationId, conversation.id);
  assert.equal(shareLink.researchId, null);
  assert.deepEqual(await resolveShareToken(token, { countOpen: false }), { researchId: null, conversationId: conversation.id, shareLinkId: shareLink.id });
  assert.deepEqual((await listShareLinks({ userId: alice.id, conversationId: conversation.id })).map((l) => l.id), [shareLink.id]);
  await assert.rejects(createShareLink({ userId: bob.id, conversationId: conversation.id }), notFound);
  await assert.rejects(listShareLinks({ userId: bob.id, conversationId: conversation.id }), notFound);
  await assert.rejects(revokeShareLink({ userId: bob.id, conversationId: conversation.id, id: shareLink.id }), notFound);
  // A research's link is not the conversation's.
  const researchLink = await createShareLink({ userId: alice.id, researchId: research.id });
  await assert.rejects(revokeShareLink({ userId: alice.id, conversationId: conversation.id, id: researchLink.shareLink.id }), notFound);
  const all = await listUserShareLinks({ userId: alice.id });
  assert.equal(all.find((l) => l.id === shareLink.id)?.title, "kelp forests");
  assert.equal(all.find((l) => l.id === researchLink.shareLink.id)?.title, "solar panels");
  assert.equal((await listUserShareLinks({ userId: bob.id })).length, 0);
  await revokeShareLink({ userId: alice.id, conversationId: conversation.id, id: shareLink.id });
  assert.equal(await resolveShareToken(token), null);
});

test("malformed and unknown tokens resolve to nothing", async () => {
  for (const t of ["", "x", "../../etc", "A".repeat(43), "A".repeat(44)]) assert.equal(await resolveShareToken(t), null, t);
});
