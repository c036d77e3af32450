import { test } from "node:test";
import assert from "node:assert/strict";
import { canonicalCitations, citedSourceCount, linkReferenceMarkers, numberCitations, splitNumberedSources, stripSourcesSection } from "./report-citations";

const titles = new Map<string, string | null>([
  ["https://example.org/a", "Heat pumps [2024] *review*"],
  ["https://news.example.com/story?id=4", null],
]);

test("numbers citations by first appearance and reuses a source's number", () => {
  const md = [
    "# Report",
    "",
    "Growth was 12% ([source](https://example.org/a)). Sales fell [7](https://news.example.com/story?id=4).",
    "Again 12% [source](https://example.org/a), see also https://news.example.com/story?id=4.",
  ].join("\n");
  const r = numberCitations(md, titles);
  assert.deepEqual(r.sources.map((s) => [s.n, s.url]), [[1, "https://example.org/a"], [2, "https://news.example.com/story?id=4"]]);
  assert.match(r.markdown, /Growth was 12% \[1\]\(https:\/\/example\.org\/a\)\. Sales fell \[2\]\(https:\/\/news\.example\.com\/story\?id=4\)\./);
  assert.match(r.markdown, /Again 12% \[1\]\(https:\/\/example\.org\/a\), see also \[2\]\(https:\/\/news\.example\.com\/story\?id=4\)\./);
});

test("a bare URL cited in brackets or parentheses, labelled or not, is the numbered citation, its wrapper gone", () => {
  const A = "https://a.example/x";
  const B = "https://b.example/y";
  const { markdown } = numberCitations(`Prices fell 20% [${A}]. Capacity doubled (Source: ${B}). Storage grew (${A}). See ${B} for details.`, new Map());
  assert.equal(markdown.split("\n")[0], `Prices fell 20% [1](${A}). Capacity doubled [2](${B}). Storage grew [1](${A}). See [2](${B}) for details.`);
});

test("a descriptive link keeps its words and gets the number after them", () => {
  const r = numberCitations("Read [the 2024 survey](https://example.org/a).", titles);
  assert.match(r.markdown, /^Read the 2024 survey \[1\]\(https:\/\/example\.org\/a\)\./);
});

test("the model's own source list is replaced by the numbered list with titles", () => {
  const md = "Text [1](https://example.org/a).\n\n## References\n\n- https://example.org/a\n- https://other.example/never-cited\n";
  const r = numberCitations(md, titles);
  assert.equal(r.sources.length, 1, "a URL only in the model's list is not a citation");
  assert.ok(!r.markdown.includes("never-cited"));
  assert.ok(!r.markdown.includes("## References"));
  const parsed = splitNumberedSources(r.markdown);
  assert.deepEqual(parsed.sources, [{ n: 1, url: "https://example.org/a", title: "Heat pumps [2024] *review*" }]);
  assert.equal(parsed.body, "Text [1](https://example.org/a).\n");
});

test("a page without a title is listed by host and path", () => {
  const r = numberCitations("X <https://news.example.com/story?id=4>", titles);
  assert.equal(r.sources[0].title, "news.example.com/story");
  assert.match(r.markdown, /X \[1\]\(https:\/\/news\.example\.com\/story\?id=4\)/);
});

test("a report without citations gets no list, and an old report parses as having none", () => {
  const r = numberCitations("# No findings\n\nNothing.", titles);
  assert.equal(r.sources.length, 0);
  assert.ok(!r.markdown.includes("## Sources"));
  const old = "Text ([source](https://example.org/a)).\n\n## Sources\n\n1. [https://example.org/a](https://example.org/a)\n";
  assert.deepEqual(splitNumberedSources(old), { body: old, sources: [] });
});

test("stripping a Sources section stops at the next heading of the same level", () => {
  assert.equal(stripSourcesSection("A\n\n## Sources\n- x\n\n## Appendix\nB"), "A\n\n## Appendix\nB");
});

test("sources cited: the numbered list, or an old report's distinct linked URLs", () => {
  assert.equal(citedSourceCount(numberCitations("A [x](https://example.org/a) B <https://news.example.com/story?id=4>", titles).markdown), 2);
  assert.equal(citedSourceCount("Old ([source](https://a.example/1)), ([source](https://a.example/1)), [s](https://b.example/2)."), 2);
  assert.equal(citedSourceCount("# Nothing cited"), 0);
});

