// Ranked full-text search over the knowledge chunks, on the index the migrations create by hand.
// Terms are OR-ed, and both databases rank BM25-like: a chunk holding more of the terms, and rarer
// ones, ranks first. SQLite: FTS5's bm25(). PostgreSQL has no BM25: each term's ts_rank (frequency,
// normalised by length) is weighted by the term's inverse document frequency in the collections,
// counted over the chunks the GIN index finds; ts_rank alone lets a common word repeated often outrank a rare one.
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
/** A query whose every term is in most chunks ranks at most this many of the chunks holding them all. */
const RANK_AT_MOST_WHEN_ALL_COMMON = 1_000;

/**
 * Two statements. First each term's document frequency in the collections, counted on the GIN index
 * (no chunk's tsvector is read). Then only the chunks holding an informative term are read and
 * ranked, each term's ts_rank (frequency, normalised by length) weighted by its idf. BM25's idf:
 * ln(1 + (N − df + 0.5) / (df + 0.5)); in a large collection a term in more than half the chunks
 * adds almost nothing (idf < ln 2) but would make nearly every chunk a match to rank: it is left out.
 * When every term is that common, the chunks holding them all are ranked, at most
 * RANK_AT_MOST_WHEN_ALL_COMMON of them, so that such a query's work is bounded. (Below RANK_ALL_BELOW
 * chunks, every match is ranked.) The matches' tsvectors are read once (`|| ''` detoasts them into
 * the materialised CTE: referenced as stored, each @@ and ts_rank fetched them from TOAST again).
 */
async function searchPostgres({ collectionIds, terms, limit }: { collectionIds: string[]; terms: string[]; limit: number }): Promise<ChunkHit[]> {
  const ids = collectionIds.map((_, i) => `$${i + 1}`).join(", ");
  const n = collectionIds.length;
  const q = (t: number) => `to_tsquery('english', $${n + t + 1})`;
  const counts = await db.$queryRawUnsafe<Record<string, bigint | number>[]>(
    `SELECT (SELECT count(*) FROM "KnowledgeChunk" WHERE "collectionId" IN (${ids})) AS "total",
       ${terms.map((_, t) => `(SELECT count(*) FROM "KnowledgeChunk" c WHERE c."searchVector" @@ ${q(t)} AND c."collectionId" IN (${ids})) AS "d${t}"`).join(", ")}`,
    ...collectionIds,
    ...terms,
  );
  const total = Number(counts[0]?.total ?? 0);
  const df = terms.map((_, t) => Number(counts[0]?.[`d${t}`] ?? 0));
  const present = terms.map((_, t) => t).filter((t) => df[t] > 0);
  if (present.length === 0) return [];
  const informative = present.filter((t) => total < RANK_ALL_BELOW || df[t] <= total / 2);
  const allCommon = informative.length === 0;
  const used = allCommon ? present : informative;
  const idf = (t: number) => Math.log(1 + (total - df[t] + 0.5) / (df[t] + 0.5));
  // Parameters: the collections, then each used term, then their idfs.
  const u = (i: number) => `to_tsquery('english', $${n + i + 1})`;
  const w = (i: number) => `$${n + used.length + i + 1}::float8`;
  const matchAny = `to_tsquery('english', $${n + 2 * used.length + 1})`;
  const rows = await db.$queryRawUnsafe<ChunkHit[]>(
    `WITH m AS MATERIALIZED (
       SELECT c."id", c."searchVector" || ''::tsvector AS "v" FROM "KnowledgeChunk" c
       WHERE c."searchVector" @@ ${matchAny} AND c."collectionId" IN (${ids})
       ${allCommon ? `LIMIT ${RANK_AT_MOST_WHEN_ALL_COMMON}` : ""}
     ), top AS MATERIALIZED (
       SELECT m."id", (${used.map((_, i) => `CASE WHEN m."v" @@ ${u(i)} THEN ts_rank(m."v", ${u(i)}, 1)::float8 * ${w(i)} ELSE 0 END`).join(" + ")}) AS "score"
       FROM m ORDER BY 2 DESC, m."id" LIMIT ${Math.max(1, Math.floor(limit))}
     )
     SELECT ${COLUMNS}, top."score" FROM top JOIN "KnowledgeChunk" c ON c."id" = top."id" JOIN "KnowledgeDocument" d ON d."id" = c."documentId"
     ORDER BY top."score" DESC, c."id"`,
    ...collectionIds,
    ...used.map((t) => terms[t]),
    ...used.map(idf),
    // All-common: the chunks holding every term; else those holding any informative one.
    used.map((t) => terms[t]).join(allCommon ? " & " : " | "),
  );
  return rows.map((r) => ({ ...r, score: Number(r.score) }));
}
