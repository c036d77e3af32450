import assert from "node:assert/strict";
import test from "node:test";
import { mergeHistory, type HistoryRow } from "./history";

const row = (id: string, minute: number, kind: HistoryRow["kind"] = "tree"): HistoryRow => ({
  kind, id, title: id, status: "completed", createdAt: new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString(), href: `/x/${id}`, detail: null,
});

test("merges every kind newest first", () => {
  const merged = mergeHistory([
    { rows: [row("t2", 5), row("t1", 1)], hasMore: false },
    { rows: [row("d1", 3, "deep")], hasMore: false },
    { rows: [row("a1", 4, "answer")], hasMore: false },
  ]);
  assert.deepEqual(merged.map((r) => r.id), ["t2", "a1", "d1", "t1"]);
});

test("stops at the oldest loaded row of a list that has more pages", () => {
  // The tree list's next page may hold rows from minutes 2–1, newer than d1: d1 waits for it.
  const merged = mergeHistory([
    { rows: [row("t3", 9), row("t2", 3)], hasMore: true },
    { rows: [row("d2", 4, "deep"), row("d1", 0, "deep")], hasMore: false },
  ]);
  assert.deepEqual(merged.map((r) => r.id), ["t3", "d2", "t2"]);
});
