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
import { fontStack } from "./fonts";
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

// Content that used to vanish (issue 54), in every typeset format.
const KEPT = `<details><summary>Method notes</summary>\n\nThe survey covered 40 firms [1](${A}).\n\n</details>\n\n<div>A note in a div &amp; an entity</div>\n\n1. First step\n   - a bullet inside\n2. Second step\n\n| Claim | Source |\n|---|---|\n| Prices fell | [2](${B}) |\n\nLinks: [run me](javascript:alert(1)), [write](mailto:someone@example.org) and [web](https://web.example/page).\n`;

test("nothing is dropped: HTML blocks as text, bullets inside a numbered list, table citations as [n] links; only web links are targets", async () => {
  const doc = { ...DOC, body: KEPT };
  const bytes = new Uint8Array(await pdfExport(doc));
  const text = (await extractText(await getDocumentProxy(bytes.slice()), { mergePages: true })).text.replace(/\s+/g, " ");
  assert.ok(text.includes("Method notes") && text.includes("The survey covered 40 firms [1]") && text.includes("A note in a div & an entity"), "HTML blocks' text");
  assert.match(text, /1\. First step • a bullet inside 2\. Second step/, "the nested bullet stays a bullet");
  assert.match(text, /Prices fell \[2\]/, "the table cell's citation");
  assert.ok(text.includes("write (someone@example.org)"), "a mailto: link's address as text");
  const { links } = await extractLinks(bytes.slice());
  assert.ok(links.includes("https://web.example/page"));
  assert.ok(!links.some((l) => /^(javascript|mailto):/i.test(l)), `no javascript: or mailto: target: ${links}`);
  // The table's [2] jumps to source 2: a GoTo link annotation to the named destination.
  assert.match(Buffer.from(bytes).toString("latin1"), /\/S \/GoTo\s*\/D \(source-2\)/, "the table citation is an internal link");

  const files = unzipSync(new Uint8Array(await docxExport(doc)));
  const xml = strFromU8(files["word/document.xml"]);
  const rels = strFromU8(files["word/_rels/document.xml.rels"]);
  assert.ok(xml.includes("Method notes") && xml.includes("A note in a div &amp; an entity"));
  assert.ok(!/javascript:|mailto:/.test(rels), "no javascript: or mailto: relationship");
  assert.ok(rels.includes("https://web.example/page"));
  assert.ok(/w:anchor="source_2"[\s\S]*?\[2\]/.test(xml), "the table cell's citation links to source 2");
  const doc2 = new new JSDOM("").window.DOMParser().parseFromString(xml, "application/xml");
  const inside = [...doc2.getElementsByTagName("w:p")].find((p) => p.textContent === "a bullet inside");
  assert.ok(inside?.getElementsByTagName("w:numPr").length, "the nested bullet is a Word bullet, not a number");
});

const CHINESE = `北京是中国的首都，人口超过两千万。${"长江是中国最长的河流。".repeat(15)} [1](${A})`;
const ARABIC = `القاهرة هي عاصمة مصر وأكبر مدنها. في عام 2023 انخفضت أسعار البطاريات [1](${A}).`;

function poppler(file: string, args: string[]): string | null {
  try {
    return execFileSync(file, args, { encoding: "utf8" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

test("a Chinese and an Arabic report keep their scripts in the PDF, in embedded fonts that have them", async (t) => {
  if (fontStack().length === 0) return t.skip("no fonts beyond Latin here (apt-get install fonts-noto-core fonts-noto-cjk): only the fallback is tested");
  const out = path.resolve("test-results");
  fs.mkdirSync(out, { recursive: true });
  for (const [name, body, sample, font] of [
    ["chinese", CHINESE, "北京是中国的首都长江是中国最长的河流", /CJK|Droid|WenQuanYi/],
    ["arabic", `## الخلاصة\n\n${ARABIC}`, "القاهرةهيعاصمةمصروأكبرمدنها", /Arabic|Naskh|DejaVu/],
  ] as const) {
    const file = path.join(out, `export-${name}.pdf`);
    fs.writeFileSync(file, await pdfExport({ ...DOC, title: body.replace(/^## /, "").slice(0, 10), body }));
    const text = poppler("pdftotext", [file, "-"]);
    if (text === null) return t.skip("poppler-utils is not installed: the PDF's text is not read back");
    poppler("pdftoppm", ["-png", "-r", "60", "-f", "1", "-l", "1", file, path.join(out, `export-${name}`)]);
    // Letters, in any order (pdftotext reads right-to-left words in its own order), NFKC for shared glyphs.
    const found = new Set(text.normalize("NFKC"));
    const letters = [...sample];
    assert.ok(letters.filter((c) => found.has(c)).length / letters.length > 0.95, `${name}: its letters are in the PDF's text`);
    assert.doesNotMatch(text, /\?{2,}/, `${name}: no "?" in place of letters`);
    assert.ok(!text.includes("are shown as"), `${name}: no note of replaced characters`);
    assert.match(poppler("pdffonts", [file]) ?? "", font, `${name}: a font for the script is embedded`);
  }
});

test("without fonts for a script, the PDF shows '?' and says so", async () => {
  const bytes = new Uint8Array(await pdfExport({ ...DOC, body: CHINESE }, []));
  const text = (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text.replace(/\s+/g, " ");
  assert.match(text, /Note: \d+ distinct characters \(U\+5317, .*\) are shown as "\?": this server has no fonts beyond Latin \(on Debian: apt-get install fonts-noto-core fonts-noto-cjk fonts-dejavu-core\)/);
  assert.ok(text.includes("????"));
});
