// The Documents page's formatting: sizes, types, a passage's place, and a search hit's snippet with
// the query's words (and words they begin) marked, cut around the first match.
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatSize, placeLabel, snippet, typeLabel } from "./knowledge-format";

const marked = (segments: { text: string; match: boolean }[]) => segments.filter((s) => s.match).map((s) => s.text);

test("sizes, types and places", () => {
  assert.deepEqual([formatSize(0), formatSize(999), formatSize(1_500), formatSize(12_345), formatSize(4_200_000), formatSize(3_000_000_000)], ["0 B", "999 B", "1.5 KB", "12 KB", "4.2 MB", "3.0 GB"]);
  assert.deepEqual([typeLabel("pdf"), typeLabel("markdown"), typeLabel("exe"), typeLabel("")], ["PDF", "Markdown", "EXE", "—"]);
  assert.equal(placeLabel({ page: 3, section: null }), "Page 3");
  assert.equal(placeLabel({ page: null, section: "Report › Methods" }), "Report › Methods");
});

test("a snippet marks the query's words, case-insensitively and as word beginnings, never inside a word", () => {
  const s = snippet("The moss glowed. Mosses GLOW at dusk; a bryomoss does not count.", "glow moss");
  assert.deepEqual(marked(s), ["moss", "glowed", "Mosses", "GLOW"]);
  assert.equal(s.map((x) => x.text).join(""), "The moss glowed. Mosses GLOW at dusk; a bryomoss does not count.");
  assert.deepEqual(marked(snippet("Café crème in Zürich", "zürich CAFÉ")), ["Café", "Zürich"]);
  // Regex characters in the query are words, not a pattern.
  assert.deepEqual(marked(snippet("cost (usd) 5", "(usd)")), ["usd"]);
  assert.deepEqual(snippet("plain text", "of the"), [{ text: "plain text", match: false }]);
});

test("a long passage is cut around its first match, at spaces, with ellipses", () => {
  const text = `${"filler words here ".repeat(40)}the needle sits here ${"more trailing words ".repeat(40)}`;
  const s = snippet(text, "needle", 120);
  const joined = s.map((x) => x.text).join("");
  assert.ok(joined.startsWith("…") && joined.endsWith("…"), joined);
  assert.ok(joined.length <= 124, String(joined.length));
  assert.deepEqual(marked(s), ["needle"]);
});
