// A finished research's exports through the API, read back: Markdown with the header and the
// verification's support rate, a PDF whose text has the title, a heading and the numbered sources,
// a DOCX whose XML carries the citations, the LaTeX paper's zip with every \cite in its .bib, compiled,
// in citation order, and served from the cache the second time. Another user's research exports nothing (404).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { strFromU8, unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { createTestUser } from "../helpers/auth";
import { createAndStart, waitForStatus } from "../helpers/research";
import { splitNumberedSources } from "@/lib/report-citations";
import type { VerificationView } from "@/lib/verification/view";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "exports", env: { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

test("a research's report exports as Markdown, PDF and DOCX, each parsed back; another user's is 404", async () => {
  const id = await createAndStart(app, { prompt: "Heat pumps in cold climates", depth: 1, breadth: 2, questions: 1 });
  const view = await waitForStatus(app, id, ["completed", "failed"]);
  assert.equal(view.status, "completed", view.error ?? "");
  const { sources } = splitNumberedSources(view.report!);
  assert.ok(sources.length >= 1);
  const heading = /^## (.+)$/m.exec(view.report!)![1];
  const title = /^# (.+)$/m.exec(view.report!)![1];
  const verification = (await (await app.fetch(`/api/research/${id}/verification`)).json()) as VerificationView;

  const get = async (format: string) => {
    const res = await app.fetch(`/api/research/${id}/export?format=${format}`);
    assert.equal(res.status, 200, `${format}: ${res.status}`);
    const name = format === "tex" ? "-paper\\.zip" : `\\.${format}`;
    assert.match(res.headers.get("content-disposition") ?? "", new RegExp(`filename="quarry-heat-pumps-in-cold-climates-\\d{4}-\\d{2}-\\d{2}${name}"`));
    return new Uint8Array(await res.arrayBuffer());
  };

  const md = new TextDecoder().decode(await get("md"));
  assert.ok(md.startsWith(`# ${title}\n`));
  assert.match(md, /> Heat pumps in cold climates/);
  assert.match(md, /\*\*Depth × breadth:\*\* 1 × 2/);
  assert.ok(md.includes(`**Support rate:** ${Math.round(verification.support_rate! * 100)}% of claims`), "the header states the verification's rate");
  assert.ok(md.includes(`1. `) && md.includes(`<${sources[0].url}>`));

  const pdfBytes = await get("pdf");
  const pdf = await getDocumentProxy(pdfBytes);
  const text = (await extractText(pdf, { mergePages: true })).text.replace(/\s+/g, " ");
  assert.ok(text.includes(title.slice(0, 30)), "the PDF has the title");
  assert.ok(text.includes(heading), "and a heading");
  assert.ok(text.includes(`1. ${sources[0].title.slice(0, 20)}`), "and numbered source 1");

  const files = unzipSync(await get("docx"));
  const xml = strFromU8(files["word/document.xml"]);
  assert.ok(xml.startsWith("<?xml"));
  assert.ok(xml.includes('w:anchor="source_1"') && xml.includes("[1]"), "citations link to the numbered sources");
  assert.ok(xml.includes(heading.replace(/&/g, "&amp;")));

  // The LaTeX paper: .tex and .bib (and the PDF when the server has a LaTeX engine), every \cite defined.
  let started = performance.now();
  const paper = unzipSync(await get("tex").catch(() => assert.fail("tex")));
  const built = performance.now() - started;
  const tex = strFromU8(paper["paper.tex"]);
  const bib = strFromU8(paper["references.bib"]);
  assert.ok(tex.includes("\\bibliography{references}") && tex.includes("\\section{Methods}"));
  // It compiled (or the server has no engine, which the README says); no failure's log.
  assert.ok(paper["paper.pdf"] || /no LaTeX engine/.test(strFromU8(paper["README.txt"] ?? new Uint8Array())), Object.keys(paper).join(", "));
  assert.ok(!paper["paper.log"], strFromU8(paper["README.txt"] ?? new Uint8Array()));
  // The report's numbers are the paper's (references in citation order), and it says how the check went.
  assert.ok(tex.includes("\\bibliographystyle{unsrtnat}"));
  if (verification.status === "done") assert.ok(tex.includes("every cited sentence was then checked"));
  // The same report version a second time: from the cache, no compile.
  started = performance.now();
  const again = await get("tex");
  const cached = performance.now() - started;
  assert.deepEqual(unzipSync(again)["paper.tex"], paper["paper.tex"]);
  if (paper["paper.pdf"]) assert.ok(cached < built / 3, `cached ${cached.toFixed(0)} ms vs built ${built.toFixed(0)} ms`);
  const keys = new Set([...tex.matchAll(/\\cite\{([^}]+)\}/g)].flatMap((m) => m[1].split(",")));
  assert.ok(keys.size >= 1);
  for (const key of keys) assert.ok(bib.includes(`@misc{${key},`), `${key} is in references.bib`);
  // The fixture pages state their publication date (JSON-LD, <time>): the scraper keeps it for the references.
  const dated = await app.db.page.findMany({ where: { researchId: id, published: { not: null } }, select: { url: true, published: true } });
  assert.ok(dated.length >= 1, "pages' publication dates are stored");
  assert.ok(dated.every((p) => /^\d{4}(-\d{2}){0,2}$/.test(p.published!)));
  assert.match(bib, /year = \{?\d{4}\}?/, "a reference carries the year its page states");
  for (const q of view.serp_queries) assert.ok(tex.includes(q.text.slice(0, 20)), "the methods list the queries");

  const bob = await createTestUser(app.db, { email: "bob@test.local" });
  const res = await fetch(`${app.url}/api/research/${id}/export?format=pdf`, { headers: { authorization: `Bearer ${bob.token}` } });
  assert.equal(res.status, 404);
  assert.equal(((await res.json()) as { code: string }).code, "not_found:research");
});
