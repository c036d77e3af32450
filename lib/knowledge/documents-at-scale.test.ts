// Issue 53, item 7: text files in other encodings are read (and the encoding named), a DOCX is titled
// by Word's own title, and a valid file name over 200 characters is shortened keeping its extension.
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildDocx } from "../../test/fakes";
import { AppError } from "../errors";
import { decodeTextBytes, textEncodingOf } from "./encoding";
import { cleanFileName, detectFormat, MAX_FILE_NAME_CHARS } from "./formats";
import { parseDocument } from "./parse";
import { docxCoreTitle } from "./parse-zip";

const limits = { maxBytes: 1024 * 1024, maxPages: 50, maxInflatedBytes: 64 * 1024 * 1024, maxInflateRatio: 100, timeoutMs: 60_000 };
const allText = (doc: Awaited<ReturnType<typeof parseDocument>>) => doc.sections.map((s) => s.text).join("\n");

// "Café in Zürich: crème brûlée, naïve façade" in Latin-1 (no byte of 0x80–0x9F).
const LATIN1 = Buffer.from("Caf\xe9 in Z\xfcrich: cr\xe8me br\xfbl\xe9e, na\xefve fa\xe7ade.", "latin1");
// Curly quotes, an en dash and the euro sign: bytes 0x93 0x94 0x96 0x80 exist only in Windows-1252.
const CP1252 = Buffer.from([...Buffer.from("The "), 0x93, ...Buffer.from("best"), 0x94, ...Buffer.from(" price "), 0x96, ...Buffer.from(" 5 "), 0x80, ...Buffer.from(" at the caf"), 0xe9, 0x2e]);

test("a Latin-1 .txt is read, not refused, and named ISO-8859-1", async () => {
  assert.throws(() => new TextDecoder("utf-8", { fatal: true }).decode(LATIN1), "the fixture is not UTF-8");
  const doc = await parseDocument("notes.txt", LATIN1, limits);
  assert.match(allText(doc), /Café in Zürich: crème brûlée, naïve façade\./);
  assert.equal(textEncodingOf("text", LATIN1), "ISO-8859-1");
});

test("a Windows-1252 .txt keeps its curly quotes, dash and euro sign, and is named Windows-1252", async () => {
  const doc = await parseDocument("prices.txt", CP1252, limits);
  assert.match(allText(doc), /The “best” price – 5 € at the café\./);
  assert.equal(textEncodingOf("text", CP1252), "Windows-1252");
  // Markdown takes the same way.
  const md = await parseDocument("prices.md", Buffer.concat([Buffer.from("# Prices\n\n"), CP1252]), limits);
  assert.match(allText(md), /“best” price – 5 €/);
});

test("UTF-16 with a byte-order mark (both byte orders) and UTF-8 with one are read, the mark dropped", async () => {
  const text = "Ωmega ‘quoted’ — 東京 notes.";
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
  const be = Buffer.from(le);
  be.swap16(); // the mark swaps too: FE FF
  for (const [bytes, name] of [[le, "UTF-16LE"], [be, "UTF-16BE"]] as const) {
    const doc = await parseDocument("notes.txt", bytes, limits);
    assert.equal(allText(doc), text, name);
    assert.equal(textEncodingOf("text", bytes), name);
  }
  const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
  assert.deepEqual(decodeTextBytes(utf8), { text, encoding: "UTF-8" });
  assert.equal(textEncodingOf("text", Buffer.from(text)), "UTF-8");
  // UTF-16 written without a mark (every other byte zero) is recognised too.
  assert.deepEqual(decodeTextBytes(Buffer.from("plain words here", "utf16le")), { text: "plain words here", encoding: "UTF-16LE" });
  // PDF and DOCX decide their own text: no encoding is named for them.
  assert.equal(textEncodingOf("pdf", Buffer.from("%PDF")), null);
});

test("an HTML file in another encoding honours its <meta charset>; binary data is still refused", async () => {
  const html = Buffer.concat([Buffer.from('<html><head><meta charset="windows-1252"><title>Caf'), Buffer.from([0xe9]), Buffer.from("</title></head><body><p>Cr"), Buffer.from([0xe8]), Buffer.from("me "), Buffer.from([0x80]), Buffer.from("</p></body></html>")]);
  const doc = await parseDocument("page.html", html, limits);
  assert.equal(doc.title, "Café");
  assert.match(allText(doc), /Crème €/);
  assert.equal(textEncodingOf("html", html), "Windows-1252");
  await assert.rejects(parseDocument("blob.txt", Buffer.from([0x41, 0x00, 0x42, 0x43, 0x00, 0x00, 0x01, 0x02, 0x03]), limits), (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.code, "bad_request:document_corrupt");
    assert.match(error.message, /"blob\.txt": the file holds binary data/);
    return true;
  });
});

test("a DOCX is titled by Word's own title (docProps/core.xml dc:title), else by its first heading", async () => {
  const blocks = [{ heading: "Introduction", level: 1 }, { text: "The survey covered twelve sites." }];
  const titled = await parseDocument("draft-v7-final.docx", buildDocx(blocks, { title: "Moss &amp; lichen survey, 2026" }), limits);
  assert.equal(titled.title, "Moss & lichen survey, 2026");
  assert.match(allText(titled), /twelve sites/);
  const untitled = await parseDocument("draft.docx", buildDocx(blocks), limits);
  assert.equal(untitled.title, "Introduction");
  // An empty dc:title is no title.
  assert.equal(docxCoreTitle(buildDocx(blocks, { title: "  " })), null);
  assert.equal((await parseDocument("draft.docx", buildDocx(blocks, { title: "" }), limits)).title, "Introduction");
});

test("a file name over 200 characters is shortened keeping its extension, and is read as its type", async () => {
  const long = `${"Quarterly report of the northern valley survey team ".repeat(6)}final.pdf`;
  assert.ok(long.length > MAX_FILE_NAME_CHARS);
  const clean = cleanFileName(long);
  assert.equal(Array.from(clean).length, MAX_FILE_NAME_CHARS);
  assert.ok(clean.endsWith("….pdf"), clean);
  assert.ok(clean.startsWith("Quarterly report of the northern valley"), clean);
  assert.equal(detectFormat(clean, Buffer.from("%PDF-1.4")), "pdf");

  const md = cleanFileName(`${"é".repeat(300)}.markdown`);
  assert.equal(Array.from(md).length, MAX_FILE_NAME_CHARS);
  assert.ok(md.endsWith("….markdown"));
  // Characters outside the BMP are never cut in half.
  const emoji = cleanFileName(`${"🦦".repeat(250)}.txt`);
  assert.ok(emoji.isWellFormed() && emoji.endsWith("….txt") && Array.from(emoji).length === MAX_FILE_NAME_CHARS);
  const doc = await parseDocument(emoji, Buffer.from("Otters hold hands while they sleep."), limits);
  assert.equal(doc.format, "text");
  // At or under the limit a name is kept as it is.
  const exact = `${"a".repeat(196)}.txt`;
  assert.equal(cleanFileName(exact), exact);
});
