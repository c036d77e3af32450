import assert from "node:assert/strict";
import { test } from "node:test";
import { sortRows } from "./sort-rows";

const rows = [["north", 412], ["south", null], ["east", 9], ["region 10", 380], ["region 9", 9]];

test("a result's rows sort by numbers as numbers and text in natural order, NULL last either way, ties kept in order", () => {
  assert.deepEqual(sortRows(rows, { col: 1, dir: "ascending" }).map((r) => r[0]), ["east", "region 9", "region 10", "north", "south"]);
  assert.deepEqual(sortRows(rows, { col: 1, dir: "descending" }).map((r) => r[0]), ["north", "region 10", "east", "region 9", "south"]);
  assert.deepEqual(sortRows(rows, { col: 0, dir: "ascending" }).map((r) => r[0]), ["east", "north", "region 9", "region 10", "south"]);
  assert.equal(sortRows(rows, null), rows, "unsorted: the query's own order");
});
