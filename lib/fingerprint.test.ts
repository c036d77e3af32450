import { test } from "node:test";
import assert from "node:assert/strict";
import { fingerprint } from "./fingerprint";

test("a fingerprint is the same for the same text and differs for a one-character change", () => {
  const report = "# Report\n\nGrid batteries added 10 GW [1].\n";
  assert.equal(fingerprint(report), fingerprint(`${report}`));
  assert.notEqual(fingerprint(report), fingerprint(report.replace("10", "11")));
  assert.notEqual(fingerprint(report), fingerprint(`${report} `));
  assert.match(fingerprint(""), /^0-/);
});
