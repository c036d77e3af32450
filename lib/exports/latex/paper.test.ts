// The LaTeX paper: every section there, \bibliography present and every \cite key defined in the
// .bib, BibTeX fields from the sources, special characters escaped; with a LaTeX engine installed
// (texlive-latex-base) it compiles without errors, and the zip carries the PDF. Without one, the
// compile tests are skipped and say so. Hostile input (paper-input.test.ts has more) never stops it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { strFromU8, unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";
import { bibtex } from "./bibtex";
import { compilePaper, compiles, latexAvailable, latexEngine } from "./compile";
import { buildPaper } from "./paper";
import { INPUT } from "./test-paper";
import { paperZip, zipOfBuild } from "./zip";


test("the paper has every section, \\bibliography, and a .bib entry for every \\cite key", () => {
  const { tex, bib } = buildPaper(INPUT);
  for (const s of ["\\begin{abstract}", "\\section{Introduction}", "\\section{Methods}", "\\section{Results}", "\\section{Discussion}", "\\section{Limitations}", "\\bibliography{references}"]) {
    assert.ok(tex.includes(s), s);
  }
  const cited = new Set([...tex.matchAll(/\\cite\{([^}]+)\}/g)].flatMap((m) => m[1].split(",")));
  const defined = new Set([...bib.matchAll(/^@misc\{([^,]+),/gm)].map((m) => m[1]));
  assert.ok(cited.size === 2, `two sources cited: ${[...cited]}`);
  for (const key of cited) assert.ok(defined.has(key), `\\cite{${key}} is in the .bib`);
  assert.ok(
    tex.includes("Grid storage: costs \\& 100\\% renewables --- São Paulo's case\\_1 \\textbraceleft{}x\\textbraceright{} \\#2 \\textasciitilde{} \\textasciicircum{} \\textbackslash{}"),
    "the title is escaped",
  );
  // The report's Discussion section moves to the paper's Discussion.
  assert.ok(tex.indexOf("Storage matters most") > tex.indexOf("\\section{Discussion}"));
  assert.ok(tex.indexOf("Key findings") < tex.indexOf("\\section{Discussion}") && tex.indexOf("Key findings") > tex.indexOf("\\section{Results}"));
  // The report's numbers are the paper's: references in order of first citation, not sorted.
  assert.ok(tex.includes("\\bibliographystyle{unsrtnat}") && !tex.includes("plainnat"));
  assert.ok(tex.includes("every cited sentence was then checked"), "the introduction says the check ran");
});

