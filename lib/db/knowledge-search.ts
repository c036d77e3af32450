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

/**
 * One statement (it was a count query per term, then the ranking): the chunks matching any term are
 * found once on the GIN index, each term's document frequency is counted over them (a chunk holding
 * the term matches the OR of the terms, so the count over the matches is the count over the
 * collections), and only the chunks holding an informative term are ranked. Both CTEs are
 * MATERIALIZED: inlined, the one-row `f` became the inner side of a nested loop over the matches and
 * was re-aggregated for each of them (its count subquery copied into every reference), which made a
 * search of common words on the 1,000-document bench collection run for minutes (EXPLAIN, 2026-11-25).
 * The best `limit` are picked before the join that fetches their columns (it was done for every match).
 */
async function searchPostgres({ collectionIds, terms, limit }: { collectionIds: string[]; terms: string[]; limit: number }): Promise<ChunkHit[]> {
  const ids = collectionIds.map((_, i) => `$${i + 1}`).join(", ");
  const n = collectionIds.length;
  const q = (t: number) => `to_tsquery('english', $${n + t + 1})`;
  const all = `to_tsquery('english', $${n + terms.length + 1})`;
  const T = terms.map((_, t) => t);
  // BM25's idf: ln(1 + (N − df + 0.5) / (df + 0.5)). In a large collection a term in more than half the
  // chunks adds almost nothing (idf < ln 2) but makes nearly every chunk a match to rank: it is left
  // out, unless every term is that common. (Below RANK_ALL_BELOW chunks, every match is ranked.)
  const informative = (t: number) => `(f."d${t}" > 0 AND (f."total" < ${RANK_ALL_BELOW} OR f."d${t}" <= f."total" / 2.0))`;
  const used = (t: number) => `(${informative(t)} OR NOT (${T.map(informative).join(" OR ")}))`;
  const rows = await db.$queryRawUnsafe<ChunkHit[]>(
    `WITH m AS MATERIALIZED (
       SELECT c."id", c."searchVector" AS "v" FROM "KnowledgeChunk" c
       WHERE c."searchVector" @@ ${all} AND c."collectionId" IN (${ids})
     ), f AS MATERIALIZED (
       SELECT ${T.map((t) => `count(*) FILTER (WHERE m."v" @@ ${q(t)}) AS "d${t}"`).join(", ")},
         (SELECT count(*) FROM "KnowledgeChunk" WHERE "collectionId" IN (${ids})) AS "total"
       FROM m
     ), s AS (
       SELECT m."id", (${T.map((t) => `CASE WHEN ${used(t)} AND m."v" @@ ${q(t)} THEN ts_rank(m."v", ${q(t)}, 1)::float8 * ln(1 + (f."total" - f."d${t}" + 0.5) / (f."d${t}" + 0.5))::float8 ELSE 0 END`).join(" + ")}) AS "score"
       FROM m, f
       WHERE ${T.map((t) => `(${used(t)} AND m."v" @@ ${q(t)})`).join(" OR ")}
     ), top AS MATERIALIZED (
       SELECT s."id", s."score" FROM s ORDER BY s."score" DESC, s."id" LIMIT ${Math.max(1, Math.floor(limit))}
     )
     SELECT ${COLUMNS}, top."score" FROM top JOIN "KnowledgeChunk" c ON c."id" = top."id" JOIN "KnowledgeDocument" d ON d."id" = c."documentId"
     ORDER BY top."score" DESC, c."id"`,
    ...collectionIds,
    ...terms,
    terms.join(" | "),
  );
  return rows.map((r) => ({ ...r, score: Number(r.score) }));
}
