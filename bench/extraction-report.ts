// Markdown table and the written conclusion for the extraction benchmark, generated from its numbers.
import type { ExtractionResult, ImplementationResult } from "./extraction";

type Measured = Omit<ExtractionResult, "conclusion" | "markdown">;

const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.POSITIVE_INFINITY);
const x = (n: number) => `${n.toFixed(n >= 10 ? 0 : 1)}×`;

function differing(a: ImplementationResult, b: ImplementationResult): { onlyA: string[]; onlyB: string[] } {
  const keptB = new Set(b.perPage.filter((p) => p.kept).map((p) => p.file));
  const keptA = new Set(a.perPage.filter((p) => p.kept).map((p) => p.file));
  return { onlyA: [...keptA].filter((f) => !keptB.has(f)), onlyB: [...keptB].filter((f) => !keptA.has(f)) };
}

const ms = (n: number) => (n >= 10 ? n.toFixed(1) : n.toFixed(2));
const names = (files: string[]) => files.map((f) => f.replace(/\.html$/, "")).join(", ");

function productVsJsdom(p: ImplementationResult, j: ImplementationResult): string {
  const speed = ratio(p.pagesPerSecond, j.pagesPerSecond);
  const accuracy = p.kept > j.kept ? "more accurate than jsdom + Readability" : p.kept === j.kept ? "as accurate as jsdom + Readability" : `${j.kept - p.kept} page(s) behind jsdom + Readability`;
  const pace = speed >= 1.1 ? `at ${x(speed)} its throughput` : speed <= 1 / 1.1 ? `but slower (${x(1 / speed)} jsdom's time per page)` : "at about its throughput";
  return `; that is ${accuracy}, ${pace}`;
}

/** Which DOM is faster, by how much, whether quality differs, and whether that backs the product's linkedom choice. */
export function conclude(r: Measured): string {
  const l = r.rows.find((row) => row.id === "linkedom");
  const j = r.rows.find((row) => row.id === "jsdom");
  const p = r.rows.find((row) => row.id === "product");
  if (!l || !j) return "Not enough rows to compare the two DOM implementations.";
  const out: string[] = [];
  const n = l.pages;
  const medianRatio = ratio(j.medianMs, l.medianMs);
  const throughputRatio = ratio(l.pagesPerSecond, j.pagesPerSecond);
  const linkedomFaster = throughputRatio >= 1.1;
  const jsdomFaster = throughputRatio <= 1 / 1.1;
  if (linkedomFaster) {
    out.push(`linkedom is faster: ${x(medianRatio)} on the median page (${ms(l.medianMs)} ms vs ${ms(j.medianMs)} ms; p95 ${ms(l.p95Ms)} vs ${ms(j.p95Ms)} ms) and ${x(throughputRatio)} the pages per second over the whole set (${l.pagesPerSecond} vs ${j.pagesPerSecond}).`);
  } else if (jsdomFaster) {
    out.push(`jsdom is faster: ${x(1 / throughputRatio)} the pages per second (${j.pagesPerSecond} vs ${l.pagesPerSecond}); median page ${ms(j.medianMs)} ms vs ${ms(l.medianMs)} ms.`);
  } else {
    out.push(`The two DOMs are within 10% of each other (${l.pagesPerSecond} vs ${j.pagesPerSecond} pages/s; median ${ms(l.medianMs)} vs ${ms(j.medianMs)} ms).`);
  }
  out.push(`Peak heap growth during the timed runs: linkedom ${l.peakHeapDeltaMb} MB, jsdom ${j.peakHeapDeltaMb} MB (after a final GC: ${l.retainedHeapMb} and ${j.retainedHeapMb} MB).`);

  const { onlyA, onlyB } = differing(l, j);
  const qualityGap = j.kept - l.kept;
  if (onlyA.length === 0 && onlyB.length === 0) {
    out.push(`Recall is the same: Readability keeps the expected passage on ${l.kept}/${n} pages with either DOM${l.missed.length ? ` (both miss ${names(l.missed)})` : ""}.`);
  } else {
    out.push(`Recall differs: the expected passage is kept on ${l.kept}/${n} pages with linkedom and ${j.kept}/${n} with jsdom${onlyB.length ? `; only jsdom keeps it on ${names(onlyB)}` : ""}${onlyA.length ? `; only linkedom keeps it on ${names(onlyA)}` : ""}.`);
  }
  out.push(l.clean === j.clean && l.noisy.join() === j.noisy.join()
    ? `Both leave the marked page chrome out on ${l.clean}/${l.cleanOf} pages${l.noisy.length ? ` (chrome leaks on ${names(l.noisy)})` : ""}.`
    : `Marked page chrome is left out on ${l.clean}/${l.cleanOf} pages with linkedom and ${j.clean}/${j.cleanOf} with jsdom.`);

  // The product extracts with linkedom; say plainly whether these numbers support that.
  if (jsdomFaster && qualityGap >= 0) {
    out.push("These numbers contradict the product's choice of linkedom: jsdom is both faster and at least as accurate here.");
  } else if (jsdomFaster) {
    out.push("On speed these numbers contradict the product's choice of linkedom; only its better quality on this set argues for it.");
  } else if (qualityGap >= 2) {
    out.push(`The product's choice of linkedom buys speed at a cost in quality: raw linkedom + Readability loses ${qualityGap} pages that jsdom keeps, so the choice holds only if the product's own extraction closes that gap.`);
  } else if (linkedomFaster) {
    out.push("The numbers support the product's choice of linkedom: it is clearly faster and keeps the expected text as often as jsdom (within one page).");
  } else {
    out.push("Speed gives no reason to prefer either DOM; the choice of linkedom rests on other grounds (install size, no native or browser-like machinery).");
  }

  if (p) {
    const overRaw = ratio(p.medianMs, l.medianMs);
    const { onlyA: productOnly, onlyB: rawOnly } = differing(p, l);
    out.push(`The product's extractHtml (linkedom + Readability, falling back to the body's visible text) leaves the chrome out on ${p.clean}/${p.cleanOf} pages${p.noisy.length ? ` (leaks on ${names(p.noisy)})` : ""} and keeps the passage on ${p.kept}/${n} pages${productOnly.length ? `, ${productOnly.length} more than raw linkedom (${names(productOnly)})` : ""}${rawOnly.length ? `, but loses ${names(rawOnly)}` : ""}, at ${ms(p.medianMs)} ms on the median page (${x(overRaw)} raw linkedom, ${p.pagesPerSecond} pages/s)${productVsJsdom(p, j)}.`);
  } else {
    const skip = r.skipped.find((s) => s.id === "product");
    if (skip) out.push(`The product row was skipped: ${skip.reason.replace(/\.$/, "")}.`);
  }
  return out.join(" ");
}