test("BibTeX entries carry title, site, URL and access date, author and date where known, and a key that starts with a tag of their number", () => {
  const bib = bibtex([
    { n: 1, url: "https://www.energy.example/a", title: "Battery Prices & Costs", accessed: "2026-11-20", author: "Jane Doe", published: "2024-03-01" },
    { n: 2, url: "https://grid.example/b", title: "Grid", accessed: null },
  ]);
  assert.match(
    bib,
    /@misc\{aaa:energybattery,\n {2}title = \{\{Battery Prices \\& Costs\}\},\n {2}author = \{Jane Doe\},\n {2}howpublished = \{energy\.example\},\n {2}year = \{2024\},\n {2}date = \{2024-03-01\},\n {2}url = \{https:\/\/www\.energy\.example\/a\},\n {2}urldate = \{2026-11-20\},\n {2}note = \{Accessed 2026-11-20\}\n\}/,
  );
  assert.ok(!/@misc\{aab:gridgrid,[^@]*author/.test(bib), "no author when the page states none");
});

test("the discussion states the claims the check found unsupported or could not verify; the introduction says when it did not run", () => {
  const claims = [
    { sentence: "Prices fell 90% in 2023.", verdict: "unsupported", note: "The source gives 14%." },
    { sentence: "Capacity doubled.", verdict: "unverified", note: "Not verified: the quote does not occur in the stored text." },
    { sentence: "Prices fell 14%.", verdict: "supported", note: null },
  ];
  const { tex } = buildPaper({ ...INPUT, check: { status: "done", claims } });
  const discussion = tex.slice(tex.indexOf("\\section{Discussion}"), tex.indexOf("\\section{Limitations}"));
  assert.match(discussion, /judged 1 of the report's claims not supported[\s\S]*Prices fell 90\\% in 2023\.[\s\S]*The source gives 14\\%\./);
  assert.match(discussion, /For 1 of the report's claims the check reached no usable verdict[\s\S]*Capacity doubled\./);
  assert.ok(!discussion.includes("Prices fell 14\\%."), "supported claims are not listed");

  const unchecked = buildPaper({ ...INPUT, check: null }).tex;
  assert.ok(unchecked.includes("its citations were not checked against the sources' text: the check did not run"));
  assert.ok(!unchecked.includes("every cited sentence was then checked"));
  const unfinished = buildPaper({ ...INPUT, check: { status: "failed", claims: [] } }).tex;
  assert.ok(unfinished.includes("the check did not finish (it ended failed)"));
});

test("with a LaTeX engine installed, the paper compiles without errors and the zip carries the PDF", async (t) => {
  const engine = await latexEngine();
  if (!engine) {
    t.skip("no LaTeX engine here (apt-get install texlive-latex-base): the paper's compilation is not tested");
    return;
  }
  const { tex, bib } = buildPaper(INPUT, engine);
  const compiled = await compilePaper(tex, bib, engine);
  assert.ok(compiled.pdf, compiled.error ?? "compiled");
  assert.doesNotMatch(compiled.log, /^! /m, "no LaTeX errors");
  assert.doesNotMatch(compiled.log, /Citation `[^']+' on page \d+ undefined/, "every citation resolved");
  const text = (await extractText(await getDocumentProxy(new Uint8Array(compiled.pdf)), { mergePages: true })).text;
  assert.ok(text.includes("Methods") && text.includes("References") && text.includes("Battery prices survey 2023"), "sections and the bibliography are in the PDF");
  // The reference list keeps the report's numbers: source 1 is [1].
  assert.match(text.replace(/\s+/g, " "), /\[1\] Battery prices survey 2023.*\[2\] European grid capacity/);

  const files = unzipSync((await paperZip(INPUT)).body);
  assert.deepEqual(Object.keys(files).sort(), ["paper.pdf", "paper.tex", "references.bib"]);
  assert.equal(strFromU8(files["paper.tex"]), tex);
});

test("a compile that fails names its reason and keeps the log", async (t) => {
  const engine = await latexEngine();
  if (!engine) return t.skip("no LaTeX engine here");
  const failed = await compilePaper("\\documentclass{article}\n\\begin{document}\n\\undefinedcommand\n\\end{document}\n", "", engine);
  assert.equal(failed.pdf, null);
  assert.match(failed.error ?? "", /Undefined control sequence\. \(paper\.tex, line 3\)/);
  assert.ok(failed.log.includes("undefinedcommand"));
  assert.equal(await latexAvailable(), true);

  // The zip of a paper that did not compile: its sources, the log, and a README naming the reason.
  const { tex, bib } = buildPaper(INPUT, engine);
  const zip = unzipSync(zipOfBuild({ paper: { tex, bib, replaced: new Set() }, engine, compiled: failed, fellBack: null }, "quarry-x").body);
  assert.deepEqual(Object.keys(zip).sort(), ["README.txt", "paper.log", "paper.tex", "references.bib"]);
  assert.match(strFromU8(zip["README.txt"]), /could not be compiled on this server: .*Undefined control sequence/);
});

test("at most EXPORT_COMPILE_CONCURRENCY compiles run at once; the rest wait their turn", async (t) => {
  const engine = await latexEngine();
  if (!engine) return t.skip("no LaTeX engine here");
  const slots = compiles();
  let most = 0;
  let waited = 0;
  const watch = setInterval(() => {
    most = Math.max(most, slots.inUse);
    waited = Math.max(waited, slots.waiting);
  }, 5);
  const tiny = (i: number) => compilePaper(`\\documentclass{article}\n\\begin{document}\nPaper ${i}\n\\end{document}\n`, "", "pdflatex");
  const results = await Promise.all([1, 2, 3, 4, 5].map(tiny)).finally(() => clearInterval(watch));
  assert.ok(results.every((r) => r.pdf), "every one compiled in the end");
  assert.equal(slots.limit, 2, "the default limit");
  assert.ok(most <= slots.limit && most >= 1, `at most ${slots.limit} at once, saw ${most}`);
  assert.ok(waited >= 1, "the others waited");
});