test("a report citing by number with its own reference list gets each marker linked to its entry's URL", () => {
  const md = [
    "# Report",
    "",
    "Growth was 12% [1]. Sales fell [2, 3]. Both [1][3]. A figure [Figure 2] and [sic] stay, as does [9] (no entry).",
    "",
    "## References",
    "",
    "1. Heat pumps review — https://example.org/a",
    "[2] https://news.example.com/story?id=4.",
    "- [3] Another source (<https://c.example/p>)",
  ].join("\n");
  const linked = linkReferenceMarkers(md);
  assert.match(linked, /Growth was 12% \[source\]\(https:\/\/example\.org\/a\)\./);
  assert.match(linked, /Sales fell \[source\]\(https:\/\/news\.example\.com\/story\?id=4\)\[source\]\(https:\/\/c\.example\/p\)\./);
  assert.match(linked, /Both \[source\]\(https:\/\/example\.org\/a\)\[source\]\(https:\/\/c\.example\/p\)\./);
  assert.match(linked, /\[Figure 2\] and \[sic\] stay, as does \[9\] \(no entry\)/);
  // Numbered as any citation, the model's list replaced by the generated one.
  const r = numberCitations(linked, titles);
  assert.deepEqual(r.sources.map((s) => s.url), ["https://example.org/a", "https://news.example.com/story?id=4", "https://c.example/p"]);
  assert.match(r.markdown, /Growth was 12% \[1\]\(https:\/\/example\.org\/a\)\. Sales fell \[2\]/);
  assert.equal(r.markdown.match(/## /g)?.length, 1, "one list: the generated one");
});

test("Markdown reference definitions and footnotes name their URLs too, and go", () => {
  const md = "Growth was 12% [^1]. Sales fell [b].\n\n[^1]: The survey, https://example.org/a\n[B]: <https://news.example.com/story?id=4> \"News\"\n";
  const linked = linkReferenceMarkers(md);
  assert.equal(linked.trim(), "Growth was 12% [source](https://example.org/a). Sales fell [source](https://news.example.com/story?id=4).");
});

test("a reference list headed in the report's own language ('## Quellen', '参考资料：') is the model's list too", () => {
  for (const heading of ["## Quellen", "**Quellen:**", "## Références", "参考资料：", "### 参考文献", "## Источники"]) {
    const md = ["# Bericht", "", "Der Absatz wuchs um 12% [1]. Die Kosten fielen [2].", "", heading, "", "1. Studie — https://example.org/a", "2. Nachrichten — https://news.example.com/story"].join("\n");
    const linked = linkReferenceMarkers(md);
    assert.match(linked, /wuchs um 12% \[source\]\(https:\/\/example\.org\/a\)\./, heading);
    assert.match(linked, /Die Kosten fielen \[source\]\(https:\/\/news\.example\.com\/story\)\./, heading);
    const r = numberCitations(linked, titles);
    assert.equal(r.sources.length, 2, heading);
    assert.ok(!r.markdown.includes(heading), `${heading}: the model's list goes`);
  }
  // A section of that name whose first word only is a source word stays ("## Literature review", "## Quellenlage").
  const kept = "Text [1](https://example.org/a).\n\n## Literature review\n\nThe studies agree.\n\n## Quellenlage\n\nDünn.";
  assert.match(stripSourcesSection(kept), /## Literature review\n\nThe studies agree\.\n\n## Quellenlage\n\nDünn\./);
});

test("a report without its own reference list is unchanged", () => {
  const md = "Growth was 12% [1](https://example.org/a). See [1] and [Table 1].\n\n## Open questions\n\n1. Which https://example.org/a?";
  assert.equal(linkReferenceMarkers(md), md);
});

test("a reference list under a bold or plain label line, ranges and 'Source n' markers are linked too", () => {
  const md = [
    "# Report",
    "",
    "Growth was 12% [1–3]. Sales fell [Source 2]. Costs rose [1, 3-4]. Too wide [1-30] and backwards [3-1] stay.",
    "",
    "**References**",
    "",
    "1. Heat pumps review — https://example.org/a",
    "2. News — https://news.example.com/story",
    "3. Third — https://c.example/p",
    "4. Fourth — https://d.example/q",
  ].join("\n");
  const linked = linkReferenceMarkers(md);
  assert.match(linked, /Growth was 12% \[source\]\(https:\/\/example\.org\/a\)\[source\]\(https:\/\/news\.example\.com\/story\)\[source\]\(https:\/\/c\.example\/p\)\./);
  assert.match(linked, /Sales fell \[source\]\(https:\/\/news\.example\.com\/story\)\./);
  assert.match(linked, /Costs rose \[source\]\(https:\/\/example\.org\/a\)\[source\]\(https:\/\/c\.example\/p\)\[source\]\(https:\/\/d\.example\/q\)\./);
  assert.match(linked, /Too wide \[1-30\] and backwards \[3-1\] stay\./);
  const r = numberCitations(linked, titles);
  assert.equal(r.sources.length, 4);
  assert.doesNotMatch(r.markdown, /\*\*References\*\*/, "the model's list goes with its label");
  assert.equal(r.markdown.match(/Heat pumps review/g), null, "the model's entries are not left in the text");
});

test("a source list under a label ends at the first line that is no entry", () => {
  const md = ["Intro [1](https://example.org/a).", "", "Sources:", "- https://example.org/a", "", "A closing remark stays."].join("\n");
  assert.equal(stripSourcesSection(md), "Intro [1](https://example.org/a).\n\nA closing remark stays.");
  assert.equal(stripSourcesSection("## Sources that matter to farmers\n\nText."), "## Sources that matter to farmers\n\nText.", "a heading that only begins with the word stays");
});

test("citation markers by handle in models' own styles take the one form every engine reads", () => {
  const cases: [string, string][] = [
    ["fell 20% (S2).", "fell 20% [S2]."],
    ["fell 20% (S2, S3).", "fell 20% [S2, S3]."],
    ["fell 20% (S2)(S3)\nNext line (S1)", "fell 20% [S2][S3]\nNext line [S1]"],
    ["fell 20% (Source: S2).", "fell 20% [S2]."],
    ["fell 20% [citation:2].", "fell 20% [S2]."],
    ["fell 20% [citation:S2][citation:3].", "fell 20% [S2][S3]."],
    ["fell 20% 【2†source】.", "fell 20% [S2]."],
    ["fell 20% 【S2†L1-L5】【3†L10-L12】.", "fell 20% [S2][S3]."],
    ["fell 20% 【S2】.", "fell 20% [S2]."],
    ["fell 20% ［S2］.", "fell 20% [S2]."],
    ["fell 20% [Source 2].", "fell 20% [S2]."],
    ["fell 20% [source: S2].", "fell 20% [S2]."],
    ["fell 20% [S1-S3].", "fell 20% [S1, S2, S3]."],
    ["fell 20% [S1–S2].", "fell 20% [S1, S2]."],
    ["fell 20% [S2 S3].", "fell 20% [S2, S3]."],
    ["fell 20% [S2 and S3].", "fell 20% [S2, S3]."],
    ["fell 20% [^S2].", "fell 20% [S2]."],
    ["fell 20%^[S2].", "fell 20%[S2]."],
    ["fell 20% [S2](S2).", "fell 20% [S2]."],
    ["fell 20% [[S2]].", "fell 20% [S2]."],
    ["as the [battery price survey](S2) shows.", "as the battery price survey [S2] shows."],
  ];
  for (const [written, canonical] of cases) assert.equal(canonicalCitations(written, "S", 3), canonical, written);
});

test("what is no citation of a handle shown is left as written", () => {
  const prose = [
    "Two options (2) and (3) remain.",
    "The ratio [sic] held.",
    "Costs fell [2].",
    "Costs fell [1–30].",
    "See [Source 2](https://example.org/a) for details.",
    "A link [the review](https://example.org/a).",
    "Costs fell (S9).",
    "Costs fell [S2-S9].",
    "Costs fell (see S2 below).",
    "Costs fell [S2].",
    "Costs fell [S1, S3].",
    "Model S2 (S) of 2019.",
    "Figure [2a] shows it.",
    "Eq. (S3) gives the rate of loss.",
  ];
  for (const text of prose) assert.equal(canonicalCitations(text, "S", 3), text, text);
  assert.equal(canonicalCitations("Costs fell (S2).", "S", 0), "Costs fell (S2).", "no handle was shown");
});
