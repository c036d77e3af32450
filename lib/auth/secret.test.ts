import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { apiTokenKey, readOrCreateSecretFile } from "./secret";

test("the secret file is created once, private, and reused", () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quarry-secret-")), "nested", "auth-secret");
  const first = readOrCreateSecretFile(file);
  assert.ok(first.length >= 32);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(readOrCreateSecretFile(file), first);
});

test("the API token key is derived, not the secret itself", () => {
  const secret = "s".repeat(40);
  const key = apiTokenKey(secret);
  assert.equal(key.length, 32);
  assert.notEqual(Buffer.from(key).toString(), secret);
  assert.deepEqual(apiTokenKey(secret), key);
  assert.notDeepEqual(apiTokenKey("t".repeat(40)), key);
});
