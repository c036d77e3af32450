import { test } from "node:test";
import assert from "node:assert/strict";
import { distinctLearnings } from "./report-step";

test("learnings repeated for one URL reach the report once, the first branch keeping them", () => {
  const out = distinctLearnings([
    { content: "Capacity reached 4.2 GW in 2024.", url: "https://a.example/1", branchId: "b1" },
    { content: "  capacity reached 4.2 GW in 2024 ", url: "https://a.example/1", branchId: "b2" },
    { content: "Capacity reached 4.2 GW in 2024.", url: "https://b.example/2", branchId: "b2" },
    { content: "Prices fell 19 percent.", url: "https://a.example/1", branchId: "b2" },
  ]);
  assert.deepEqual(
    out.map((l) => [l.url, l.branchId]),
    [
      ["https://a.example/1", "b1"],
      ["https://b.example/2", "b2"],
      ["https://a.example/1", "b2"],
    ],
  );
});
