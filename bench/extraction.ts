// Extraction benchmark: HTML → main text on the fixture pages (bench/fixtures/html), for Readability over
// linkedom and over jsdom, and for the product's own extractHtml. Measures speed (ms per page, pages/s, heap)
// and quality (is each page's promised passage kept, is marked page chrome left out).
// Run: npx tsx bench/extraction.ts [--smoke] [--iterations N] [--json]
import { cpus } from "node:os";
import { pathToFileURL } from "node:url";
import { measureInChild, measureInProcess } from "./extraction-child";
import { PRODUCT_LABEL } from "./extraction-implementations";
import { defaultWarmup, loadFixtures, type Implementation, type ImplementationResult } from "./extraction-measure";
import { conclude, formatExtractionMarkdown } from "./extraction-report";

export { FIXTURE_DIR, loadFixtures, normalizeText, type Fixture, type Implementation, type ImplementationResult, type PageResult } from "./extraction-measure";
export { jsdomReadability, linkedomReadability, loadProductImplementation } from "./extraction-implementations";

const IDS = ["linkedom", "jsdom", "product"] as const;

export interface ExtractionResult {
  benchmark: "extraction";
  startedAt: string;
  /** `isolated`: each implementation ran in its own child process. */
  environment: { node: string; platform: string; cpus: number; isolated: boolean };
  iterations: number;
  /** Untimed passes over the fixtures before the timed ones. */
  warmup: number;
  fixtures: { count: number; totalBytes: number; files: string[] };
  rows: ImplementationResult[];
  skipped: { id: Implementation["id"]; label: string; reason: string }[];
  conclusion: string;
  markdown: string;
}

export interface ExtractionOptions {
  /** Timed passes over every fixture, after the untimed warm-up. Default 5. */
  iterations?: number;
  /** Fixture file names (in bench/fixtures/html) or paths. Default: every fixture. */
  files?: string[];
  /** Progress lines; silent by default. */
  log?: (line: string) => void;
  /** Run each implementation in a fresh child process (default true); false runs them in this process. */
  isolate?: boolean;
  /** Untimed passes over the fixtures before timing. Default: enough for about 30 extractions. */
  warmup?: number;
}

/** A few seconds: one pass over five pages of different kinds. */
export const SMOKE_OPTIONS = {
  iterations: 1,
  warmup: 1,
  files: [
    "news-city-transit-extension.html",
    "docs-tidepool-configuration.html",
    "forum-nas-raid-rebuild.html",
    "heavy-next-news-article.html",
    "de-news-bahnstrecke.html",
  ],
} satisfies ExtractionOptions;

export async function runExtractionBench(options: ExtractionOptions = {}): Promise<ExtractionResult> {
  const iterations = Math.max(1, Math.floor(options.iterations ?? 5));
  const log = options.log ?? (() => {});
  const fixtures = loadFixtures(options.files);
  const paths = fixtures.map((f) => f.path);
  const isolate = options.isolate ?? true;
  const warmup = Math.max(0, Math.floor(options.warmup ?? defaultWarmup(fixtures.length)));
  const startedAt = new Date().toISOString();
  const rows: ImplementationResult[] = [];
  const skipped: ExtractionResult["skipped"] = [];
  for (const id of IDS) {
    log(`extraction: ${id}: ${warmup} warm-up + ${iterations} timed × ${fixtures.length} pages${isolate ? " (child process)" : ""}`);
    const req = { id, paths, iterations, warmup };
    const outcome = isolate ? await measureInChild(req) : await measureInProcess(req);
    if ("row" in outcome) rows.push(outcome.row);
    else skipped.push({ id, label: id === "product" ? PRODUCT_LABEL : id, reason: outcome.skipped });
  }
  const base = {
    benchmark: "extraction" as const,
    startedAt,
    environment: { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length, isolated: isolate },
    iterations,
    warmup,
    fixtures: { count: fixtures.length, totalBytes: fixtures.reduce((s, f) => s + f.bytes, 0), files: fixtures.map((f) => f.file) },
    rows,
    skipped,
  };
  const conclusion = conclude(base);
  return { ...base, conclusion, markdown: formatExtractionMarkdown({ ...base, conclusion }) };
}

async function main(argv: string[]): Promise<void> {
  const smoke = argv.includes("--smoke");
  const at = argv.indexOf("--iterations");
  const iterations = at >= 0 ? Number(argv[at + 1]) : undefined;
  const result = await runExtractionBench({
    ...(smoke ? SMOKE_OPTIONS : {}),
    ...(iterations ? { iterations } : {}),
    log: (line) => console.error(line),
  });
  console.log(argv.includes("--json") ? JSON.stringify(result, null, 2) : result.markdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
