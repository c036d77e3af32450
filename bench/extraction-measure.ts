// Timing and quality measurement of one extraction implementation over the fixture pages.
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export const FIXTURE_DIR = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "html");

export interface Fixture {
  file: string;
  path: string;
  html: string;
  bytes: number;
  url: string;
  /** A passage of the main text that a correct extraction keeps. */
  expect: string;
  /** Page chrome (cookie banner, footer…) that a focused extraction drops; absent on chrome-less pages. */
  avoid?: string;
}

export interface Implementation {
  id: "linkedom" | "jsdom" | "product";
  label: string;
  /** Returns the extracted main text. */
  extract: (html: string, url: string) => string;
}

export interface PageResult {
  file: string;
  bytes: number;
  medianMs: number;
  kept: boolean;
  /** The avoid marker is absent from the text; undefined for pages without one. */
  clean?: boolean;
  chars: number;
  error?: string;
}

export interface ImplementationResult {
  id: Implementation["id"];
  label: string;
  pages: number;
  iterations: number;
  samples: number;
  medianMs: number;
  p95Ms: number;
  meanMs: number;
  maxMs: number;
  /** Sum of every timed extraction. */
  totalMs: number;
  pagesPerSecond: number;
  mbPerSecond: number;
  /** Highest heapUsed seen after a page, minus heapUsed after a forced GC before the timed runs. */
  peakHeapDeltaMb: number;
  /** heapUsed after a forced GC once the timed runs end, minus the baseline: memory the runs kept alive. */
  retainedHeapMb: number;
  /** Pages whose expected passage is in the extracted text. */
  kept: number;
  missed: string[];
  /** Pages with an avoid marker whose text leaves it out, out of `cleanOf` such pages. */
  clean: number;
  cleanOf: number;
  noisy: string[];
  errors: { file: string; message: string }[];
  perPage: PageResult[];
}

const EXPECT_RE = /<!--\s*expect:\s*"(.*)"\s*-->/;
const AVOID_RE = /<!--\s*avoid:\s*"(.*)"\s*-->/;
const CANONICAL_RE = /<link\s+rel="canonical"\s+href="([^"]+)"/i;

export function loadFixtures(files?: string[]): Fixture[] {
  const paths = files?.length
    ? files.map((f) => (isAbsolute(f) || f.includes("/") ? f : join(FIXTURE_DIR, f)))
    : readdirSync(FIXTURE_DIR).filter((f) => f.endsWith(".html")).sort().map((f) => join(FIXTURE_DIR, f));
  return paths.map((path) => {
    const html = readFileSync(path, "utf8");
    const expect = EXPECT_RE.exec(html)?.[1];
    if (!expect) throw new Error(`${path}: no <!-- expect: "…" --> comment`);
    const file = basename(path);
    const url = CANONICAL_RE.exec(html)?.[1] ?? `https://fixtures.quarry.invalid/${file}`;
    const avoid = AVOID_RE.exec(html)?.[1];
    return { file, path, html, bytes: Buffer.byteLength(html), url, expect, ...(avoid ? { avoid } : {}) };
  });
}

/** Whitespace and Unicode form differ between serialisations; the words must not. */
export function normalizeText(text: string): string {
  return text.normalize("NFC").replace(/\s+/g, " ").trim();
}

export function exposeGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  try {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    return undefined;
  }
}

/** The q-quantile (0..1) of sorted values, interpolated. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** The median of values in any order. */
export const median = (values: readonly number[]): number => quantile([...values].sort((a, b) => a - b), 0.5);

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

export function defaultWarmup(pages: number): number {
  return Math.max(1, Math.ceil(30 / Math.max(1, pages)));
}

// Each page runs in its own macrotask, as in the product where every scrape is separate async work. In one
// long synchronous loop V8 keeps every WeakRef target alive until the loop ends, and jsdom, which uses
// WeakRefs, would then appear to retain every document it ever built.
const nextTask = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function measure(impl: Implementation, fixtures: readonly Fixture[], iterations: number, warmup: number, gc?: () => void): Promise<ImplementationResult> {
  const errors = new Map<string, string>();
  const run = (f: Fixture): string => {
    try {
      return impl.extract(f.html, f.url);
    } catch (error) {
      errors.set(f.file, error instanceof Error ? error.message : String(error));
      return "";
    }
  };
  for (let w = 0; w < warmup; w++) {
    for (const f of fixtures) {
      run(f); // untimed: JIT and caches
      await nextTask();
    }
  }
  gc?.();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const times = fixtures.map(() => [] as number[]);
  const texts: string[] = [];
  for (let it = 0; it < iterations; it++) {
    for (const [i, f] of fixtures.entries()) {
      const start = performance.now();
      const text = run(f);
      times[i].push(performance.now() - start);
      if (it === 0) texts[i] = text;
      peak = Math.max(peak, process.memoryUsage().heapUsed);
      await nextTask();
    }
  }
  gc?.();
  const retained = process.memoryUsage().heapUsed;
  const all = times.flat().sort((a, b) => a - b);
  const totalMs = all.reduce((s, t) => s + t, 0);
  const totalBytes = fixtures.reduce((s, f) => s + f.bytes, 0) * iterations;
  const perPage: PageResult[] = fixtures.map((f, i) => {
    const text = normalizeText(texts[i]);
    return {
      file: f.file,
      bytes: f.bytes,
      medianMs: round(quantile([...times[i]].sort((a, b) => a - b), 0.5), 3),
      kept: text.includes(normalizeText(f.expect)),
      ...(f.avoid ? { clean: !text.includes(normalizeText(f.avoid)) } : {}),
      chars: texts[i].length,
      ...(errors.has(f.file) ? { error: errors.get(f.file) } : {}),
    };
  });
  return {
    id: impl.id,
    label: impl.label,
    pages: fixtures.length,
    iterations,
    samples: all.length,
    medianMs: round(quantile(all, 0.5), 3),
    p95Ms: round(quantile(all, 0.95), 3),
    meanMs: round(totalMs / all.length, 3),
    maxMs: round(all[all.length - 1] ?? 0, 3),
    totalMs: round(totalMs, 1),
    pagesPerSecond: round((all.length / totalMs) * 1000, 1),
    mbPerSecond: round(totalBytes / 1024 / 1024 / (totalMs / 1000), 2),
    peakHeapDeltaMb: round((peak - baseline) / 1024 / 1024, 1),
    retainedHeapMb: round((retained - baseline) / 1024 / 1024, 1),
    kept: perPage.filter((p) => p.kept).length,
    missed: perPage.filter((p) => !p.kept).map((p) => p.file),
    clean: perPage.filter((p) => p.clean === true).length,
    cleanOf: perPage.filter((p) => p.clean !== undefined).length,
    noisy: perPage.filter((p) => p.clean === false).map((p) => p.file),
    errors: [...errors].map(([file, message]) => ({ file, message })),
    perPage,
  };
}
