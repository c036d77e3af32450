// The paper against input that used to stop it (issue 54): each kind of text that made
// `?format=tex` answer 500 compiles, with pdflatex and, where installed, LuaLaTeX; a 300-source
// report compiles with its numbers kept; a Chinese and an Arabic report keep their scripts under
// LuaLaTeX (the PDF's text read back, its fonts listed, page 1 rendered to test-results/ for a person
// to look at) and under pdflatex become "?" with a note that says so. Compiles are skipped, saying
// so, without the engine.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { DOC, A } from "../test-document";
import { bibtex } from "./bibtex";
import { compilePaper, latexEngine, type TexEngine } from "./compile";
import { latex, latexUrl, safeUrl, typeset } from "./escape";
import { buildPaper, type PaperInput } from "./paper";
import { fontStack } from "../fonts";

const input = (body: string, sources = DOC.sources): PaperInput => ({
  doc: { ...DOC, body, sources },
  author: "Quarry",
  clarifications: [],
  methods: { paragraphs: [], tables: [] },
  results: { paragraphs: [], tables: [] },
  limitations: [],
  verification: [],
  check: null,
  sources: sources.map((s) => ({ ...s, accessed: "2026-11-20" })),
});

const installed = async (engine: TexEngine) => (await latexEngine()) !== null && (engine === "pdflatex" || (await latexEngine()) === "lualatex");

async function compiles(paper: PaperInput, engine: TexEngine) {
  const built = buildPaper(paper, engine);
  const compiled = await compilePaper(built.tex, built.bib, engine);
  assert.ok(compiled.pdf, `${engine}: ${compiled.error}`);
  return { built, compiled };
}

// The six causes of a 500, each alone.
const HOSTILE: Record<string, PaperInput> = {
  "non-Latin-1 text in a code block": input(`Code [1](${A}):\n\n\`\`\`\n东京 Ω ƒ → ✓\n\`\`\`\n`),
  "an unbalanced { in a cited page's title": input(`Text [1](${A})`, [{ n: 1, url: A, title: "An { unbalanced } } title {" }]),
  "a control character": input(`Text \u0007 with a bell and \u001b escape [1](${A})`, [{ n: 1, url: A, title: "Title\u0000 with NUL" }]),
  "^^5c in a mailto: and a javascript: link": input(`Mail [me](mailto:a^^5cb@x.org), [run](javascript:alert^^5c(1)) and [web](https://y.example/^^5c) [1](${A})`),
  "^^5c in a cited URL": input("Text [1](https://x.example/a^^5cb{c}\\d%e#f)", [{ n: 1, url: "https://x.example/a^^5cb{c}\\d%e#f", title: "T" }]),
  "32+ cited pages without author or year sharing their first letters": input(
    Array.from({ length: 40 }, (_, i) => `Finding ${i + 1} [${i + 1}](https://site.example/p${i})`).join("\n\n"),
    Array.from({ length: 40 }, (_, i) => ({ n: i + 1, url: `https://site.example/p${i}`, title: "Page" })),
  ),
};

for (const engine of ["pdflatex", "lualatex"] as const) {
  for (const [name, paper] of Object.entries(HOSTILE)) {
    test(`${engine}: ${name} compiles`, async (t) => {
      if (!(await installed(engine))) return t.skip(`${engine} is not installed here`);
      await compiles(paper, engine);
    });
  }
}

test("escaping: controls dropped, braces balanced for BibTeX, only http(s) URLs kept, percent-encoded", () => {
  assert.equal(latex("a\u0007b\u0000c"), "abc");
  const bib = bibtex([{ n: 1, url: A, title: "An { unbalanced", accessed: null, author: "X } Y" }]);
  const braces = [...bib].reduce((depth, c) => (depth < 0 ? depth : depth + (c === "{" ? 1 : c === "}" ? -1 : 0)), 0);
  assert.equal(braces, 0, "BibTeX reads balanced braces");
  assert.equal(safeUrl("javascript:alert(1)"), null);
  assert.equal(safeUrl("mailto:a@b.org"), null);
  assert.equal(safeUrl("https://x.example/a^^5cb{c}\\d"), "https://x.example/a%5E%5E5cb%7Bc%7D%5Cd");
  assert.equal(latexUrl("https://x.example/a%20b#frag"), "https://x.example/a\\%20b\\#frag");
  assert.equal(safeUrl("https://x.example/100%"), "https://x.example/100%25");
  // Long strings get break points; a short word none.
  assert.ok(latex("x".repeat(60)).includes("\\allowbreak{}"));
  assert.ok(!latex("ordinary words only").includes("\\allowbreak"));
  // pdflatex: what T1 cannot show is "?", recorded; a Unicode engine keeps it.
  const t = typeset(false);
  assert.equal(latex("東京 ok", t), "?? ok");
  assert.deepEqual([...t.replaced], ["東", "京"]);
  assert.equal(latex("東京", typeset(true)), "東\\quarrybreak{}京");
});

