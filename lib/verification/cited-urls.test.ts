import { test } from "node:test";
import assert from "node:assert/strict";
import { citedUrls, verifyCitations } from "./cited-urls";

const analysed = ["https://example.org/a", "https://news.example.com/story?id=4"];

test("keeps citations to analysed URLs", () => {
  const md = "Growth was 12% ([source](https://example.org/a)).";
  assert.equal(verifyCitations(md, analysed).markdown, md);
});

test("removes a citation marker to a URL that was never analysed", () => {
  const md = "Growth was 12% ([source](https://example.org/a)). Mars is blue ([source](https://fake.example/x)).";
  const r = verifyCitations(md, analysed);
  assert.deepEqual(r.removed, ["https://fake.example/x"]);
  assert.equal(r.markdown, "Growth was 12% ([source](https://example.org/a)). Mars is blue.");
  assert.deepEqual(citedUrls(r.markdown), ["https://example.org/a"]);
});

test("repairs obvious variants: www, trailing slash, fragment", () => {
  const md = "See [the story](https://www.news.example.com/story/?id=4#top) and [a](https://example.org/a/).";
  const r = verifyCitations(md, analysed);
  assert.equal(r.removed.length, 0);
  assert.equal(r.markdown, "See [the story](https://news.example.com/story?id=4) and [a](https://example.org/a).");
});

test("keeps the words of a removed descriptive link and drops bare unknown URLs and empty list items", () => {
  const md = "Read [the 2024 survey](https://nope.example/s).\n\n## Sources\n- https://nope.example/s\n- https://example.org/a";
  const r = verifyCitations(md, analysed);
  assert.equal(r.markdown, "Read the 2024 survey.\n\n## Sources\n- https://example.org/a");
});

test("a retyped URL (host case, an added query string) and a citation by handle are repaired to the analysed URL", () => {
  const md = "Growth [1](HTTPS://Example.org/a?utm_source=feed). Story [S2]. Both [S1, S2]. Unknown [S9].";
  const r = verifyCitations(md, analysed);
  assert.equal(r.removed.length, 0);
  assert.equal(
    r.markdown,
    "Growth [1](https://example.org/a). Story [source](https://news.example.com/story?id=4). Both [source](https://example.org/a)[source](https://news.example.com/story?id=4). Unknown [S9].",
  );
  assert.equal(verifyCitations("x [a](https://example.org/a?page=2).", analysed).markdown, "x [a](https://example.org/a).", "another query string on a page with none");
});
