import assert from "node:assert/strict";
import { test } from "node:test";
import { subtreeIds } from "./follow-up";

test("a branch is its query and every query under it, in any order of the rows", () => {
  const queries = [
    { id: "c2", parentId: "b1" },
    { id: "a", parentId: null },
    { id: "b1", parentId: "a" },
    { id: "b2", parentId: "a" },
    { id: "x", parentId: null },
    { id: "y", parentId: "x" },
    { id: "c1", parentId: "b1" },
  ];
  assert.deepEqual([...subtreeIds(queries, "b1")].sort(), ["b1", "c1", "c2"]);
  assert.deepEqual([...subtreeIds(queries, "a")].sort(), ["a", "b1", "b2", "c1", "c2"]);
  assert.deepEqual([...subtreeIds(queries, "y")], ["y"]);
});
