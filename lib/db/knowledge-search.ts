// Ranked full-text search over the knowledge chunks, on the index the migrations create by hand.
// Terms are OR-ed, and both databases rank BM25-like: a chunk holding more of the terms, and rarer
// ones, ranks first. SQLite: FTS5's bm25(). PostgreSQL has no BM25: each term's ts_rank (frequency,
// normalised by length) is weighted by the term's inverse document frequency in the collections,
// counted on the GIN index; ts_rank alone lets a common word repeated often outrank a rare one.
import { getEnv } from "../env";
import { db } from "./client";
import { databaseProvider } from "./database-url";

export interface ChunkHit {
  id: string;
  documentId: string;
  collectionId: string;
  documentName: string;
  documentTitle: string | null;
  format: string;
  page: number | null;
  section: string | null;
  text: string;
  /** Higher is better on both databases (SQLite's bm25 is negated). */
  score: number;
}

const COLUMNS = `c."id", c."documentId", c."collectionId", d."name" AS "documentName", d."title" AS "documentTitle",
  d."format", c."page", c."section", c."text"`;

/** `terms` are plain words (letters and digits only: the caller tokenises), at least one. */
export async function searchChunks({ collectionIds, terms, limit }: { collectionIds: string[]; terms: string[]; limit: number }): Promise<ChunkHit[]> {
  if (collectionIds.length === 0 || terms.length === 0) return [];
  if (databaseProvider(getEnv().DATABASE_URL) === "postgresql") return searchPostgres({ collectionIds, terms, limit });
  const inList = collectionIds.map(() => "?").join(", ");
  const rows = await db.$queryRawUnsafe<ChunkHit[]>(
    `SELECT ${COLUMNS}, -bm25("KnowledgeChunkFts") AS "score"
     FROM "KnowledgeChunkFts" JOIN "KnowledgeChunk" c ON c.rowid = "KnowledgeChunkFts".rowid
       JOIN "KnowledgeDocument" d ON d."id" = c."documentId"
     WHERE "KnowledgeChunkFts" MATCH ? AND c."collectionId" IN (${inList})
     ORDER BY bm25("KnowledgeChunkFts"), c."id" LIMIT ?`,
    terms.map((t) => `"${t}"`).join(" OR "),
    ...collectionIds,
    limit,
  );
  return rows.map((r) => ({ ...r, score: Number(r.score), page: r.page === null ? null : Number(r.page) }));
}

const RANK_ALL_BELOW = 1_000;

async function searchPostgres({ collectionIds, terms, limit }: { collectionIds: string[]; terms: string[]; limit: number }): Promise<ChunkHit[]> {
  const ids = collectionIds.map((_, i) => `$${i + 1}`).join(", ");
  const n = collectionIds.length;
  // One count per term, each an index scan; the last row is the number of chunks.
  const counts = await db.$queryRawUnsafe<Array<{ i: number; n: bigint | number }>>(
    [
      ...terms.map((_, t) => `SELECT ${t} AS "i", count(*) AS "n" FROM "KnowledgeChunk" WHERE "searchVector" @@ to_tsquery('english', $${n + t + 1}) AND "collectionId" IN (${ids})`),
      `SELECT ${terms.length} AS "i", count(*) AS "n" FROM "KnowledgeChunk" WHERE "collectionId" IN (${ids})`,
    ].join(" UNION ALL "),
    ...collectionIds,
    ...terms,
  );
  const count = new Map(counts.map((r) => [Number(r.i), Number(r.n)]));
  const total = count.get(terms.length) ?? 0;
  // BM25's idf: ln(1 + (N − df + 0.5) / (df + 0.5)).
  const df = terms.map((_, t) => count.get(t) ?? 0);
  // In a large collection a term in more than half the chunks adds almost nothing to BM25 (idf < ln 2)
  // but makes nearly every chunk a match to rank: it is left out, unless every term is that common.
  // (Below RANK_ALL_BELOW chunks, ranking every match costs little and keeps every match.)
  const informative = terms.map((_, t) => t).filter((t) => df[t] > 0 && (total < RANK_ALL_BELOW || df[t] <= total / 2));
  const used = informative.length > 0 ? informative : terms.map((_, t) => t);
  const chosen = used.map((t) => terms[t]);
  const weighted = used
    .map((t, k) => `ts_rank(c."searchVector", to_tsquery('english', $${n + k + 1}), 1) * ${Math.log(1 + (total - df[t] + 0.5) / (df[t] + 0.5)).toFixed(6)}`)
    .join(" + ");
  const rows = await db.$queryRawUnsafe<ChunkHit[]>(
    `SELECT ${COLUMNS}, (${weighted}) AS "score"
     FROM "KnowledgeChunk" c JOIN "KnowledgeDocument" d ON d."id" = c."documentId"
     WHERE c."searchVector" @@ to_tsquery('english', $${n + chosen.length + 1}) AND c."collectionId" IN (${ids})
     ORDER BY "score" DESC, c."id" LIMIT ${Math.max(1, Math.floor(limit))}`,
    ...collectionIds,
    ...chosen,
    chosen.join(" | "),
  );
  return rows.map((r) => ({ ...r, score: Number(r.score) }));
}
