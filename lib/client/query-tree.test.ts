import { test } from "node:test";
import assert from "node:assert/strict";
import { buildQueryTree, descendantCounts, filterTree, levelChoiceLabel, pageCountsByQuery, reuseTree, shownQueries } from "./query-tree";
import type { SerpQueryView } from "@/lib/types";

const q = (id: string, parent: string | null, status: SerpQueryView["status"] = "completed", text = `query ${id}`): SerpQueryView => ({
  query_id: id, parent_query_id: parent, depth: id.split(".").length, position: Number(id.split(".").at(-1)), text, objective: `objective of ${id}`,
  status, level_breadth: 2, error_message: null, prompt_tokens: 0, completion_tokens: 0, created_at: "", started_at: null, completed_at: null,
});

const rows = [q("1", null), q("2", null, "failed"), q("1.1", "1"), q("1.2", "1", "analyzing", "battery recycling rates"), q("1.1.1", "1.1")];

test("collapsed branches know how many queries they hold, all levels down", () => {
  const counts = descendantCounts(buildQueryTree(rows));
  assert.equal(counts.get("1"), 3);
  assert.equal(counts.get("1.1"), 1);
  assert.equal(counts.get("2"), 0);
});

test("search keeps the matches and the path to them, nothing else", () => {
  const { roots, matched } = filterTree(buildQueryTree(rows), "Battery RATES", "all");
  assert.deepEqual([...matched], ["1.2"]);
  assert.equal(roots.length, 1);
  assert.equal(roots[0].query.query_id, "1");
  assert.deepEqual(roots[0].children.map((c) => c.query.query_id), ["1.2"]);
});

test("the status filter combines with search; no filter returns the tree as it is", () => {
  const tree = buildQueryTree(rows);
  assert.deepEqual([...filterTree(tree, "", "failed").matched], ["2"]);
  assert.deepEqual([...filterTree(tree, "", "active").matched], ["1.2"]);
  assert.equal(filterTree(tree, "battery", "failed").roots.length, 0);
  assert.equal(filterTree(tree, "  ", "all").roots, tree);
});

test("after a cancel nothing shows as in progress", () => {
  assert.deepEqual(shownQueries(rows, "cancelled").map((r) => r.status), ["completed", "failed", "completed", "stopped", "completed"]);
  assert.equal(shownQueries(rows, "running"), rows);
});

test("show-levels labels say what they show", () => {
  assert.equal(levelChoiceLabel(1, 5), "Level 1 only");
  assert.equal(levelChoiceLabel(3, 5), "Levels 1–3");
  assert.equal(levelChoiceLabel(5, 5), "All 5 levels");
});

test("a rebuilt tree keeps the nodes of unchanged branches, so their rows can skip rendering", () => {
  const before = buildQueryTree(rows);
  // Same rows: the very same tree.
  assert.equal(reuseTree(buildQueryTree(rows), before), before);
  // 1.2 changes status: it and its ancestor are new; branch 1.1 and root 2 are the old objects.
  const changed = rows.map((r) => (r.query_id === "1.2" ? { ...r, status: "completed" as const } : r));
  const after = reuseTree(buildQueryTree(changed), before);
  assert.notEqual(after, before);
  assert.notEqual(after[0], before[0]);
  assert.equal(after[0].children[0], before[0].children[0], "branch 1.1 is unchanged");
  assert.notEqual(after[0].children[1], before[0].children[1]);
  assert.equal(after[0].children[1].query.status, "completed");
  assert.equal(after[1], before[1], "root 2 is unchanged");
  // A new child is a change of its parent's branch only.
  const grown = reuseTree(buildQueryTree([...rows, q("2.1", "2")]), before);
  assert.equal(grown[0], before[0]);
  assert.deepEqual(grown[1].children.map((c) => c.query.query_id), ["2.1"]);
});

test("page counts keep their object while a query's counts are unchanged", () => {
  const site = (id: string, query: string, status: "pending" | "analyzed") => ({ id, query_id: query, url: `https://x.test/${id}`, title: null, status, item_count: 0, items: [], error_message: null });
  const first = pageCountsByQuery([site("a", "1", "pending"), site("b", "2", "analyzed")]);
  const second = pageCountsByQuery([site("a", "1", "analyzed"), site("b", "2", "analyzed")], first);
  assert.notEqual(second.get("1"), first.get("1"));
  assert.deepEqual(second.get("1"), { total: 1, analyzed: 1, failed: 0, items: 0 });
  assert.equal(second.get("2"), first.get("2"));
});
