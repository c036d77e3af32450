// The extraction pool gives exactly what in-process extraction gives: the bench's 62 fixture pages
// (news, docs, forums, script-heavy, other languages, malformed HTML), a PDF, and the failures.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, describe, it } from "node:test";
import { closeExtractPool, extractInPool } from "./extract-pool";
import { workerArgs } from "../sandbox/worker-file";
import { ScrapeError } from "./errors";
import { extractTask, type ExtractInput } from "./extract-task";
import { ARTICLE_HTML, buildPdf } from "./test-fixtures";

const FIXTURES = path.join(process.cwd(), "bench", "fixtures", "html");

/** A page as fetched (its own bytes each time: the pool moves them to the worker). */
const htmlInput = (html: string, url: string): ExtractInput => ({ kind: "html", body: new TextEncoder().encode(html), charset: "utf-8", url });

/** Every fixture page through the pool gives what in-process extraction gives. */
async function assertSameAsInProcess(): Promise<void> {
  const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith(".html"));
  assert.ok(files.length >= 60, `only ${files.length} fixture pages`);
  const pages = [ARTICLE_HTML, ...files.map((f) => fs.readFileSync(path.join(FIXTURES, f), "utf8"))];
  const pooled = await Promise.all(pages.map((html, i) => extractInPool(htmlInput(html, `https://example.com/${i}`))));
  for (const [i, html] of pages.entries()) {
    const local = await extractTask(htmlInput(html, `https://example.com/${i}`));
    assert.ok(local.ok);
    const { ok: _ok, ...expected } = local;
    assert.deepEqual(pooled[i], expected, `page ${i}`);
  }
  assert.ok(pooled.filter((p) => p.text.length > 200).length > 50, "the pages have text");
}

describe("extraction in worker processes", () => {
  after(closeExtractPool);

  it("gives the same title, text and metadata as in process, page for page", async () => {
    assert.deepEqual(workerArgs("extract"), [path.join(process.cwd(), "lib", "sandbox", "source-worker.mjs"), path.join(process.cwd(), "lib", "scrape", "extract-child.ts")], "from sources: the TypeScript through tsx");
    await assertSameAsInProcess();
  });

  it("decodes a page's bytes in the worker as in process: the header's charset, else <meta charset>, else UTF-8", async () => {
    const latin1 = Buffer.from(ARTICLE_HTML.replace("</p>", " Caf\u00e9 cr\u00e8me.</p>"), "latin1");
    const cases = [
      { body: latin1, charset: "iso-8859-1" },
      { body: Buffer.concat([Buffer.from('<meta charset="windows-1252">'), latin1]), charset: null },
      { body: Buffer.from(ARTICLE_HTML.replace("</p>", " Caf\u00e9 cr\u00e8me.</p>"), "utf8"), charset: null },
    ];
    for (const [i, { body, charset }] of cases.entries()) {
      const pooled = await extractInPool({ kind: "html", body: new Uint8Array(body), charset, url: "https://example.com/" });
      const local = await extractTask({ kind: "html", body: new Uint8Array(body), charset, url: "https://example.com/" });
      assert.ok(local.ok);
      const { ok: _ok, ...expected } = local;
      assert.deepEqual(pooled, expected, `case ${i}`);
      assert.match(pooled.text, /Café crème\./, `case ${i}`);
    }
  });

  it("reads a PDF in a worker as in process", async () => {
    const pdf = buildPdf("Tidal gauges recorded a rise of 3.4 millimetres a year.", "Sea level report");
    const pooled = await extractInPool({ kind: "pdf", body: new Uint8Array(pdf) });
    const local = await extractTask({ kind: "pdf", body: new Uint8Array(pdf) });
    assert.ok(local.ok);
    assert.deepEqual(pooled, { title: local.title, text: local.text, author: null, published: null });
    assert.match(pooled.text, /3\.4 millimetres/);
  });

  it("a PDF it cannot read fails as a ScrapeError, across the process", async () => {
    await assert.rejects(
      extractInPool({ kind: "pdf", body: new TextEncoder().encode("%PDF-1.4 not really a pdf") }),
      (error: unknown) => error instanceof ScrapeError && error.reason === "empty" && /Could not extract text from the PDF/.test(error.message),
    );
  });

  it("an aborted extraction rejects", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await assert.rejects(extractInPool(htmlInput(ARTICLE_HTML, "https://example.com/"), controller.signal));
  });
});

describe("the built server's worker: the bundle `npm run build` writes (scripts/build-extract-worker.mjs)", () => {
  const runtime = process.env.NEXT_RUNTIME;
  after(async () => {
    await closeExtractPool();
    if (runtime === undefined) delete process.env.NEXT_RUNTIME;
    else process.env.NEXT_RUNTIME = runtime;
  });

  it("is what the built server's worker processes run, and extracts every page as the sources do", async () => {
    execFileSync(process.execPath, [path.join("scripts", "build-extract-worker.mjs")], { stdio: "inherit" });
    const bundle = path.join(process.cwd(), ".next", "quarry", "extract-worker.mjs");
    assert.doesNotMatch(fs.readFileSync(bundle, "utf8"), /from "\.{1,2}\//, "one module: the project's files are in it, only packages are imported");
    await closeExtractPool();
    process.env.NEXT_RUNTIME = "nodejs";
    assert.deepEqual(workerArgs("extract"), [bundle]);
    await assertSameAsInProcess();
    const pdf = buildPdf("Tidal gauges recorded a rise of 3.4 millimetres a year.", "Sea level report");
    assert.match((await extractInPool({ kind: "pdf", body: new Uint8Array(pdf) })).text, /3\.4 millimetres/);
  });
});
