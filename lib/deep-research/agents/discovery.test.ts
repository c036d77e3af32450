// The discovery agent's output is checked in code: evidence names snippets the model was shown, by
// handle (S1 …) or a near-miss of it; what names none is dropped, and a discovery left without
// evidence is kept, unlinked, rather than lost.
import assert from "node:assert/strict";
import { test } from "node:test";
import { validateDiscoveries, type RawDiscovery } from "./discovery";
import { renderItems, type EvidenceItem } from "./snippets";

const items: EvidenceItem[] = [
  { id: "cmitem0000000000000000001", taskKey: "lit-1-1", content: "Fact one.", url: "https://a.example/1" },
  { id: "cmitem0000000000000000002", taskKey: "lit-1-2", content: "Fact two.", url: "https://b.example/2" },
];
const shown = renderItems(items, 10_000).choices;
const existing = [{ key: "disc-1", claim: "Old", confidence: "low", status: "active" }];
const raw = (d: Partial<RawDiscovery>): RawDiscovery => ({
  key: null, action: "new", claim: "C", evidence: "E", novelty: "N", confidence: "high", supportingTaskIds: [], evidenceItems: [], reason: "R", ...d,
});

test("snippets are shown under handles S1, S2 … and the handles resolve back to the stored items", () => {
  const { text, choices } = renderItems(items, 10_000);
  assert.match(text, /^<item id="S1" task="lit-1-1" url="https:\/\/a\.example\/1">Fact one\.<\/item>\n<item id="S2" task="lit-1-2"/);
  assert.ok(!text.includes("cmitem"), "no stored id is shown to be retyped");
  assert.deepEqual(choices.map((c) => [c.handle, c.value.id]), [["S1", items[0].id], ["S2", items[1].id]]);
});

test("evidence handles resolve in the model's own spelling; what names nothing is dropped and the task is repaired from the item", () => {
  const out = validateDiscoveries(
    [
      raw({ claim: "A", evidenceItems: ["S2", "made-up"], supportingTaskIds: ["lit-1-1", "nope"] }),
      raw({ claim: "B", evidenceItems: ["[s1]", " S2 ", "Source 1"] }),
      // A stored id or the page's URL (with its own trailing slash) name the item too.
      raw({ claim: "C", evidenceItems: [items[1].id, "https://A.example/1/"] }),
    ],
    shown, existing, ["lit-1-1", "lit-1-2"],
  );
  assert.deepEqual(out.changes.map((c) => c.items), [
    [{ taskKey: "lit-1-2", itemId: items[1].id }],
    [{ taskKey: "lit-1-1", itemId: items[0].id }, { taskKey: "lit-1-2", itemId: items[1].id }],
    [{ taskKey: "lit-1-2", itemId: items[1].id }, { taskKey: "lit-1-1", itemId: items[0].id }],
  ]);
  assert.deepEqual(out.changes[0].supportingTaskIds.sort(), ["lit-1-1", "lit-1-2"]);
  assert.deepEqual(out.droppedItemIds, ["made-up"]);
});

test("a new discovery whose evidence names no snippet is kept without linked evidence; unknown keys cannot be updated or retired", () => {
  const out = validateDiscoveries(
    [
      raw({ claim: "Unlinked", evidenceItems: ["S9", "the second snippet"] }),
      raw({ key: "disc-7", action: "retire" }),
      raw({ key: "disc-7", action: "update", claim: "Becomes new", evidenceItems: ["S1"] }),
      raw({ key: "DISC-1", action: "retire", reason: "Refuted" }),
    ],
    shown, existing, ["lit-1-1", "lit-1-2"],
  );
  assert.deepEqual(out.rejected, []);
  assert.deepEqual(out.unlinked, ["Unlinked"]);
  assert.deepEqual(out.changes.map((c) => [c.key, c.action, c.claim, c.items.length]), [[null, "new", "Unlinked", 0], [null, "new", "Becomes new", 1], ["disc-1", "retire", "C", 0]]);
});

test("with one snippet shown, a value that does not name it is not taken for it", () => {
  const one = renderItems(items.slice(0, 1), 10_000).choices;
  const out = validateDiscoveries([raw({ evidenceItems: ["a study"] })], one, [], ["lit-1-1"]);
  assert.deepEqual(out.changes[0].items, []);
});

