import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeBody, detectKind } from "./content";
import { ScrapeError } from "./errors";
import { extractHtml } from "./html";
import { ARTICLE_HTML } from "./test-fixtures";

describe("extractHtml", () => {
  it("keeps the article and its title, drops navigation, scripts and footer", () => {
    const { title, text } = extractHtml(ARTICLE_HTML, "https://example.com/a");
    assert.equal(title, "Reading the web carefully");
    assert.match(text, /Deep research tools read many sources/);
    assert.match(text, /Second paragraph: spaced out text that should collapse\./);
    for (const noise of ["About us", "trackingSecret", "late script", "Copyright 2025", "color: red"]) {
      assert.ok(!text.includes(noise), `text should not contain ${noise}`);
    }
    assert.match(text, /\n\n/, "paragraphs stay separated");
    assert.doesNotMatch(text, /\n{3,}| {2,}/);
  });

  it("falls back to the body's visible text when Readability finds no article", () => {
    const html = `<html><head><title>Tiny</title></head><body><nav>Menu</nav><aside>Open 9 to 5.</aside>
      <noscript>Enable JS</noscript><footer>Footer</footer></body></html>`;
    const { title, text } = extractHtml(html, "https://example.com/");
    assert.equal(title, "Tiny");
    assert.equal(text, "Open 9 to 5.");
  });

  it("reads pages that omit the optional <html>, <head> and <body> tags", () => {
    const { title, text } = extractHtml("<!doctype html><title>Short</title><p>First.<p>Second<br>line.", "https://example.com/");
    assert.equal(title, "Short");
    assert.equal(text, "First.\n\nSecond\nline.");
  });

  it("returns empty text and a null title for a page with nothing to read", () => {
    assert.deepEqual(extractHtml("<html><body><script>x()</script></body></html>", "https://example.com/"), { title: null, text: "", author: null, published: null });
  });
});

