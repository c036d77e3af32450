import assert from "node:assert/strict";
import { test } from "node:test";

process.env.AUTH_SECRET = "a-test-secret-of-at-least-thirty-two-characters";
process.env.ANSWER_STREAM_TOKEN_SECONDS = "600";
const { issueStreamToken, verifyStreamToken } = await import("./stream-token");

test("a stream token reads its own run, as its owner, until it expires", () => {
  const now = Date.parse("2026-01-14T10:00:00Z");
  const { streamToken, streamTokenExpiresAt } = issueStreamToken({ requestId: "req-1", userId: "user-1", now });
  assert.equal(streamTokenExpiresAt, "2026-01-14T10:10:00.000Z");
  assert.deepEqual(verifyStreamToken(streamToken, "req-1", now + 1_000), { userId: "user-1" });
  assert.equal(verifyStreamToken(streamToken, "req-2", now), null, "another run");
  assert.equal(verifyStreamToken(streamToken, "req-1", now + 600_000), null, "expired");
  const [payload, mac] = streamToken.split(".");
  const forged = Buffer.from(JSON.stringify({ r: "req-1", u: "user-2", e: Math.floor(now / 1000) + 600 })).toString("base64url");
  assert.equal(verifyStreamToken(`${forged}.${mac}`, "req-1", now), null, "another owner, same signature");
  assert.equal(verifyStreamToken(`${payload}.${mac}x`, "req-1", now), null);
  assert.equal(verifyStreamToken("garbage", "req-1", now), null);
  assert.equal(verifyStreamToken(`${payload}.${mac}.x`, "req-1", now), null);
});
