// npm run bench:knowledge – the knowledge base's figures, in process on a fresh database:
// indexing throughput (PDF pages per second: parse, chunk, store, full-text index; no embeddings) and
// search latency p50/p95 on a 1,000-document collection. Targets (issue 22): ≥ 20 pages/s on 2 cores,
// p95 < 100 ms. With --embeddings: hybrid, end to end against the fake LLM's /v1/embeddings
// (test/fakes/llm-embeddings.ts, started in this process): every chunk embedded while indexing, every
// search embedding its query and fusing the vector ranking with the full-text one.
//   tsx bench/knowledge/run-knowledge.ts [--docs 1000] [--pages 3] [--queries 200] [--database sqlite|postgres]
//     [--embeddings] [--out bench/results/knowledge.json]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildPdfPages } from "../../test/fakes/pdf";

const { values } = parseArgs({
  options: {
    docs: { type: "string", default: "1000" },
    pages: { type: "string", default: "3" },
    queries: { type: "string", default: "200" },
    database: { type: "string", default: "sqlite" },
    embeddings: { type: "boolean", default: false },
    out: { type: "string" },
  },
});
const DOCS = Number(values.docs);
const PAGES = Number(values.pages);
const QUERIES = Number(values.queries);

// A deterministic corpus: a 4,000-word vocabulary drawn with a Zipf-like skew, as real text is, so
// that common words have long posting lists and rare ones short.
let seed = 42;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "si", "pe", "du", "ga", "zo", "fi", "be", "xu"];
const vocabulary = Array.from({ length: 4_000 }, (_, i) => {
  let w = "";
  for (let n = i + 15; n > 0; n = Math.floor(n / 15)) w += syllables[n % 15];
  return w;
});
const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 2.5)];
const sentence = () => Array.from({ length: 8 + Math.floor(random() * 12) }, word).join(" ") + ".";
const paragraph = () => Array.from({ length: 4 }, sentence).join(" ");

async function main() {
  process.env.AUTH_SECRET ??= "bench-secret-0123456789abcdef0123456789";
  if (values.database === "postgres") process.env.TEST_DATABASE = "postgres";
  const { useTestDatabase } = await import("../../lib/db/test-support");
  await useTestDatabase();
  delete process.env.EMBEDDING_MODEL;
  let llm: import("../../test/fakes/llm-server").FakeLlm | undefined;
  if (values.embeddings) {
    const { FakeLlm } = await import("../../test/fakes/llm-server");
    llm = new FakeLlm();
    await llm.start();
    Object.assign(process.env, { OPENAI_BASE_URL: llm.url, OPENAI_API_KEY: "bench-key", EMBEDDING_MODEL: "fake-embedding" });
    (await import("../../lib/env")).resetEnvCache();
  }
  const { insertUser } = await import("../../lib/db/users");
  const { disconnectDatabase } = await import("../../lib/db/connection");
  const kb = await import("../../lib/knowledge/collections");
  const { searchKnowledge } = await import("../../lib/knowledge/search");
  const user = (await insertUser({ email: "bench@example.com", name: null, passwordHash: "x" }))!.id;
  const collection = await kb.createCollection(user, "Bench");

  const files = Array.from({ length: DOCS }, (_, i) => buildPdfPages({ title: `Document ${i}`, pages: Array.from({ length: PAGES }, () => [paragraph(), paragraph(), paragraph()]) }));
  const started = performance.now();
  for (let i = 0; i < files.length; i++) await kb.addDocument(user, collection.id, { name: `doc-${i}.pdf`, bytes: files[i] });
  const indexSeconds = (performance.now() - started) / 1000;
  const pages = DOCS * PAGES;

  const latencies: number[] = [];
  let hits = 0;
  for (let q = 0; q < QUERIES; q++) {
    const query = Array.from({ length: 3 + (q % 4) }, word).join(" ");
    const t = performance.now();
    hits += (await searchKnowledge({ userId: user, collectionIds: [collection.id], query, limit: 10 })).length;
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  const result = {
    database: values.database,
    embeddings: values.embeddings,
    textsEmbedded: llm?.embedded.length ?? 0,
    documents: DOCS,
    pages,
    chunks: (await kb.getCollection(user, collection.id)).documents.reduce((n, d) => n + d.chunkCount, 0),
    indexSeconds: Number(indexSeconds.toFixed(1)),
    pagesPerSecond: Number((pages / indexSeconds).toFixed(1)),
    queries: QUERIES,
    meanHits: Number((hits / QUERIES).toFixed(1)),
    searchP50Ms: Number(pct(50).toFixed(1)),
    searchP95Ms: Number(pct(95).toFixed(1)),
    cpus: os.cpus().length,
    loadAverage: os.loadavg()[0],
    targets: { pagesPerSecond: 20, searchP95Ms: 100 },
  };
  console.log(JSON.stringify(result, null, 2));
  if (values.out) {
    fs.mkdirSync(path.dirname(values.out), { recursive: true });
    fs.writeFileSync(values.out, JSON.stringify(result, null, 2) + "\n");
  }
  await disconnectDatabase();
  await llm?.stop();
}

await main();