test("a non-web link is its text in the paper, never a target", () => {
  const { tex } = buildPaper(HOSTILE["^^5c in a mailto: and a javascript: link"], "pdflatex");
  assert.ok(!/\\href\{(mailto|javascript)/.test(tex), "no mailto: or javascript: target");
  assert.ok(tex.includes("\\href{https://y.example/\\%5E\\%5E5c}{web}"));
  assert.ok(tex.includes("me (a\\textasciicircum{}\\textasciicircum{}5cb@x.org)"), "the address is shown as text");
});

test("a 300-source report: every source in the .bib, its numbers kept (unsrtnat), and it compiles", async (t) => {
  const sources = Array.from({ length: 300 }, (_, i) => ({ n: i + 1, url: `https://same.example/page/${i}`, title: i % 2 ? "Same title" : `Page ${i}` }));
  const body = sources.map((s) => `Claim ${s.n} [${s.n}](${s.url}).`).join("\n\n");
  const paper = input(body, sources);
  paper.sources = paper.sources.map((s, i) => ({ ...s, author: i < 40 ? "Wikipedia contributors" : null }));
  const { tex, bib } = buildPaper(paper);
  const keys = [...bib.matchAll(/^@misc\{([^,]+),/gm)].map((m) => m[1]);
  assert.equal(new Set(keys).size, 300, "300 unique keys");
  assert.equal(new Set(keys.map((k) => k.slice(0, 3))).size, 300, "their first three letters unique (natbib's labels)");
  assert.ok(tex.includes("\\bibliographystyle{unsrtnat}"));
  const engine = await latexEngine();
  if (!engine) return t.skip("no LaTeX engine here");
  const { compiled } = await compiles(paper, engine);
  assert.doesNotMatch(compiled.log, /Citation `[^']+' on page \d+ undefined/);
});

const CHINESE = `北京是中国的首都，人口超过两千万。${"长江是中国最长的河流。".repeat(20)} [1](${A})\n\n## 结论\n\n储能电池的价格在二〇二三年下降了百分之十四 [1](${A})。`;
const ARABIC = `القاهرة هي عاصمة مصر وأكبر مدنها. في عام 2023 انخفضت أسعار البطاريات [1](${A}).\n\n## الخلاصة\n\nتخزين الطاقة مهم حيث الطاقة الشمسية رخيصة [1](${A}).`;

function pdfText(pdf: Buffer, name: string): { text: string; fonts: string } {
  const out = path.resolve("test-results");
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  try {
    execFileSync("pdftoppm", ["-png", "-r", "70", "-f", "1", "-l", "1", file, path.join(out, name)]);
    return { text: execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }), fonts: execFileSync("pdffonts", [file], { encoding: "utf8" }) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { text: "", fonts: "" };
    throw error;
  }
}

test("LuaLaTeX: a Chinese and an Arabic paper keep their scripts, in fonts that have them", async (t) => {
  if ((await latexEngine()) !== "lualatex") return t.skip("LuaLaTeX with fontspec is not installed here: the Unicode paper is not tested");
  if (fontStack().length === 0) return t.skip(`no fonts beyond Latin here (apt-get install fonts-noto-core fonts-noto-cjk)`);
  for (const [name, body, sample, font] of [
    ["chinese", CHINESE, "北京是中国的首都", /CJK|Droid|WenQuanYi/],
    ["arabic", ARABIC, "القاهرة", /Arabic|Naskh|DejaVu/],
  ] as const) {
    const { built, compiled } = await compiles({ ...input(body), doc: { ...DOC, title: body.slice(0, 12), body } }, "lualatex");
    assert.equal(built.replaced.size, 0, `${name}: nothing replaced`);
    const { text, fonts } = pdfText(compiled.pdf!, `paper-${name}`);
    if (!text) return t.skip("poppler-utils is not installed: the PDF's text is not read back");
    const letters = [...sample].filter((c) => /\p{L}/u.test(c));
    // NFKC: a glyph shared with a compatibility ideograph (U+F963 for 北) may be extracted as that.
    const kept = letters.filter((c) => text.normalize("NFKC").includes(c)).length;
    assert.ok(kept / letters.length > 0.9, `${name}: the script's letters are in the PDF's text (${kept}/${letters.length})`);
    assert.doesNotMatch(text, /\?{3,}/, `${name}: no run of "?"`);
    assert.match(fonts, font, `${name}: a font for the script is embedded`);
  }
});

test("pdflatex: what it cannot typeset is '?' and the paper says so", async (t) => {
  const { tex, replaced } = buildPaper({ ...input(CHINESE), doc: { ...DOC, body: CHINESE } }, "pdflatex");
  assert.ok(replaced.size > 10);
  assert.match(tex, /Note: \d+ distinct characters of the report \(U\+/);
  if (!(await latexEngine())) return t.skip("no LaTeX engine here");
  const built = buildPaper({ ...input(CHINESE), doc: { ...DOC, body: CHINESE } }, "pdflatex");
  const compiled = await compilePaper(built.tex, built.bib, "pdflatex");
  assert.ok(compiled.pdf, compiled.error ?? "");
});

test("the paper keeps HTML blocks' text, list nesting, table citations and breaks long strings", () => {
  const body = [
    `<details><summary>Method notes</summary>\n\nThe survey covered 40 firms [1](${A}).\n\n</details>`,
    "<div>A note in a div &amp; an entity</div>",
    "1. First step\n   - a bullet inside\n   - another\n2. Second step",
    `| Claim | Source |\n|---|---|\n| Prices fell | [1](${A}) |`,
    `A hash: ${"0123456789abcdef".repeat(6)}`,
  ].join("\n\n");
  const { tex } = buildPaper(input(body), "pdflatex");
  assert.ok(tex.includes("Method notes") && tex.includes("A note in a div \\& an entity"), "HTML blocks as text");
  assert.match(tex, /\\begin\{enumerate\}\n\\setcounter\{enumi\}\{0\}\\item First step\n\\begin\{itemize\}\n\\item a bullet inside/, "bullets inside a numbered list stay bullets");
  assert.match(tex, /Prices fell & \\cite\{aaa:energybattery\}/, "a table cell's citation is a \\cite");
  assert.ok(/0123456789abcdef\\allowbreak/.test(tex.replace(/\\allowbreak\{\}/g, "\\allowbreak")) || tex.includes("\\allowbreak{}"), "a long string has break points");
});
