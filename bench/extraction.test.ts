// Extraction benchmark: fixtures are usable, the smoke run measures every implementation, and the
// written conclusion follows the numbers. Run: node --import tsx --test bench/extraction.test.ts
import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parseHTML } from "linkedom";
import { FIXTURE_DIR, loadFixtures, normalizeText, runExtractionBench, SMOKE_OPTIONS, type ImplementationResult } from "./extraction";
import { conclude } from "./extraction-report";

describe("extraction fixtures", () => {
  const fixtures = loadFixtures();

  test("at least 56 pages, commit-sized, each promising a passage", () => {
    assert.ok(fixtures.length >= 56, `only ${fixtures.length} fixtures`);
    const bytes = readdirSync(FIXTURE_DIR).reduce((s, f) => s + statSync(join(FIXTURE_DIR, f)).size, 0);
    assert.ok(bytes < 3.5 * 1024 * 1024, `fixtures take ${(bytes / 1024 / 1024).toFixed(2)} MB`);
    for (const f of fixtures) assert.ok(f.expect.length >= 20, `${f.file}: expect fragment too short`);
    assert.ok(fixtures.some((f) => f.bytes > 350 * 1024), "no very long page");
    assert.ok(fixtures.some((f) => f.bytes < 2 * 1024), "no tiny page");
  });

  test("every promised passage is really in its page's text", () => {
    for (const f of fixtures) {
      // Whole-document text (scripts included), so this checks the fixture, not an extractor.
      const { document } = parseHTML(f.html);
      const text = normalizeText(document.documentElement?.textContent ?? document.textContent ?? "");
      assert.ok(text.includes(normalizeText(f.expect)), `${f.file}: "${f.expect}" not in the page`);
    }
  });
});

describe("extraction smoke run", () => {
  test("each implementation keeps the passage on most pages and reports timings", async () => {
    const result = await runExtractionBench(SMOKE_OPTIONS);
    assert.equal(result.fixtures.count, SMOKE_OPTIONS.files.length);
    const ids = result.rows.map((r) => r.id);
    assert.ok(ids.includes("linkedom") && ids.includes("jsdom"), `rows: ${ids.join(", ")}`);
    if (!ids.includes("product")) assert.ok(result.skipped.some((s) => s.id === "product" && s.reason.length > 0));
    for (const row of result.rows) {
      assert.ok(row.kept > row.pages / 2, `${row.id} kept the passage on only ${row.kept}/${row.pages} pages`);
      assert.ok(row.medianMs > 0 && row.p95Ms >= row.medianMs, `${row.id}: median ${row.medianMs}, p95 ${row.p95Ms}`);
      assert.ok(row.totalMs > 0 && row.pagesPerSecond > 0, `${row.id}: total ${row.totalMs} ms, ${row.pagesPerSecond} pages/s`);
      assert.equal(row.samples, row.pages * row.iterations);
    }
    assert.match(result.markdown, /\| linkedom parseHTML \+ Readability \|/);
    assert.ok(result.conclusion.length > 0);
  });
});

function row(id: ImplementationResult["id"], medianMs: number, pagesPerSecond: number, keptFiles: string[], all: string[]): ImplementationResult {
  const perPage = all.map((file) => ({ file, bytes: 1000, medianMs, kept: keptFiles.includes(file), clean: true, chars: 100 }));
  return {
    id, label: id, pages: all.length, iterations: 1, samples: all.length, medianMs, p95Ms: medianMs * 2, meanMs: medianMs, maxMs: medianMs * 3,
    totalMs: (all.length / pagesPerSecond) * 1000, pagesPerSecond, mbPerSecond: 1, peakHeapDeltaMb: 10, retainedHeapMb: 1,
    kept: keptFiles.length, missed: all.filter((f) => !keptFiles.includes(f)), clean: all.length, cleanOf: all.length, noisy: [], errors: [], perPage,
  };
}

function summary(rows: ImplementationResult[]) {
  const files = rows[0].perPage.map((p) => p.file);
  return {
    benchmark: "extraction" as const, startedAt: "", environment: { node: "", platform: "", cpus: 1, isolated: true }, iterations: 1, warmup: 1,
    fixtures: { count: files.length, totalBytes: 0, files }, rows, skipped: [],
  };
}

describe("extraction conclusion", () => {
  const all = ["a.html", "b.html", "c.html", "d.html"];

  test("says plainly when the numbers contradict the product's linkedom choice", () => {
    const text = conclude(summary([row("linkedom", 20, 50, all, all), row("jsdom", 5, 200, all, all)]));
    assert.match(text, /jsdom is faster/);
    assert.match(text, /contradict the product's choice of linkedom/);
  });

  test("backs linkedom when it is faster and as accurate", () => {
    const text = conclude(summary([row("linkedom", 5, 200, all, all), row("jsdom", 20, 50, all, all)]));
    assert.match(text, /linkedom is faster: 4\.0× on the median page/);
    assert.match(text, /support the product's choice of linkedom/);
  });

  test("names the pages only one DOM gets right", () => {
    const text = conclude(summary([row("linkedom", 5, 200, ["a.html", "b.html"], all), row("jsdom", 20, 50, all, all)]));
    assert.match(text, /only jsdom keeps it on c, d/);
    assert.match(text, /loses 2 pages that jsdom keeps/);
  });
});
