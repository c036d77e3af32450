import assert from "node:assert/strict";
import { test } from "node:test";
import { extractHtml } from "./html";
import { isoDate } from "./metadata";

const page = (head: string) => `<html><head><title>T</title>${head}</head><body><article><p>${"Some words of the article. ".repeat(30)}</p></article></body></html>`;

test("author and date from meta tags: name=author, article:published_time", () => {
  const r = extractHtml(page(`<meta name="author" content="Jane  Doe"><meta property="article:published_time" content="2024-03-01T09:30:00Z">`), "https://a.example/");
  assert.equal(r.author, "Jane Doe");
  assert.equal(r.published, "2024-03-01");
  assert.match(r.text, /Some words/);
});

test("author and date from JSON-LD (an @graph, authors as objects), several authors joined with 'and'", () => {
  const ld = { "@context": "https://schema.org", "@graph": [{ "@type": "NewsArticle", datePublished: "2023-11-05", author: [{ "@type": "Person", name: "Ann Lee" }, { "@type": "Person", name: "Bo Chen" }] }] };
  const r = extractHtml(page(`<script type="application/ld+json">${JSON.stringify(ld)}</script>`), "https://a.example/");
  assert.equal(r.author, "Ann Lee and Bo Chen");
  assert.equal(r.published, "2023-11-05");
});

test("a page that states neither gives null: an article:author that is a profile URL is not a name, malformed JSON-LD is ignored", () => {
  const r = extractHtml(page(`<meta property="article:author" content="https://facebook.com/someone"><script type="application/ld+json">{not json</script>`), "https://a.example/");
  assert.equal(r.author, null);
  assert.equal(r.published, null);
});

test("dates: ISO and plain forms are normalised, anything else refused", () => {
  assert.equal(isoDate("2024-3-7"), "2024-03-07");
  assert.equal(isoDate("2024/03"), "2024-03");
  assert.equal(isoDate("2024"), "2024");
  assert.equal(isoDate("March 3, 2024"), null);
  assert.equal(isoDate("2024-13-01"), null);
  assert.equal(isoDate("0000-01-01"), null);
});

test("what is read, wherever it stands: a JSON-LD type in any case, meta tags in the body (microdata), the first <time datetime> in document order", () => {
  const ld = { "@type": "Article", author: "Kim Park" };
  const html = `<html><head><title>T</title><script type="Application/LD+JSON">${JSON.stringify(ld)}</script><script type="application/json">{"author":"Not Read"}</script></head>
    <body><header><span>Posted <time datetime="not a date">x</time></span></header>
    <article><p>${"Some words of the article. ".repeat(30)}</p><p>Updated <time datetime="2021-06-02">June</time>, first <time datetime="2020-01-01">then</time>.</p>
    <div itemscope><meta itemprop="dc.date" content="2019-09-09"></div></article></body></html>`;
  const r = extractHtml(html, "https://a.example/");
  assert.equal(r.author, "Kim Park", "the JSON-LD whose type differs only in case is read; plain JSON is not");
  // The meta in the body states the date; without it, the first <time datetime> ("not a date") gives none.
  assert.equal(r.published, "2019-09-09");
  const noMeta = extractHtml(html.replace(/<meta itemprop[^>]*>/, ""), "https://a.example/");
  assert.equal(noMeta.published, null, "only the first <time datetime> in document order is read");
});
