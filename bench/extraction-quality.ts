// Extraction quality: the product's extractHtml (and plain Readability for comparison) against the labelled pages in
// bench/fixtures/labelled/pages (HTML + ground-truth main text; generator and labelling rules in
// bench/fixtures/labelled/generate.ts). The metric is the one of Zyte's article-extraction benchmark
// (github.com/scrapinghub/article-extraction-benchmark, evaluate.py): texts are cut into word tokens (\w+),
// tokens into overlapping 4-token shingles, and the shingles of the extraction and of the truth are matched as
// multisets; each page's true positives, false positives and false negatives are divided by their sum so that
// long pages weigh no more than short ones; precision and recall are the means over pages, F1 is computed from
// the two means. Scored separately on the pages used for tuning and on the held-out ones.
// Run: npx tsx bench/extraction-quality.ts [--pages] (or npm run bench -- --only extraction)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { extractHtml } from "@/lib/scrape/html";
import { linkedomReadability } from "./extraction-implementations";
import { LABELLED_DIR, MANIFEST } from "./fixtures/labelled/generate";

export interface LabelledPage {
  name: string;
  style: string;
  heldOut: boolean;
  url: string;
  html: string;
  truth: string;
}

/** tp, fp, fn of one page, normalised to sum to 1 (all 0 when both texts are empty). */
export type Counts = [tp: number, fp: number, fn: number];

export interface Scores {
  pages: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface PageScore {
  name: string;
  style: string;
  heldOut: boolean;
  precision: number;
  recall: number;
  counts: Counts;
}

export interface QualityRow {
  id: "product" | "readability";
  label: string;
  all: Scores;
  tuned: Scores;
  heldOut: Scores;
  perPage: PageScore[];
}

export interface QualityResult {
  benchmark: "extraction-quality";
  pages: { total: number; tuned: number; heldOut: number };
  rows: QualityRow[];
  markdown: string;
}

// Python's \w with re.UNICODE: letters, digits and the underscore, in any script.
const TOKEN_RE = /[\p{L}\p{N}_]+/gu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN_RE) ?? [];
}

function shingles(text: string, n = 4): Map<string, number> {
  const tokens = tokenize(text);
  const out = new Map<string, number>();
  // As evaluate.py: a text shorter than n tokens is one shorter shingle; an empty text has none.
  for (let i = 0; i < Math.max(1, tokens.length - n + 1); i++) {
    const shingle = tokens.slice(i, i + n);
    if (shingle.length === 0) continue;
    const key = shingle.join("\u0000");
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** Shingle matching of one page: how much of the extraction is true (tp vs fp) and of the truth is found (tp vs fn). */
export function shingleMatch(truth: string, predicted: string, n = 4): Counts {
  const t = shingles(truth, n);
  const p = shingles(predicted, n);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...t.keys(), ...p.keys()])) {
    const tc = t.get(key) ?? 0;
    const pc = p.get(key) ?? 0;
    tp += Math.min(tc, pc);
    fp += Math.max(0, pc - tc);
    fn += Math.max(0, tc - pc);
  }
  const sum = tp + fp + fn;
  return sum > 0 ? [tp / sum, fp / sum, fn / sum] : [0, 0, 0];
}

export function precisionOf([tp, fp, fn]: Counts): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fp === 0) return 0;
  return tp / (tp + fp);
}

export function recallOf([tp, fp, fn]: Counts): number {
  if (fp === 0 && fn === 0) return 1;
  if (tp === 0 && fn === 0) return 0;
  return tp / (tp + fn);
}

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);

/** Macro-averaged precision and recall over pages, and F1 of the two means (as evaluate.py). */
export function aggregate(counts: readonly Counts[]): Scores {
  const precision = mean(counts.filter(([tp, fp]) => tp + fp > 0).map(precisionOf));
  const recall = mean(counts.filter(([tp, , fn]) => tp + fn > 0).map(recallOf));
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { pages: counts.length, precision, recall, f1 };
}

const CANONICAL_RE = /<link\s+rel="canonical"\s+href="([^"]+)"/i;

export function loadLabelled(): LabelledPage[] {
  const dir = join(LABELLED_DIR, "pages");
  return MANIFEST.map((m) => {
    const html = readFileSync(join(dir, `${m.name}.html`), "utf8");
    const truth = readFileSync(join(dir, `${m.name}.txt`), "utf8");
    return { ...m, html, truth, url: CANONICAL_RE.exec(html)?.[1] ?? `https://labelled.quarry.invalid/${m.name}` };
  });
}

export function scorePages(pages: readonly LabelledPage[], extract: (html: string, url: string) => string): Omit<QualityRow, "id" | "label"> {
  const perPage: PageScore[] = pages.map((page) => {
    const counts = shingleMatch(page.truth, extract(page.html, page.url));
    return { name: page.name, style: page.style, heldOut: page.heldOut, counts, precision: precisionOf(counts), recall: recallOf(counts) };
  });
  return {
    all: aggregate(perPage.map((p) => p.counts)),
    tuned: aggregate(perPage.filter((p) => !p.heldOut).map((p) => p.counts)),
    heldOut: aggregate(perPage.filter((p) => p.heldOut).map((p) => p.counts)),
    perPage,
  };
}

export const productExtract = (html: string, url: string): string => extractHtml(html, url).text;

export async function runExtractionQuality(options: { pages?: LabelledPage[] } = {}): Promise<QualityResult> {
  const pages = options.pages ?? loadLabelled();
  const readability = await linkedomReadability();
  const rows: QualityRow[] = [
    { id: "product", label: "product (lib/scrape extractHtml)", ...scorePages(pages, productExtract) },
    { id: "readability", label: "linkedom parseHTML + Readability (textContent)", ...scorePages(pages, readability.extract) },
  ];
  const base = { benchmark: "extraction-quality" as const, pages: { total: pages.length, tuned: pages.filter((p) => !p.heldOut).length, heldOut: pages.filter((p) => p.heldOut).length }, rows };
  return { ...base, markdown: formatQualityMarkdown(base) };
}

const f3 = (n: number) => n.toFixed(3);

export function formatQualityMarkdown(r: Omit<QualityResult, "markdown">, options: { perPage?: boolean } = {}): string {
  const out = [
    "### Extraction quality (labelled pages, Zyte's shingle metric)",
    "",
    `${r.pages.total} labelled pages (bench/fixtures/labelled): ${r.pages.tuned} used for tuning, ${r.pages.heldOut} held out. Target: F1 ≥ 0.97 with recall ≥ 0.985.`,
    "",
    "| implementation | pages | F1 | precision | recall |",
    "| --- | --- | ---: | ---: | ---: |",
  ];
  for (const row of r.rows) {
    for (const [part, s] of [["tuned", row.tuned], ["held out", row.heldOut], ["all", row.all]] as const) {
      out.push(`| ${row.label} | ${part} (${s.pages}) | ${f3(s.f1)} | ${f3(s.precision)} | ${f3(s.recall)} |`);
    }
  }
  if (options.perPage) {
    out.push("", "| page | held out | precision | recall |", "| --- | --- | ---: | ---: |");
    for (const p of r.rows[0].perPage) out.push(`| ${p.name} | ${p.heldOut ? "yes" : ""} | ${f3(p.precision)} | ${f3(p.recall)} |`);
  }
  return `${out.join("\n")}\n`;
}

async function main(argv: string[]): Promise<void> {
  const result = await runExtractionQuality();
  console.log(formatQualityMarkdown(result, { perPage: argv.includes("--pages") }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
