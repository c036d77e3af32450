// The exports' row (issue 54): each format of one report built twice — the first build, then the same
// report version again, which the export cache serves (lib/exports/cache.ts): the paper's second
// request must cost no compile. In process; the paper compiles only where a LaTeX engine is installed.
import { exportCacheHits } from "../../lib/exports/cache";
import { latexEngine } from "../../lib/exports/latex/compile";
import { INPUT } from "../../lib/exports/latex/test-paper";
import { paperZip } from "../../lib/exports/latex/zip";
import { renderExport } from "../../lib/exports/render";
import { DOC } from "../../lib/exports/test-document";

export interface ExportRow {
  format: "pdf" | "docx" | "tex";
  firstMs: number;
  secondMs: number;
  /** The second request came from the cache (no build, no compile). */
  cached: boolean;
  bytes: number;
}

export interface ExportsBenchResult {
  engine: string | null;
  rows: ExportRow[];
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round((performance.now() - started) * 10) / 10 };
}

export async function runExportsBench({ log = console.error }: { log?: (line: string) => void } = {}): Promise<ExportsBenchResult> {
  // A version of its own per run: nothing of an earlier build in this process is reused.
  const stamp = `bench ${Date.now()}`;
  const doc = { ...DOC, title: `${DOC.title} (${stamp})` };
  const engine = await latexEngine();
  const builds: { format: ExportRow["format"]; build: () => Promise<{ body: Uint8Array }> }[] = [
    { format: "pdf", build: () => renderExport(doc, "pdf") },
    { format: "docx", build: () => renderExport(doc, "docx") },
    ...(engine ? [{ format: "tex" as const, build: () => paperZip({ ...INPUT, doc: { ...INPUT.doc, title: `${INPUT.doc.title} (${stamp})` } }) }] : []),
  ];
  const rows: ExportRow[] = [];
  for (const { format, build } of builds) {
    const first = await timed(build);
    const hits = exportCacheHits();
    const second = await timed(build);
    rows.push({ format, firstMs: first.ms, secondMs: second.ms, cached: exportCacheHits() === hits + 1, bytes: first.value.body.byteLength });
    log(`exports: ${format} first ${first.ms} ms, second ${second.ms} ms${exportCacheHits() === hits + 1 ? " (cached)" : " (BUILT AGAIN)"}`);
  }
  if (!engine) log("exports: no LaTeX engine installed: the paper's row is left out");
  return { engine: engine ? String(engine) : null, rows };
}

export function formatExportsMarkdown(r: ExportsBenchResult): string {
  const lines = [
    "## Exports: a report's first build and the same version again (issue 54)",
    "",
    `LaTeX engine: ${r.engine ?? "none installed (no paper row)"}. Target: the second request is served from the cache (no build, no compile).`,
    "",
    "| format | first build | second request | from the cache | size |",
    "|---|---|---|---|---|",
    ...r.rows.map((x) => `| ${x.format} | ${x.firstMs} ms | ${x.secondMs} ms | ${x.cached ? "yes ✓" : "no ✗"} | ${(x.bytes / 1024).toFixed(1)} KB |`),
  ];
  return `${lines.join("\n")}\n`;
}
