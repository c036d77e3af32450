import assert from "node:assert/strict";
import { test } from "node:test";
import { createShareSchema, createTokenSchema } from "./schema";

const fieldOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => (result.success ? null : String(result.error!.issues[0].path[0]));

test("a share link's expiresInDays is a whole number of days or null: true, strings and the like are refused naming the field", () => {
  for (const expiresInDays of [true, false, "7", "", [7], {}, 0, 1.5, 3_651]) {
    assert.equal(fieldOf(createShareSchema.safeParse({ expiresInDays })), "expiresInDays", JSON.stringify(expiresInDays));
  }
  for (const expiresInDays of [1, 30, 3_650, null, undefined]) assert.ok(createShareSchema.safeParse({ expiresInDays }).success, String(expiresInDays));
});

test("an API token's days is a whole number: true is not 1 day", () => {
  for (const days of [true, false, "30", "", 0, 2.5]) assert.equal(fieldOf(createTokenSchema.safeParse({ name: "ci", days })), "days", JSON.stringify(days));
  assert.equal(createTokenSchema.parse({ name: "ci", days: 30 }).days, 30);
  assert.equal(createTokenSchema.parse({ name: "ci" }).days, undefined);
});
