// The knowledge base's row of `npm run bench` (--only knowledge): run-knowledge.ts in a child process
// per database (it points the process at a fresh test database of its own), its JSON read back.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface KnowledgeBenchResult {
  database: string;
  /** Hybrid: indexed and searched with embeddings from the fake LLM's /v1/embeddings. */
  embeddings?: boolean;
  textsEmbedded?: number;
  documents: number;
  pages: number;
  chunks: number;
  indexSeconds: number;
  pagesPerSecond: number;
  queries: number;
  meanHits: number;
  searchP50Ms: number;
  searchP95Ms: number;
  cpus: number;
  loadAverage: number;
  targets: { pagesPerSecond: number; searchP95Ms: number };
}

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export function runKnowledgeBench({ database, docs, queries, embeddings = false, log = console.error }: { database: string; docs: number; queries: number; embeddings?: boolean; log?: (m: string) => void }): KnowledgeBenchResult {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quarry-kb-bench-")), "knowledge.json");
  log(`knowledge (${database}${embeddings ? ", hybrid" : ""}): indexing ${docs} documents, then ${queries} searches`);
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "bench", "knowledge", "run-knowledge.ts"), "--docs", String(docs), "--queries", String(queries), "--database", database, ...(embeddings ? ["--embeddings"] : []), "--out", out],
    { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"], env: process.env },
  );
  if (child.status !== 0) throw new Error(`the knowledge bench on ${database} failed (exit ${child.status})`);
  const result = JSON.parse(fs.readFileSync(out, "utf8")) as KnowledgeBenchResult;
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return result;
}

export function formatKnowledgeMarkdown(rows: KnowledgeBenchResult[]): string {
  const mark = (ok: boolean) => (ok ? "✓" : "✗");
  return [
    "## Knowledge base: indexing throughput and search latency",
    "",
    "PDF pages parsed, chunked, stored and full-text indexed (no embeddings), then ranked full-text searches of 3–6 words on the collection. " +
      "A hybrid row: the same with EMBEDDING_MODEL set against the fake LLM's /v1/embeddings (every chunk embedded while indexing; each search embeds its query and fuses the two rankings).",
    "",
    "| database | documents | pages | chunks | pages/s (≥ 20) | search p50 | search p95 (< 100 ms) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map(
      (r) =>
        `| ${r.database}${r.embeddings ? `, hybrid (${r.textsEmbedded} texts embedded)` : ""} | ${r.documents} | ${r.pages} | ${r.chunks} | ${r.pagesPerSecond} ${mark(r.pagesPerSecond >= r.targets.pagesPerSecond)} | ${r.searchP50Ms} ms | ${r.searchP95Ms} ms ${mark(r.searchP95Ms < r.targets.searchP95Ms)} |`,
    ),
    "",
  ].join("\n");
}
