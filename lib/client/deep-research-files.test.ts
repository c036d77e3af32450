import assert from "node:assert/strict";
import { test } from "node:test";
import { formatBytes } from "./deep-research-files";

test("file sizes in binary units", () => {
  assert.deepEqual([formatBytes(0), formatBytes(1023), formatBytes(1536), formatBytes(20 * 1024), formatBytes(5 * 1024 * 1024)], ["0 B", "1023 B", "1.5 KiB", "20 KiB", "5.0 MiB"]);
});
