import assert from "node:assert/strict";
import { test } from "node:test";
import type { LiveWebsiteView } from "@/lib/types";
import { normalizeUrl } from "./format";
import { groupSources, itemsByUrl } from "./sources";

const site = (id: string, query: string, url: string, items: string[] | null, count = items?.length ?? 0): LiveWebsiteView => ({
  id, query_id: query, url, title: null, status: "analyzed", error_message: null, item_count: count, items: items?.map((content) => ({ content })) ?? null,
});

test("an ended research's snapshot without item text: counts are known, the text is pending", () => {
  const websites = [site("1", "q1", "https://a.test/x", null, 2), site("2", "q2", "https://a.test/x", null, 1), site("3", "q1", "https://b.test/", null, 0)];
  const [a, b] = groupSources(websites, [], "completed");
  assert.equal(a.findings, 3);
  assert.equal(a.textPending, true);
  assert.equal(b.findings, 0);
  assert.equal(b.textPending, false, "nothing to fetch for a page without findings");
  assert.equal(itemsByUrl(websites).get(normalizeUrl("https://a.test/x"))?.items, null);
  assert.deepEqual(itemsByUrl(websites).get(normalizeUrl("https://b.test/"))?.items, []);
});

test("with the text, a source's findings are every use's, and citations dedupe them", () => {
  const websites = [site("1", "q1", "https://a.test/x", ["f1", "f2"]), site("2", "q2", "https://a.test/x", ["f2"])];
  const [a] = groupSources(websites, [], "completed");
  assert.equal(a.findings, 3);
  assert.equal(a.textPending, false);
  assert.deepEqual(a.items.map((i) => i.content), ["f1", "f2", "f2"]);
  assert.deepEqual(itemsByUrl(websites).get(normalizeUrl("https://a.test/x"))?.items?.map((i) => i.content), ["f1", "f2"]);
});
