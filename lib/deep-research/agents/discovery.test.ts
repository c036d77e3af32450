// The discovery agent's output is checked in code: evidence must be snippets the model was shown.
import assert from "node:assert/strict";
import { test } from "node:test";
import { renderItems, validateDiscoveries, type RawDiscovery } from "./discovery";

const shown = [
  { id: "qp1:0", taskKey: "lit-1-1", content: "Fact one.", url: "https://a.example/1" },
  { id: "qp2:0", taskKey: "lit-1-2", content: "Fact two.", url: "https://b.example/2" },
];
const existing = [{ key: "disc-1", claim: "Old", confidence: "low", status: "active" }];
const raw = (d: Partial<RawDiscovery>): RawDiscovery => ({
  key: null, action: "new", claim: "C", evidence: "E", novelty: "N", confidence: "high", supportingTaskIds: [], evidenceItems: [], reason: "R", ...d,
});

test("invented item ids are dropped and a wrong task id is repaired from the item", () => {
  const out = validateDiscoveries(
    [raw({ evidenceItems: [{ taskId: "lit-9-9", itemId: "qp2:0" }, { taskId: "lit-1-1", itemId: "made-up" }], supportingTaskIds: ["lit-1-1", "nope"] })],
    shown, existing, ["lit-1-1", "lit-1-2"],
  );
  assert.deepEqual(out.changes[0].items, [{ taskKey: "lit-1-2", itemId: "qp2:0" }]);
  assert.deepEqual(out.changes[0].supportingTaskIds.sort(), ["lit-1-1", "lit-1-2"]);
  assert.deepEqual(out.droppedItemIds, ["made-up"]);
});

test("a new discovery with no real evidence is rejected; unknown keys cannot be updated or retired", () => {
  const out = validateDiscoveries(
    [
      raw({ claim: "Unsupported", evidenceItems: [{ taskId: "lit-1-1", itemId: "made-up" }] }),
      raw({ key: "disc-7", action: "retire" }),
      raw({ key: "disc-7", action: "update", claim: "Becomes new", evidenceItems: [{ taskId: "lit-1-1", itemId: "qp1:0" }] }),
      raw({ key: "disc-1", action: "retire", reason: "Refuted" }),
    ],
    shown, existing, ["lit-1-1", "lit-1-2"],
  );
  assert.deepEqual(out.rejected, ["Unsupported"]);
  assert.deepEqual(out.changes.map((c) => [c.key, c.action, c.claim]), [[null, "new", "Becomes new"], ["disc-1", "retire", "C"]]);
});

test("snippets are shown within the budget", () => {
  const many = Array.from({ length: 200 }, (_, i) => ({ id: `q:${i}`, taskKey: "lit-1-1", content: "x".repeat(400), url: "https://a.example" }));
  const { shown: kept, text } = renderItems(many, 1_000);
  assert.ok(kept.length > 0 && kept.length < 200);
  assert.ok(text.length / 4 <= 1_000);
});

test("a discovery resting on a query result may state only numbers its cited results or quotes hold", () => {
  const query = { id: "ana-1-1:q1", taskKey: "ana-1-1", content: "SQL: SELECT …", url: "", result: { rows: [["north", 412], ["south", 380]], rowCount: 2 } };
  const items = [...shown, query, { id: "qp3:0", taskKey: "lit-1-1", content: "Sales grew 12% in 2023.", url: "https://c.example" }];
  const cite = (...ids: string[]) => ids.map((itemId) => ({ taskId: "x", itemId }));
  const out = validateDiscoveries(
    [
      raw({ claim: "North sold 412 units, south 380 (2 regions)", evidenceItems: cite("ana-1-1:q1") }),
      raw({ claim: "North sold 450 units", evidenceItems: cite("ana-1-1:q1") }),
      raw({ claim: "North's 412 units follow 12% growth", evidence: "as in 2023", evidenceItems: cite("ana-1-1:q1", "qp3:0") }),
      // Literature-only discoveries keep their numbers (quotes are checked by their own citations).
      raw({ claim: "Fact with 7 parts", evidenceItems: cite("qp1:0") }),
    ],
    items, existing, ["ana-1-1", "lit-1-1"],
  );
  assert.deepEqual(out.rejected, ["North sold 450 units"]);
  assert.deepEqual(out.changes.map((c) => c.claim), ["North sold 412 units, south 380 (2 regions)", "North's 412 units follow 12% growth", "Fact with 7 parts"]);
  assert.deepEqual(out.changes[0].items, [{ taskKey: "ana-1-1", itemId: "ana-1-1:q1" }]);
});
