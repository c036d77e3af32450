// Ranked full-text search over the knowledge chunks, on the index the migrations create by hand.
// Terms are OR-ed, and both databases rank BM25-like: a chunk holding more of the terms, and rarer
// ones, ranks first. Every statistic of the ranking is counted over the collections searched only:
// the index holds every user's chunks, and a ranking that counted them all (FTS5's bm25() does) let
// one user's private uploads move another's scores — a probe of what they contain.
// SQLite: the index finds the chunks (FTS5 MATCH, its porter tokenizer) and gives each term's
// frequency in each (its highlight() marks every occurrence) and each chunk's length in tokens (its
// docsize table); the collections' chunk count, mean length and each term's document frequency are
// counted over their chunks; BM25 is computed here. PostgreSQL has no BM25: each term's ts_rank
// (frequency, normalised by length) is weighted by the term's inverse document frequency in the
// collections, counted over the chunks the GIN index finds; ts_rank alone lets a common word repeated
// often outrank a rare one. On both, a term in most chunks of a large collection is left out (see
// searchPostgres).
import { BoundedMap } from "../bounded-map";
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
  /** Higher is better on both databases. */
  score: number;
}

const COLUMNS = `c."id", c."documentId", c."collectionId", d."name" AS "documentName", d."title" AS "documentTitle",
  d."format", c."page", c."section", c."text"`;

/** `terms` are plain words (letters and digits only: the caller tokenises), at least one. */
export async function searchChunks({ collectionIds, terms, limit }: { collectionIds: string[]; terms: string[]; limit: number }): Promise<ChunkHit[]> {
  if (collectionIds.length === 0 || terms.length === 0) return [];
  if (databaseProvider(getEnv().DATABASE_URL) === "postgresql") return searchPostgres({ collectionIds, terms, limit });
  return searchSqlite({ collectionIds, terms, limit });
}

/** BM25's usual constants (FTS5's bm25() uses the same). */
const K1 = 1.2;
const B = 0.75;

/** BM25's idf, as on PostgreSQL: never negative, so a term in most chunks still adds a little. */
const idfOf = (total: number, df: number) => Math.log(1 + (total - df + 0.5) / (df + 0.5));

/**
 * Which terms rank (as on PostgreSQL, see searchPostgres): in a collection of RANK_ALL_BELOW chunks
 * or more, a term in more than half of them is left out; when every term is that common, the chunks
 * holding them all are ranked, at most RANK_AT_MOST_WHEN_ALL_COMMON of them.
 */
function usedTerms(total: number, df: number[]): { used: number[]; allCommon: boolean } | null {
  const present = df.map((_, t) => t).filter((t) => df[t] > 0);
  if (present.length === 0) return null;
  const informative = present.filter((t) => total < RANK_ALL_BELOW || df[t] <= total / 2);
  return informative.length > 0 ? { used: informative, allCommon: false } : { used: present, allCommon: true };
}

/** One byte of FTS5's docsize blob `s."sz"`, 1-based (SQLite has no byte access but through hex()). */
const byte = (i: number) =>
  `((instr('0123456789ABCDEF', substr(hex(s."sz"), ${2 * i - 1}, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(hex(s."sz"), ${2 * i}, 1)) - 1)`;
/**
 * A chunk's length in tokens: FTS5's docsize row holds it as a varint (the table has one column),
 * big-endian 7 bits a byte, the high bit set on every byte but the last; a chunk is far below the
 * 2,097,152 tokens three bytes hold.
 */
const TOKENS = `CASE length(s."sz") WHEN 1 THEN ${byte(1)} WHEN 2 THEN (${byte(1)} - 128) * 128 + ${byte(2)}
  ELSE ((${byte(1)} - 128) * 16384 + (${byte(2)} - 128) * 128 + ${byte(3)}) END`;

/**
 * The collections' chunks' tokens, summed (their mean length is BM25's yardstick). Reading every
 * chunk's length costs ~1 ms per thousand chunks, so the sum is kept while the collections stay as
 * they were: the same chunks (their count and last row) and documents (their count and last change:
 * an upload, a re-index or a delete moves one of them, even where SQLite reuses a deleted row's id).
 */
const tokenSums = new BoundedMap<string, number>(1_000);

async function collectionTokens(collectionIds: string[], version: string): Promise<number> {
  const key = `${[...collectionIds].sort().join(",")}|${version}`;
  const known = tokenSums.get(key);
  if (known !== undefined) return known;
  const [row] = await db.$queryRawUnsafe<{ tokens: bigint | number | null }[]>(
    `SELECT sum(${TOKENS}) AS "tokens" FROM "KnowledgeChunk" c JOIN "KnowledgeChunkFts_docsize" s ON s."id" = c.rowid
     WHERE c."collectionId" IN (${collectionIds.map(() => "?").join(", ")})`,
    ...collectionIds,
  );
  const tokens = Number(row?.tokens ?? 0);
  tokenSums.getOrAdd(key, () => tokens);
  return tokens;
}

