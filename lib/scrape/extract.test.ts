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