test("snippets are shown within the budget", () => {
  const many = Array.from({ length: 200 }, (_, i) => ({ id: `q:${i}`, taskKey: "lit-1-1", content: "x".repeat(400), url: "https://a.example" }));
  const { shown: kept, text } = renderItems(many, 1_000);
  assert.ok(kept.length > 0 && kept.length < 200);
  assert.ok(text.length / 4 <= 1_000);
});

test("a discovery resting on a query result may state only numbers its cited results or quotes hold", () => {
  const query = { id: "ana-1-1:q1", taskKey: "ana-1-1", content: "SQL: SELECT …", url: "", result: { rows: [["north", 412], ["south", 380]], rowCount: 2 } };
  // S1, S2: the literature items; S3: the query; S4: a quote with a figure.
  const all = renderItems([...items, query, { id: "qp3:0", taskKey: "lit-1-1", content: "Sales grew 12% in 2023.", url: "https://c.example" }], 10_000).choices;
  const out = validateDiscoveries(
    [
      raw({ claim: "North sold 412 units, south 380 (2 regions)", evidenceItems: ["S3"] }),
      raw({ claim: "North sold 450 units", evidenceItems: ["S3"] }),
      raw({ claim: "North's 412 units follow 12% growth", evidence: "as in 2023", evidenceItems: ["S3", "S4"] }),
      // Literature-only discoveries keep their numbers (quotes are checked by their own citations).
      raw({ claim: "Fact with 7 parts", evidenceItems: ["S1"] }),
      // The query's stored id names it too.
      raw({ claim: "North 412", evidenceItems: ["ana-1-1:q1"] }),
    ],
    all, existing, ["ana-1-1", "lit-1-1"],
  );
  assert.deepEqual(out.rejected, ["North sold 450 units"]);
  assert.deepEqual(out.changes.map((c) => c.claim), ["North sold 412 units, south 380 (2 regions)", "North's 412 units follow 12% growth", "Fact with 7 parts", "North 412"]);
  assert.deepEqual(out.changes[0].items, [{ taskKey: "ana-1-1", itemId: "ana-1-1:q1" }]);
  assert.deepEqual(out.changes[3].items, [{ taskKey: "ana-1-1", itemId: "ana-1-1:q1" }]);
});

test("a discovery whose cited query result does not hold its figures is linked to the snippets that do, a result's or a page's; a figure no snippet holds, or two could, and it is rejected", () => {
  const q = (id: string, rows: (string | number)[][]) => ({ id, taskKey: id.split(":")[0], content: "SQL: SELECT …", url: "", result: { rows, rowCount: rows.length } });
  // S1, S2: literature; S3, S4, S5: three queries, the last two holding south's 380; S6: a page's snippet with figures.
  const page = { id: "cmitem0000000000000000006", taskKey: "lit-1-2", content: "Sales grew 12% in 2023.", url: "https://c.example/6" };
  const all = renderItems([...items, q("ana-1-1:q1", [["north", 412]]), q("ana-1-2:q1", [["south", 380]]), q("ana-1-2:q2", [["south", 380], ["east", 95]]), page], 10_000).choices;
  const out = validateDiscoveries(
    [
      // S3 for S5 (a misnamed handle): only S5 holds both 380 and 95.
      raw({ claim: "South sold 380 units and east 95", evidenceItems: ["S3"] }),
      // 380 alone: two results hold it, the link is not guessed.
      raw({ claim: "South sold 380 units", evidenceItems: ["S3"] }),
      // No snippet holds 999.
      raw({ claim: "North sold 999 units", evidenceItems: ["S3"] }),
      // A page's figures with a query's handle: the page's snippet is its evidence.
      raw({ claim: "Sales grew 12% in 2023", evidenceItems: ["S3"] }),
    ],
    all, existing, ["ana-1-1", "ana-1-2", "lit-1-2"],
  );
  assert.deepEqual(out.relinked, ["South sold 380 units and east 95", "Sales grew 12% in 2023"]);
  assert.deepEqual(out.rejected, ["South sold 380 units", "North sold 999 units"]);
  assert.deepEqual(out.changes.map((c) => [c.claim, c.items, c.supportingTaskIds]), [
    ["South sold 380 units and east 95", [{ taskKey: "ana-1-2", itemId: "ana-1-2:q2" }], ["ana-1-2"]],
    ["Sales grew 12% in 2023", [{ taskKey: "lit-1-2", itemId: page.id }], ["lit-1-2"]],
  ]);
});
