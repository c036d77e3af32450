// Where the chunk vectors are ranked. Every vector is stored as a float32 blob beside its chunk
// (KnowledgeChunk.embedding, both databases): that is the record, and what every database can rank.
//
// PostgreSQL with the pgvector extension available (KNOWLEDGE_PGVECTOR=auto, the default): at first
// use, `CREATE EXTENSION IF NOT EXISTS vector` and a side table "KnowledgeChunkVector" (chunk id, its
// collection, the model, a `vector`) are made by raw SQL here, not by the Prisma migrations, so that
// the migrations still apply on a server without pgvector. The rows are written in the transaction
// that writes the chunks, removed with them (ON DELETE CASCADE), and back-filled from the blobs when
// a process first uses it. The ranking is `ORDER BY embedding <=> query` in the database: an exact
// scan of the chosen collections' rows (no HNSW index: the column's dimension is the model's, unknown
// to a fixed schema, and a search filters by collection first, which an approximate index would do
// after). Without the extension, or with KNOWLEDGE_PGVECTOR=off: one log line says so and the blobs
// are ranked in process (lib/knowledge/search.ts).
//
// SQLite keeps the blobs and the in-process cosine as its equivalent of sqlite-vec. Measured on
// 2026-11-25 with sqlite-vec 0.1.9 (npm), 2 cores at load average ~18 (other work on the machine):
// - it loads: the @prisma/adapter-better-sqlite3 factory opens the better-sqlite3 handle itself and
//   offers no hook, but the connected adapter's undeclared `client` property is that handle, and
//   `client.loadExtension(getLoadablePath())` works on it;
// - it is faster: 50 nearest of 5,000 random 384-dim vectors in one collection, p50/p95 over 30
//   queries: vec0 (partition key = collection) 8 / 18 ms; reading the blobs and ranking in process
//   116 / 479 ms (39 ms of it reading the rows, 32 ms the cosine). At 20,000 × 768: 71 / 150 ms
//   against 716 / 1,015 ms. Both are exhaustive scans: vec0 simply does it in C, on data it stores;
// - it does not fit cleanly: a virtual table cannot take part in the foreign-key cascades that delete
//   chunks (a user, a collection, a document, a re-index), so each delete would need a trigger naming
//   the vec0 module, and every connection without the extension loaded (the Prisma CLI's migrate, the
//   sqlite3 shell) would then fail on any such delete; vec0 fixes the dimension per table (one per
//   model); and the app would depend on an adapter internal and ship a native extension per platform.
// So the embedded default ranks in process, which costs ~0.1 s a search at 5,000 embedded chunks on
// this machine (nothing without EMBEDDING_MODEL). Moving to vec0 behind this module, with app-level
// deletes instead of triggers, is the way to make SQLite's vector search fast at larger sizes.
import { db } from "./client";
import { getEnv } from "../env";
import { databaseProvider } from "./database-url";

type Tx = Parameters<Parameters<typeof db.$transaction>[0]>[0];

export type VectorStore = "pgvector" | "in-process";

const TABLE = `"KnowledgeChunkVector"`;
const BACKFILL_BATCH = 500;

const memo = globalThis as unknown as { quarryVectorStore?: Map<string, Promise<VectorStore>> };

/** Which ranking this process uses, decided once per database (and setting) at first use. */
export function vectorStore(): Promise<VectorStore> {
  const env = getEnv();
  if (databaseProvider(env.DATABASE_URL) !== "postgresql") return Promise.resolve("in-process");
  const key = `${env.DATABASE_URL}\n${env.KNOWLEDGE_PGVECTOR}`;
  memo.quarryVectorStore ??= new Map();
  let store = memo.quarryVectorStore.get(key);
  if (!store) {
    store = env.KNOWLEDGE_PGVECTOR === "off" ? Promise.resolve(fallback("KNOWLEDGE_PGVECTOR=off")) : setUpPgvector();
    memo.quarryVectorStore.set(key, store);
  }
  return store;
}

function fallback(why: string): VectorStore {
  console.warn(`[quarry] knowledge base: ${why}; chunk vectors are ranked in process (exact cosine over the stored blobs)`);
  return "in-process";
}

async function setUpPgvector(): Promise<VectorStore> {
  try {
    const available = await db.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
    if (available.length === 0) return fallback("pgvector is not installed on this PostgreSQL server (install postgresql-NN-pgvector to rank vectors in the database)");
    await db.$transaction(
      async (tx) => {
        // One process at a time: concurrent CREATE ... IF NOT EXISTS can still collide in the catalog.
        await tx.$queryRawUnsafe(`SELECT 1 FROM pg_advisory_xact_lock(hashtext('quarry.knowledge.pgvector'))`);
        await tx.$executeRawUnsafe(`CREATE EXTENSION IF NOT EXISTS vector`);
        await tx.$executeRawUnsafe(
          `CREATE TABLE IF NOT EXISTS ${TABLE} (
             "chunkId" TEXT PRIMARY KEY REFERENCES "KnowledgeChunk"("id") ON DELETE CASCADE,
             "collectionId" TEXT NOT NULL,
             "model" TEXT NOT NULL,
             "embedding" vector NOT NULL)`,
        );
        await tx.$executeRawUnsafe(`CREATE INDEX IF NOT EXISTS "KnowledgeChunkVector_collection_model_idx" ON ${TABLE} ("collectionId", "model")`);
        await backfill(tx);
      },
      { timeout: 600_000 },
    );
    console.log(`[quarry] knowledge base: chunk vectors are ranked by pgvector`);
    return "pgvector";
  } catch (error) {
    return fallback(`pgvector could not be enabled (${error instanceof Error ? error.message : String(error)}; CREATE EXTENSION vector needs a superuser once)`);
  }
}