export function formatExtractionMarkdown(r: Omit<ExtractionResult, "markdown">): string {
  const mb = (r.fixtures.totalBytes / 1024 / 1024).toFixed(2);
  const lines = [
    "## Extraction throughput (HTML → main text)",
    "",
    `${r.fixtures.count} fixture pages (${mb} MB) from bench/fixtures/html; ${r.warmup} untimed warm-up pass${r.warmup === 1 ? "" : "es"}, then ${r.iterations} timed pass${r.iterations === 1 ? "" : "es"} per implementation${r.environment.isolated ? ", each implementation in its own child process" : ""}. Node ${r.environment.node}, ${r.environment.platform}, ${r.environment.cpus} CPUs. "Kept": pages whose expected passage appears in the extracted text. "Clean": pages whose text leaves out a marked piece of page chrome (cookie banner, footer), out of the pages that have one. "Retained": heap still in use after a forced GC at the end.`,
    "",
    "| Implementation | Median ms/page | p95 ms/page | Mean ms/page | Pages/s | MB/s | Total s | Peak heap Δ MB | Retained MB | Kept | Clean |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...r.rows.map((row) => `| ${row.label} | ${ms(row.medianMs)} | ${ms(row.p95Ms)} | ${ms(row.meanMs)} | ${row.pagesPerSecond} | ${row.mbPerSecond} | ${(row.totalMs / 1000).toFixed(2)} | ${row.peakHeapDeltaMb} | ${row.retainedHeapMb} | ${row.kept}/${row.pages} | ${row.clean}/${row.cleanOf} |`),
    ...r.skipped.map((s) => `| ${s.label} | — | — | — | — | — | — | — | — | skipped: ${s.reason} | — |`),
    "",
    r.conclusion,
  ];
  const errors = r.rows.flatMap((row) => row.errors.map((e) => `- ${row.id}: ${e.file}: ${e.message}`));
  if (errors.length) lines.push("", "Extraction errors:", "", ...errors);
  if (r.rows.length > 0) {
    const files = r.rows[0].perPage.map((p) => p.file);
    lines.push(
      "",
      "<details><summary>Per page: median ms; ✓/✗ expected passage kept; (chrome) = marked page chrome leaked into the text</summary>",
      "",
      `| Page | KB | ${r.rows.map((row) => row.id).join(" | ")} |`,
      `| --- | ---: | ${r.rows.map(() => "---:").join(" | ")} |`,
      ...files.map((file, i) => `| ${file.replace(/\.html$/, "")} | ${(r.rows[0].perPage[i].bytes / 1024).toFixed(1)} | ${r.rows.map((row) => `${ms(row.perPage[i].medianMs)} ${row.perPage[i].kept ? "✓" : "✗"}${row.perPage[i].clean === false ? " (chrome)" : ""}`).join(" | ")} |`),
      "",
      "</details>",
    );
  }
  return lines.join("\n");
}
