import assert from "node:assert/strict";
import { test } from "node:test";
import { safeCallbackUrl } from "./redirect";

test("only same-site paths survive as callback URLs", () => {
  assert.equal(safeCallbackUrl("/research/abc?x=1"), "/research/abc?x=1");
  for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "", undefined, 42, "/a\nb"]) {
    assert.equal(safeCallbackUrl(bad), "/", String(bad));
  }
});
