// Built exports are kept per report version: the same document's PDF and paper a second time come
// from the cache (no compile: faster, the same bytes), a changed document is built anew, and two
// requests at once share one build.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cachedExport, exportCacheHits, exportKey } from "./cache";
import { latexEngine } from "./latex/compile";
import { paperZip } from "./latex/zip";
import { renderExport } from "./render";
import { DOC } from "./test-document";
import { INPUT } from "./latex/test-paper";

test("a second PDF and DOCX of the same report version come from the cache; a changed report is built anew", async () => {
  const doc = { ...DOC, title: `Cache test ${Date.now()}` };
  const hits = exportCacheHits();
  const first = await renderExport(doc, "pdf");
  assert.equal(exportCacheHits(), hits);
  const second = await renderExport(doc, "pdf");
  assert.equal(exportCacheHits(), hits + 1, "served from the cache");
  assert.equal(second.body, first.body, "the very same bytes");
  const changed = await renderExport({ ...doc, body: `${doc.body}\n\nOne more line.` }, "pdf");
  assert.notEqual(changed.body, first.body, "another version, another build");
  await renderExport(doc, "docx");
  await renderExport(doc, "docx");
  assert.equal(exportCacheHits(), hits + 2);
});

test("two requests for one version at once share one build", async () => {
  let builds = 0;
  const build = async () => {
    builds++;
    await new Promise((r) => setTimeout(r, 50));
    return { body: new Uint8Array([1]), contentType: "x", fileName: "x" };
  };
  const key = exportKey("test", { n: Date.now() });
  await Promise.all([cachedExport(key, build), cachedExport(key, build), cachedExport(key, build)]);
  assert.equal(builds, 1);
  // A failed build is not kept: the next request tries again.
  const failing = exportKey("test", { fail: Date.now() });
  await assert.rejects(cachedExport(failing, async () => Promise.reject(new Error("boom"))));
  assert.equal((await cachedExport(failing, build)).body[0], 1);
});

test("the paper of the same report version compiles once: the second request costs no compile", async (t) => {
  if (!(await latexEngine())) return t.skip("no LaTeX engine here");
  const input = { ...INPUT, doc: { ...INPUT.doc, title: `Cached paper ${Date.now()}` } };
  let start = performance.now();
  const first = await paperZip(input);
  const compiled = performance.now() - start;
  start = performance.now();
  const second = await paperZip(input);
  const cached = performance.now() - start;
  assert.equal(second.body, first.body);
  assert.ok(cached < compiled / 10 && cached < 50, `cached ${cached.toFixed(1)} ms vs compiled ${compiled.toFixed(0)} ms`);
});
