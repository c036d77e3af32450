// The LaTeX paper: every section there, \bibliography present and every \cite key defined in the
// .bib, BibTeX fields from the sources, special characters escaped; with a LaTeX engine installed
// (texlive-latex-base) it compiles without errors, and the zip carries the PDF. Without one, the
// compile test is skipped and says so.
import assert from "node:assert/strict";
import { test } from "node:test";
import { strFromU8, unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";
import { DOC } from "../test-document";
import { bibtex } from "./bibtex";
import { compilePaper, latexAvailable } from "./compile";
import { buildPaper, type PaperInput } from "./paper";
import { paperZip } from "./zip";

const INPUT: PaperInput = {
  doc: { ...DOC, title: "Grid storage: costs & 100% renewables — São Paulo’s case_1 {x} #2 ~ ^ \\", body: `${DOC.body}\n## Discussion\n\nStorage matters most where solar is cheap [2](https://grid.example/capacity?year=2023&region=eu).\n` },
  author: "Quarry (automated research)",
  clarifications: [{ question: "Which region?", answer: "Europe since 2020" }],
  methods: { paragraphs: ["The research ran as a search tree of depth 2 and breadth 3."], tables: [{ caption: "The search queries.", header: ["Level", "Query", "Status"], rows: [["1", "battery prices 2023 & beyond", "completed"]] }] },
  results: { paragraphs: [], tables: [] },
  limitations: ["One query did not complete (failed)."],
  verification: ["Of the report's 8 claims, 6 (75%) are fully supported."],
  sources: DOC.sources.map((s) => ({ ...s, accessed: "2026-11-20" })),
};

test("the paper has every section, \\bibliography, and a .bib entry for every \\cite key", () => {
  const { tex, bib } = buildPaper(INPUT);
  for (const s of ["\\begin{abstract}", "\\section{Introduction}", "\\section{Methods}", "\\section{Results}", "\\section{Discussion}", "\\section{Limitations}", "\\bibliography{references}"]) {
    assert.ok(tex.includes(s), s);
  }
  const cited = new Set([...tex.matchAll(/\\cite\{([^}]+)\}/g)].flatMap((m) => m[1].split(",")));
  const defined = new Set([...bib.matchAll(/^@misc\{([^,]+),/gm)].map((m) => m[1]));
  assert.ok(cited.size === 2, `two sources cited: ${[...cited]}`);
  for (const key of cited) assert.ok(defined.has(key), `\\cite{${key}} is in the .bib`);
  assert.ok(tex.includes("Grid storage: costs \\& 100\\% renewables --- São Paulo's case\\_1 \\{x\\} \\#2 \\textasciitilde{} \\textasciicircum{} \\textbackslash{}"), "the title is escaped");
  // The report's Discussion section moves to the paper's Discussion.
  assert.ok(tex.indexOf("Storage matters most") > tex.indexOf("\\section{Discussion}"));
  assert.ok(tex.indexOf("Key findings") < tex.indexOf("\\section{Discussion}") && tex.indexOf("Key findings") > tex.indexOf("\\section{Results}"));
});

test("BibTeX entries carry title, site, URL and access date, and author and date where known", () => {
  const bib = bibtex([
    { n: 1, url: "https://www.energy.example/a", title: "Battery Prices & Costs", accessed: "2026-11-20", author: "Jane Doe", published: "2024-03-01" },
    { n: 2, url: "https://grid.example/b", title: "Grid", accessed: null },
  ]);
  assert.match(bib, /@misc\{energybattery1,\n {2}title = \{\{Battery Prices \\& Costs\}\},\n {2}author = \{Jane Doe\},\n {2}howpublished = \{energy\.example\},\n {2}year = \{2024\},\n {2}date = \{2024-03-01\},\n {2}url = \{https:\/\/www\.energy\.example\/a\},\n {2}urldate = \{2026-11-20\},\n {2}note = \{Accessed 2026-11-20\}\n\}/);
  assert.ok(!/@misc\{gridgrid2,[^@]*author/.test(bib), "no author when the page states none");
});

test("with a LaTeX engine installed, the paper compiles without errors and the zip carries the PDF", async (t) => {
  if (!(await latexAvailable())) {
    t.skip("no LaTeX engine here (apt-get install texlive-latex-base): the paper's compilation is not tested");
    return;
  }
  const { tex, bib } = buildPaper(INPUT);
  const compiled = await compilePaper(tex, bib);
  assert.ok(compiled, "compiled");
  assert.doesNotMatch(compiled.log, /^! /m, "no LaTeX errors");
  assert.doesNotMatch(compiled.log, /Citation `[^']+' on page \d+ undefined/, "every citation resolved");
  const text = (await extractText(await getDocumentProxy(new Uint8Array(compiled.pdf)), { mergePages: true })).text;
  assert.ok(text.includes("Methods") && text.includes("References") && text.includes("Battery prices survey 2023"), "sections and the bibliography are in the PDF");

  const files = unzipSync((await paperZip(INPUT)).body);
  assert.deepEqual(Object.keys(files).sort(), ["paper.pdf", "paper.tex", "references.bib"]);
  assert.equal(strFromU8(files["paper.tex"]), tex);
});
