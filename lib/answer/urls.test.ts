import assert from "node:assert/strict";
import { test } from "node:test";
import type { FoundUrl } from "./types";
import { mergeResults, normaliseUrl, rankUrls, urlsIn } from "./urls";

test("URLs are merged without fragments, counting repeats; non-http URLs are dropped", () => {
  const urls: FoundUrl[] = [];
  assert.equal(mergeResults(urls, [{ url: "https://a.example/x#top", title: "X", snippet: "" }, { url: "javascript:alert(1)", title: "", snippet: "" }]), 1);
  assert.equal(mergeResults(urls, [{ url: "https://a.example/x", title: "X", snippet: "" }]), 0);
  assert.deepEqual(urls, [{ url: "https://a.example/x", title: "X", snippet: "", hits: 2 }]);
  assert.equal(normaliseUrl("ftp://a.example/"), null);
});

test("ranking puts often-found URLs first, keeps at most two per host and leaves out visited ones", () => {
  const u = (url: string, hits: number): FoundUrl => ({ url, title: "", snippet: "", hits });
  const urls = [u("https://a.example/1", 1), u("https://a.example/2", 1), u("https://a.example/3", 5), u("https://b.example/1", 2), u("https://c.example/1", 1)];
  const ranked = rankUrls(urls, ["https://c.example/1"]).map((x) => x.url);
  assert.deepEqual(ranked, ["https://a.example/3", "https://b.example/1", "https://a.example/1"]);
});

test("URLs written in a question are found without the punctuation around them, once each", () => {
  assert.deepEqual(urlsIn("Compare https://en.wikipedia.org/wiki/Foo_(bar). And (see https://a.example/x?y=1), then https://A.example/x?y=1#top! or [https://b.example/] ftp://c.example/"), [
    "https://en.wikipedia.org/wiki/Foo_(bar)",
    "https://a.example/x?y=1",
    "https://b.example/",
  ]);
  assert.deepEqual(urlsIn("no links here"), []);
});
