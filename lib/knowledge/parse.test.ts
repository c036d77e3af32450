// Parsing and chunking every format: pages kept for PDFs, heading paths for the others, and a clear
// error naming the file for what cannot be read.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildDocx, buildPdfPages } from "../../test/fakes";
import { AppError } from "../errors";
import { chunkSections } from "./chunk";
import { cleanFileName } from "./formats";
import { parseDocument } from "./parse";
import { queryTerms } from "./query-terms";

const limits = { maxBytes: 1024 * 1024, maxPages: 50, maxInflatedBytes: 64 * 1024 * 1024, maxInflateRatio: 100, timeoutMs: 60_000 };
const bytes = (text: string) => new TextEncoder().encode(text);

async function rejects(promise: Promise<unknown>, code: string, name: string) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, code);
    assert.ok(error.message.includes(`"${name}"`), `the message names the file: ${error.message}`);
    return true;
  });
}

test("a PDF keeps its page numbers and title", async () => {
  const pdf = buildPdfPages({ title: "Field notes", pages: [["Alpha on the first page."], ["The otters of Lake Baikal sing at dawn."]] });
  const doc = await parseDocument("notes.pdf", pdf, limits);
  assert.equal(doc.format, "pdf");
  assert.equal(doc.pageCount, 2);
  assert.equal(doc.title, "Field notes");
  const chunk = chunkSections(doc.sections).find((c) => c.text.includes("otters of Lake Baikal"));
  assert.equal(chunk?.page, 2);
});

test("Markdown, HTML and DOCX keep the heading path of each passage", async () => {
  const md = await parseDocument("a.md", bytes("# Report\n\nIntro.\n\n## Methods\n\nWe sampled moss.\n\n```\n# not a heading\n```\n\n## Results\n\nMoss grew."), limits);
  assert.deepEqual(md.sections.map((s) => s.section), ["Report", "Report › Methods", "Report › Results"]);
  assert.equal(md.sections[1].text, "We sampled moss.\n\n# not a heading");
  assert.equal(md.title, "Report");

  const html = await parseDocument("a.html", bytes("<title>T</title><script>x()</script><h1>Top</h1><p>One.</p><div><h2>Sub</h2><p>Two <b>bold</b>.</p></div>"), limits);
  assert.deepEqual(html.sections, [
    { page: null, section: "Top", text: "One." },
    { page: null, section: "Top › Sub", text: "Two bold." },
  ]);
  assert.equal(html.title, "T");

  const docx = await parseDocument("a.docx", buildDocx([{ heading: "Budget", level: 1 }, { text: "Costs rose." }, { heading: "Staff", level: 2 }, { text: "Nine people." }]), limits);
  assert.deepEqual(docx.sections.map((s) => [s.section, s.text]), [["Budget", "Costs rose."], ["Budget › Staff", "Nine people."]]);

  const txt = await parseDocument("a.txt", bytes("# plain\n\nsecond paragraph"), limits);
  assert.deepEqual(txt.sections.map((s) => s.section), [null]);
});

test("corrupt, encrypted, empty, oversized and unsupported files each get their error, naming the file", async () => {
  await rejects(parseDocument("broken.pdf", bytes("%PDF-1.4 this is not really a pdf"), limits), "bad_request:document_corrupt", "broken.pdf");
  await rejects(parseDocument("fake.pdf", bytes("hello"), limits), "bad_request:document_corrupt", "fake.pdf");
  const locked = buildPdfPages({ title: "Secret", pages: [["hidden"]], encrypted: true });
  await rejects(parseDocument("locked.pdf", locked, limits), "bad_request:document_encrypted", "locked.pdf");
  await rejects(parseDocument("locked.docx", new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 1, 2]), limits), "bad_request:document_encrypted", "locked.docx");
  await rejects(parseDocument("broken.docx", bytes("PK\u0003\u0004 nothing"), limits), "bad_request:document_corrupt", "broken.docx");
  await rejects(parseDocument("empty.md", new Uint8Array(), limits), "bad_request:document_empty", "empty.md");
  await rejects(parseDocument("blank.txt", bytes(" \n\n "), limits), "bad_request:document_empty", "blank.txt");
  await rejects(parseDocument("big.txt", new Uint8Array(limits.maxBytes + 1).fill(65), limits), "payload_too_large:document", "big.txt");
  const many = buildPdfPages({ title: "Long", pages: [["a"], ["b"], ["c"]] });
  await rejects(parseDocument("long.pdf", many, { ...limits, maxPages: 2 }), "payload_too_large:document", "long.pdf");
  // A PNG's first bytes: no byte-order mark (FF FE would make it UTF-16 text), and NUL characters in any encoding.
  await rejects(parseDocument("binary.txt", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]), limits), "bad_request:document_corrupt", "binary.txt");
  await rejects(parseDocument("sheet.xlsx", bytes("x"), limits), "unsupported_media_type:document", "sheet.xlsx");
});

test("chunks stay within their section and size, cut at paragraph then sentence boundaries", () => {
  const sentence = "The quick brown fox jumps over the lazy dog again and again.";
  const long = Array.from({ length: 60 }, () => sentence).join(" ");
  const chunks = chunkSections([
    { page: 1, section: null, text: `Short first.\n\n${long}` },
    { page: 2, section: null, text: "Page two." },
  ], 300);
  assert.ok(chunks.every((c) => c.text.length <= 300), "no chunk over the size");
  assert.deepEqual([...new Set(chunks.map((c) => c.page))], [1, 2]);
  assert.equal(chunks.at(-1)!.text, "Page two.");
  assert.ok(chunks.filter((c) => c.page === 1).every((c) => c.text.endsWith(".")), "cut after a sentence");
  assert.deepEqual(chunks.map((c) => c.ordinal), chunks.map((_, i) => i));
  const blob = chunkSections([{ page: null, section: null, text: "x".repeat(700) }], 300);
  assert.deepEqual(blob.map((c) => c.text.length), [300, 300, 100]);
});

test("uploaded names cannot carry a path; query terms carry no index syntax", () => {
  assert.equal(cleanFileName("../../etc/passwd"), "passwd");
  assert.equal(cleanFileName("C:\\Users\\me\\report.pdf"), "report.pdf");
  assert.equal(cleanFileName(".."), "document");
  assert.equal(cleanFileName("a\u0000b.md"), "ab.md");
  assert.deepEqual(queryTerms('What is "NEAR(x y)" OR otters* -- in the lake?'), ["near", "x", "y", "otters", "lake"]);
  assert.deepEqual(queryTerms("the of"), ["the", "of"]);
});
