// Each export produced and read back: the Markdown header, the PDF's text, bookmarks, page
// numbers and links (unpdf), the DOCX's XML (unzipped and parsed) with its citations. The PDF's
// pages are also rendered to PNG (test-results/export-pdf-*.png) for a person to look at.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { unzipSync, strFromU8 } from "fflate";
import { JSDOM } from "jsdom";
import { extractLinks, extractText, getDocumentProxy } from "unpdf";
import { docxExport } from "./docx";
import { markdownExport } from "./markdown";
import { pdfExport, winAnsi } from "./pdf";
import { A, B, DOC } from "./test-document";

test("the Markdown export has the header (question, date, settings, support rate), the report and the numbered sources", () => {
  const md = markdownExport(DOC);
  assert.ok(md.startsWith(`# ${DOC.title}\n`));
  assert.match(md, /> How have the economics of grid-scale battery storage changed since 2020\?/);
  assert.match(md, /- \*\*Date:\*\* 2026-11-21/);
  assert.match(md, /- \*\*Depth × breadth:\*\* 2 × 3/);
  assert.match(md, /- \*\*Support rate:\*\* 75% of claims fully supported/);
  assert.ok(md.includes(`Prices fell to **139 dollars** per kWh [1](${A}).`));
  assert.ok(md.endsWith(`## Sources\n\n1. Battery prices survey 2023 — <${A}>\n2. European grid capacity & storage — <${B}>\n`));
  assert.equal(markdownExport({ ...DOC, supportRate: null }).includes("**Support rate:** not verified"), true);
  assert.equal(DOC.fileStem, "quarry-how-have-the-economics-of-grid-scale-battery-storage-changed-2026-11-21");
});

test("the PDF reads back: title, headings as bookmarks, numbered sources, page numbers, citation and source links", async () => {
  const bytes = new Uint8Array(await pdfExport(DOC));
  assert.equal(Buffer.from(bytes.subarray(0, 5)).toString(), "%PDF-");
  const pdf = await getDocumentProxy(bytes.slice());
  const { totalPages, text } = await extractText(pdf, { mergePages: false });
  assert.ok(totalPages >= 2, "long enough for several pages");
  const all = text.join("\n");
  assert.ok(text[0].includes(DOC.title), "the title on page 1");
  assert.ok(all.includes("Key findings") && all.includes("Capacity by year"), "headings");
  assert.ok(all.includes("Support rate: 75%"));
  assert.ok(/1\.\s*Battery prices survey 2023/.test(all) && /2\.\s*European grid capacity & storage/.test(all), "numbered sources");
  assert.ok(all.includes("[1]") && all.includes("[2]"), "numbered citations");
  assert.ok(all.includes("Zürich’s and São Paulo’s"), "Latin-1 and typographic quotes survive");
  for (let p = 0; p < totalPages; p++) assert.ok(text[p].includes(`Page ${p + 1} of ${totalPages}`), `page number on page ${p + 1}`);

  const outline = (await pdf.getOutline()) ?? [];
  const titles = (items: typeof outline): string[] => items.flatMap((i) => [i.title, ...titles(i.items ?? [])]);
  assert.deepEqual(titles(outline), [DOC.title, "Key findings", "Capacity by year", "Open questions", "Sources"]);
  assert.deepEqual(outline.find((o) => o.title === "Key findings")?.items.map((i) => i.title), ["Capacity by year"], "a level-3 heading nests under its level-2");

  const { links } = await extractLinks(bytes.slice());
  assert.ok(links.includes(A) && links.includes(B) && links.includes("https://iea.example/report"), "the sources and the descriptive link are links");

  // Pages as images, for a person to look at (poppler's pdftoppm; skipped without it).
  const out = path.resolve("test-results");
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, "export.pdf"), bytes);
  try {
    execFileSync("pdftoppm", ["-png", "-r", "60", path.join(out, "export.pdf"), path.join(out, "export-pdf")]);
    assert.ok(fs.readdirSync(out).some((f) => /^export-pdf-\d+\.png$/.test(f)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    console.log("# pdftoppm is not installed (apt-get install poppler-utils): the pages were not rendered to PNG");
  }
});

test("text outside the standard fonts' encoding is shown plainly, not as garbage", () => {
  assert.equal(winAnsi("Zürich – “ok” …"), "Zürich – “ok” …");
  assert.equal(winAnsi("Łódź ≤ 5 − 2"), "Lódz <= 5 - 2");
  assert.equal(winAnsi("东京"), "??");
});

test("the DOCX unzips to valid XML with the title, headings, citations linked to the numbered sources, and page numbers", async () => {
  const files = unzipSync(new Uint8Array(await docxExport(DOC)));
  const parse = (name: string) => {
    assert.ok(files[name], `${name} is in the package`);
    const doc = new new JSDOM("").window.DOMParser().parseFromString(strFromU8(files[name]), "application/xml");
    assert.equal(doc.getElementsByTagName("parsererror").length, 0, `${name} is well-formed XML`);
    return doc;
  };
  const document = parse("word/document.xml");
  const text = document.documentElement.textContent ?? "";
  assert.ok(text.includes(DOC.title) && text.includes("Key findings") && text.includes("Support rate: 75%"));
  const paragraphs = [...document.getElementsByTagName("w:p")];
  const styleOf = (p: Element) => p.getElementsByTagName("w:pStyle")[0]?.getAttribute("w:val");
  assert.equal(styleOf(paragraphs.find((p) => p.textContent === "Key findings")!), "Heading1");
  assert.equal(styleOf(paragraphs.find((p) => p.textContent === "Capacity by year")!), "Heading2");
  // Citations: "[n]" linked to the bookmark of source n, which exists.
  const anchors = [...document.getElementsByTagName("w:hyperlink")].filter((h) => h.getAttribute("w:anchor")).map((h) => [h.getAttribute("w:anchor"), h.textContent]);
  assert.deepEqual([...new Set(anchors.map(([a, t]) => `${a} ${t}`))].sort(), ["source_1 [1]", "source_2 [2]"]);
  const bookmarks = [...document.getElementsByTagName("w:bookmarkStart")].map((b) => b.getAttribute("w:name"));
  assert.ok(bookmarks.includes("source_1") && bookmarks.includes("source_2"));
  assert.ok(text.includes("1. Battery prices survey 2023") && text.includes("2. European grid capacity & storage"));
  // The sources' URLs are external links in the relationships.
  const rels = strFromU8(files["word/_rels/document.xml.rels"]);
  parse("word/_rels/document.xml.rels");
  assert.ok(rels.includes(A) && rels.includes(B.replace(/&/g, "&amp;")));
  const footer = Object.keys(files).find((f) => /^word\/footer\d*\.xml$/.test(f));
  assert.ok(footer && strFromU8(files[footer]).includes("PAGE"), "a page number field in the footer");
});