async function searchSqlite({ collectionIds, terms, limit }: { collectionIds: string[]; terms: string[]; limit: number }): Promise<ChunkHit[]> {
  const inList = collectionIds.map(() => "?").join(", ");
  const match = (t: string) => `"${t}"`;
  // The collections' chunks (and what tells whether they changed), and each term's document frequency in them.
  const [stats] = await db.$queryRawUnsafe<Record<string, bigint | number | string | null>[]>(
    `SELECT (SELECT count(*) || ':' || coalesce(max(rowid), 0) FROM "KnowledgeChunk" WHERE "collectionId" IN (${inList})) AS "chunks",
       (SELECT count(*) || ':' || coalesce(max("updatedAt"), '') FROM "KnowledgeDocument" WHERE "collectionId" IN (${inList})) AS "documents",
       ${terms.map((_, t) => `(SELECT count(*) FROM "KnowledgeChunkFts" JOIN "KnowledgeChunk" c ON c.rowid = "KnowledgeChunkFts".rowid WHERE "KnowledgeChunkFts" MATCH ? AND c."collectionId" IN (${inList})) AS "d${t}"`).join(",\n       ")}`,
    ...collectionIds,
    ...collectionIds,
    ...terms.flatMap((t) => [match(t), ...collectionIds]),
  );
  const total = Number(String(stats?.chunks ?? "0").split(":")[0]);
  const df = terms.map((_, t) => Number(stats?.[`d${t}`] ?? 0));
  const chosen = usedTerms(total, df);
  if (!chosen || total === 0) return [];
  const { used, allCommon } = chosen;
  const avgdl = (await collectionTokens(collectionIds, `${stats?.chunks}|${stats?.documents}`)) / total || 1;
  // Each used term's frequency in each chunk of the collections holding it (when every term is
  // common: in the first chunks holding them all), and the chunk's length. highlight() marks each
  // occurrence with \x01, counted by what replace() takes away; the CTE evaluates it once a row.
  const candidates = allCommon
    ? `"cand" AS (SELECT c.rowid AS "r" FROM "KnowledgeChunkFts" JOIN "KnowledgeChunk" c ON c.rowid = "KnowledgeChunkFts".rowid
         WHERE "KnowledgeChunkFts" MATCH ? AND c."collectionId" IN (${inList}) LIMIT ${RANK_AT_MOST_WHEN_ALL_COMMON}), `
    : "";
  const arms = used.map(
    (t, i) => `SELECT ${i} AS "t", c."id" AS "id", ${TOKENS} AS "len", highlight("KnowledgeChunkFts", 0, char(1), '') AS "h"
       FROM "KnowledgeChunkFts" JOIN "KnowledgeChunk" c ON c.rowid = "KnowledgeChunkFts".rowid JOIN "KnowledgeChunkFts_docsize" s ON s."id" = c.rowid
       WHERE "KnowledgeChunkFts" MATCH ? AND c."collectionId" IN (${inList})${allCommon ? ` AND c.rowid IN (SELECT "r" FROM "cand")` : ""}`,
  );
  const rows = await db.$queryRawUnsafe<{ t: bigint | number; id: string; len: bigint | number; tf: bigint | number }[]>(
    `WITH ${candidates}"m" AS MATERIALIZED (${arms.join("\n     UNION ALL ")})
     SELECT "t", "id", "len", length("h") - length(replace("h", char(1), '')) AS "tf" FROM "m"`,
    ...(allCommon ? [used.map((t) => match(terms[t])).join(" AND "), ...collectionIds] : []),
    ...used.flatMap((t) => [match(terms[t]), ...collectionIds]),
  );
  const scores = new Map<string, number>();
  for (const r of rows) {
    const tf = Number(r.tf);
    if (tf <= 0) continue;
    const t = used[Number(r.t)];
    const norm = K1 * (1 - B + (B * Number(r.len)) / avgdl);
    scores.set(r.id, (scores.get(r.id) ?? 0) + (idfOf(total, df[t]) * tf * (K1 + 1)) / (tf + norm));
  }
  const top = [...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, Math.max(1, Math.floor(limit)));
  if (top.length === 0) return [];
  const found = await db.$queryRawUnsafe<Omit<ChunkHit, "score">[]>(
    `SELECT ${COLUMNS} FROM "KnowledgeChunk" c JOIN "KnowledgeDocument" d ON d."id" = c."documentId" WHERE c."id" IN (${top.map(() => "?").join(", ")})`,
    ...top.map(([id]) => id),
  );
  const byId = new Map(found.map((r) => [r.id, r]));
  return top.flatMap(([id, score]) => {
    const r = byId.get(id);
    return r ? [{ ...r, page: r.page === null ? null : Number(r.page), score }] : [];
  });
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