describe("extractHtml: furniture inside the article", () => {
  const para = (n: number) => `<p>Paragraph ${n} of the report explains how the regional council measured waiting times across its twelve clinics during the winter months.</p>`;
  const page = (inner: string, head = "") => `<!doctype html><html><head><title>Clinic waiting times</title>${head}</head><body><nav><a href="/">Home</a></nav><article>${inner}</article><footer>Footer</footer></body></html>`;

  it("joins text that React's <!-- --> markers split, also where Readability wraps a div's loose text", () => {
    const html = page(`${para(1)}<div class="RichText_x__ab12">Waiting times fell for the <!-- -->5<!-- -->th month in a row, to <!-- -->42<!-- --> days on average across the region.<div class="Note"><p>Figures exclude the two clinics that closed in March for refurbishment works.</p></div></div>${para(2)}${para(3)}`);
    const { text } = extractHtml(html, "https://example.com/a");
    assert.match(text, /Waiting times fell for the 5th month in a row, to 42 days on average across the region\./);
  });

  it("drops a byline even when the page's metadata names the author", () => {
    const html = page(`<h1>Clinic waiting times</h1><div class="byline">By <a rel="author" href="/profile/ana-ruiz">Ana Ruiz</a>, Health correspondent <time datetime="2024-03-01">1 March 2024</time></div>${para(1)}${para(2)}${para(3)}`, `<meta name="author" content="Ana Ruiz">`);
    const { text, author } = extractHtml(html, "https://example.com/a");
    assert.equal(author, "Ana Ruiz");
    assert.doesNotMatch(text, /Ana Ruiz|Health correspondent/);
    assert.match(text, /Paragraph 1 of the report/);
  });

  it("drops related lists, tags, promos and share bars; keeps content lists and tables", () => {
    const html = page(`${para(1)}<p><strong>Read more:</strong> <a href="/x">Hospital opens new ward</a></p>${para(2)}
      <ul><li>Clinic A reduced its median wait from 61 to 44 days.</li><li>Clinic B kept its median wait at 38 days.</li></ul>
      <table><tr><th>Clinic</th><th>Median wait</th></tr><tr><td>A</td><td>44 days</td></tr><tr><td>B</td><td>38 days</td></tr></table>
      ${para(3)}<div class="related-articles"><h3>More on this story</h3><ul><li><a href="/1">First related headline here</a></li><li><a href="/2">Second related headline here</a></li></ul></div>
      <div class="post-tags">Tags: <a rel="tag" href="/t/health">health</a>, <a rel="tag" href="/t/nhs">waiting lists</a></div>
      <div class="newsletter-box"><p>Get our health newsletter in your inbox every Friday.</p><form><input type="email"><button>Sign up</button></form></div>
      <div class="share-tools"><a href="/s/x">Share on X</a> <a href="/s/mail">Email</a></div>`);
    const { text } = extractHtml(html, "https://example.com/a");
    for (const noise of ["Read more", "Hospital opens new ward", "More on this story", "related headline", "Tags", "waiting lists", "newsletter", "Sign up", "Share on X"]) {
      assert.ok(!text.includes(noise), `text should not contain ${noise}: ${text}`);
    }
    assert.match(text, /Clinic A reduced its median wait from 61 to 44 days\./);
    assert.match(text, /Clinic B kept its median wait at 38 days\./);
    assert.match(text, /Median wait/);
    assert.match(text, /44 days/);
  });

  it("keeps a caption once when a gallery repeats it, and keeps a gallery's captions", () => {
    const caption = "The new waiting room at the Northfield clinic, opened in January.";
    const html = page(`${para(1)}<div class="gallery"><figure><img src="/a.jpg"><figcaption>${caption}</figcaption></figure><figure><img src="/b.jpg"><figcaption>Nurses at the triage desk during the evening shift.</figcaption></figure></div>
      <div class="thumbs"><button><img src="/a-s.jpg"><span>${caption}</span></button></div>${para(2)}${para(3)}`);
    const { text } = extractHtml(html, "https://example.com/a");
    assert.equal(text.split(caption).length - 1, 1, text);
    assert.match(text, /Nurses at the triage desk/);
  });

  it("keeps a page whose main text sits in a container named like furniture", () => {
    const posts = Array.from({ length: 6 }, (_, i) => `<div class="post"><p>Reply ${i}: I waited ${40 + i} days at the Northfield clinic last winter and the staff kept us informed throughout.</p></div>`).join("");
    const html = `<html><head><title>Thread</title></head><body><div class="discussion">${posts}</div></body></html>`;
    const { text } = extractHtml(html, "https://example.com/t");
    for (let i = 0; i < 6; i++) assert.match(text, new RegExp(`Reply ${i}: I waited ${40 + i} days`));
  });
});

describe("detectKind", () => {
  const body = (s: string) => Buffer.from(s, "latin1");
  it("trusts supported declared types and PDF magic", () => {
    assert.equal(detectKind("text/html; charset=utf-8", body("<p>x")), "html");
    assert.equal(detectKind("application/xhtml+xml", body("<html/>")), "html");
    assert.equal(detectKind("text/markdown", body("# x")), "text");
    assert.equal(detectKind("application/octet-stream", body("%PDF-1.7\n")), "pdf");
  });

  it("sniffs a missing type", () => {
    assert.equal(detectKind(null, body("\n  <!DOCTYPE html><p>x")), "html");
    assert.equal(detectKind(null, body("just words")), "text");
    assert.throws(() => detectKind(null, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), ScrapeError);
  });

  it("refuses other types, naming them", () => {
    assert.throws(() => detectKind("application/zip", body("PK")), { reason: "unsupported_type", message: "Unsupported content type application/zip" });
    assert.throws(() => detectKind("application/octet-stream", body("abc")), { message: "Unsupported content type application/octet-stream" });
  });
});

describe("decodeBody", () => {
  it("uses the header charset, then <meta charset>, then UTF-8", () => {
    const latin = Buffer.from("<meta charset=windows-1252><p>Caf\xe9", "latin1");
    assert.match(decodeBody(latin, "html", null), /Café/);
    assert.match(decodeBody(Buffer.from("Caf\xe9", "latin1"), "text", "iso-8859-1"), /^Café$/);
    assert.equal(decodeBody(Buffer.from("Café"), "text", null), "Café");
    assert.equal(decodeBody(Buffer.from("Café"), "text", "no-such-charset"), "Café");
  });

  it("lets a byte-order mark win over the header", () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Hé", "utf16le")]);
    assert.equal(decodeBody(utf16, "text", "utf-8"), "Hé");
  });
});