/** The vectors stored as blobs with no row yet (before the table existed, or written with KNOWLEDGE_PGVECTOR=off). */
async function backfill(tx: Tx): Promise<void> {
  let after = "";
  for (;;) {
    const rows = await tx.$queryRawUnsafe<Array<{ id: string; collectionId: string; embeddingModel: string; embedding: Uint8Array }>>(
      `SELECT c."id", c."collectionId", c."embeddingModel", c."embedding" FROM "KnowledgeChunk" c
       WHERE c."embedding" IS NOT NULL AND c."embeddingModel" IS NOT NULL AND c."id" > $1
         AND NOT EXISTS (SELECT 1 FROM ${TABLE} v WHERE v."chunkId" = c."id")
       ORDER BY c."id" LIMIT ${BACKFILL_BATCH}`,
      after,
    );
    if (rows.length === 0) return;
    await tx.$executeRawUnsafe(
      `INSERT INTO ${TABLE} ("chunkId", "collectionId", "model", "embedding")
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]::vector[]) ON CONFLICT DO NOTHING`,
      rows.map((r) => r.id),
      rows.map((r) => r.collectionId),
      rows.map((r) => r.embeddingModel),
      rows.map((r) => vectorLiteral(r.embedding)),
    );
    after = rows[rows.length - 1].id;
  }
}

function vectorLiteral(blob: Uint8Array): string {
  const copy = new Uint8Array(blob);
  return `[${Array.from(new Float32Array(copy.buffer, 0, copy.byteLength / 4)).join(",")}]`;
}

/**
 * Inside the transaction that wrote a document's chunks: their vectors into the side table, when the
 * store is pgvector (the caller resolved `vectorStore()` before opening the transaction).
 */
export async function writeChunkVectors(tx: Tx, store: VectorStore, { documentId, chunks }: {
  documentId: string;
  chunks: Array<{ ordinal: number; embedding?: Uint8Array | null; embeddingModel?: string | null }>;
}): Promise<void> {
  const embedded = chunks.filter((c) => c.embedding && c.embeddingModel);
  if (store !== "pgvector" || embedded.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO ${TABLE} ("chunkId", "collectionId", "model", "embedding")
     SELECT c."id", c."collectionId", v."model", v."embedding"::vector
     FROM unnest($2::int[], $3::text[], $4::text[]) AS v("ordinal", "model", "embedding")
       JOIN "KnowledgeChunk" c ON c."documentId" = $1 AND c."ordinal" = v."ordinal"`,
    documentId,
    embedded.map((c) => c.ordinal),
    embedded.map((c) => c.embeddingModel!),
    embedded.map((c) => vectorLiteral(c.embedding!)),
  );
}

/**
 * The `limit` chunks of the collections nearest to `vector` (cosine distance), best first, ranked by
 * pgvector; null when this database ranks in process (then use chunkVectors).
 */
export async function nearestChunkIds({ collectionIds, model, vector, limit }: { collectionIds: string[]; model: string; vector: Float32Array; limit: number }): Promise<string[] | null> {
  if ((await vectorStore()) !== "pgvector") return null;
  if (collectionIds.length === 0) return [];
  const ids = collectionIds.map((_, i) => `$${i + 4}`).join(", ");
  const rows = await db.$queryRawUnsafe<Array<{ chunkId: string }>>(
    `SELECT v."chunkId" FROM ${TABLE} v
     WHERE v."model" = $1 AND vector_dims(v."embedding") = $2 AND v."collectionId" IN (${ids})
     ORDER BY v."embedding" <=> $3::vector, v."chunkId" LIMIT ${Math.max(1, Math.floor(limit))}`,
    model,
    vector.length,
    `[${Array.from(vector).join(",")}]`,
    ...collectionIds,
  );
  return rows.map((r) => r.chunkId);
}

export async function chunkVectors({ collectionIds, model }: { collectionIds: string[]; model: string }): Promise<Array<{ id: string; embedding: Uint8Array }>> {
  const rows = await db.knowledgeChunk.findMany({
    where: { collectionId: { in: collectionIds }, embeddingModel: model, embedding: { not: null } },
    select: { id: true, embedding: true },
  });
  return rows as Array<{ id: string; embedding: Uint8Array }>;
}

/** Chunks by id with their documents, for hits found by vector only. */
export async function chunksWithDocuments({ ids }: { ids: string[] }) {
  return db.knowledgeChunk.findMany({
    where: { id: { in: ids } },
    select: { id: true, documentId: true, collectionId: true, page: true, section: true, text: true, document: { select: { name: true, title: true, format: true } } },
  });
}
