// The browser's copy of a research, built from the stream: one snapshot, then live parts newer
// than it. `query` and `website` parts carry whole rows, so applying one is an upsert by id; each
// row remembers the number of the part it was last set from, and a part older than that (one that
// came late, after a newer state of its row) is dropped rather than put back an older state.
import type { LiveResearchView, ResearchDataParts, ResearchView } from "@/lib/types";

export interface LiveResearch {
  research: LiveResearchView;
  /** The sequence number of the snapshot this state was built from. */
  snapshotSeq: number;
  /** The report as it is being written (deltas appended), until the final report arrives. */
  reportDraft: string | null;
  /** Why the draft started over, when it is written again for a fault of the first (it cited nothing, another language). */
  reportDraftNote?: string | null;
  /** The number of the part each row was last set from: `q:<id>`, `w:<id>`, `run`, `report`. */
  rowSeq: Readonly<Record<string, number>>;
}

/** Whether a part numbered `seq` is newer than what its row holds (then the row takes it). */
const newer = (state: LiveResearch, key: string, seq: number) => seq > (state.rowSeq[key] ?? state.snapshotSeq);

export type ResearchDataChunk = {
  [K in keyof ResearchDataParts & string]: { type: `data-${K}`; id?: string; data: ResearchDataParts[K]; transient?: boolean };
}[keyof ResearchDataParts & string];

function stripMeta<T extends { seq: number; at: number }>(row: T): Omit<T, "seq" | "at"> {
  const { seq: _seq, at: _at, ...rest } = row;
  return rest;
}

function upsert<T>(rows: T[], row: T, same: (a: T) => boolean): T[] {
  const i = rows.findIndex(same);
  if (i === -1) return [...rows, row];
  const next = rows.slice();
  next[i] = row;
  return next;
}

export function applyChunk(state: LiveResearch | null, chunk: ResearchDataChunk): LiveResearch | null {
  if (chunk.type === "data-snapshot") {
    return { research: chunk.data.research, snapshotSeq: chunk.data.seq, reportDraft: chunk.data.report_draft, rowSeq: {} };
  }
  // Live parts before a snapshot, or already contained in it, are ignored.
  if (!state || chunk.data.seq <= state.snapshotSeq) return state;
  const r = state.research;
  const seq = chunk.data.seq;
  const key = rowKey(chunk);
  if (key && !newer(state, key, seq)) return state;
  const rowSeq = key ? { ...state.rowSeq, [key]: seq } : state.rowSeq;
  switch (chunk.type) {
    case "data-query": {
      const row = stripMeta(chunk.data);
      return { ...state, rowSeq, research: { ...r, serp_queries: upsert(r.serp_queries, row, (q) => q.query_id === row.query_id) } };
    }
    case "data-website": {
      const row = stripMeta(chunk.data);
      return {
        ...state,
        rowSeq,
        research: { ...r, successful_scraped_websites: upsert(r.successful_scraped_websites, row, (w) => w.id === row.id) },
      };
    }
    case "data-report-delta":
      // A delta older than the final report would start a draft again.
      if (!newer(state, "report", seq)) return state;
      return chunk.data.restart
        ? { ...state, reportDraft: chunk.data.delta, reportDraftNote: chunk.data.note ?? null }
        : { ...state, reportDraft: (state.reportDraft ?? "") + chunk.data.delta };
    case "data-report":
      return { ...state, rowSeq, reportDraft: null, reportDraftNote: null, research: { ...r, report: chunk.data.markdown } };
    case "data-run": {
      const { status, error, tokens, paused, warnings, started_at, completed_at } = chunk.data;
      return { ...state, rowSeq, research: { ...r, status, error, tokens, paused, warnings, started_at, completed_at } };
    }
    default:
      return state;
  }
}

/** The row a part sets (a whole row, or the run's status; the report), whose newest number it is kept under. */
function rowKey(chunk: Exclude<ResearchDataChunk, { type: "data-snapshot" }>): string | undefined {
  switch (chunk.type) {
    case "data-query":
      return `q:${chunk.data.query_id}`;
    case "data-website":
      return `w:${chunk.data.id}`;
    case "data-run":
      return "run";
    case "data-report":
      return "report";
    default:
      return undefined;
  }
}

type QueryRow = LiveResearchView["serp_queries"][number];
type WebsiteRow = LiveResearchView["successful_scraped_websites"][number];

/** Rows replaced in place (by id) or appended, copying the array once for a whole batch. */
function upsertAll<T>(rows: T[], updates: Map<string, T>, idOf: (row: T) => string): T[] {
  if (updates.size === 0) return rows;
  const next = rows.slice();
  const index = new Map<string, number>();
  next.forEach((row, i) => index.set(idOf(row), i));
  for (const [id, row] of updates) {
    const i = index.get(id);
    if (i === undefined) {
      index.set(id, next.length);
      next.push(row);
    } else next[i] = row;
  }
  return next;
}

/**
 * A batch of chunks at once, with the same result as applying them one by one: the query and
 * website rows of the batch are merged by id and the lists copied once, rather than once per part
 * (a 110-query research sends thousands of parts; copying 800 rows for each was quadratic).
 */
export function applyChunks(state: LiveResearch | null, chunks: ResearchDataChunk[]): LiveResearch | null {
  let s = state;
  const queries = new Map<string, QueryRow>();
  const websites = new Map<string, WebsiteRow>();
  /** The numbers of the rows waiting in the maps. */
  const seqs = new Map<string, number>();
  const flushRows = () => {
    if (!s || (queries.size === 0 && websites.size === 0)) return;
    const r = s.research;
    s = {
      ...s,
      rowSeq: { ...s.rowSeq, ...Object.fromEntries(seqs) },
      research: {
        ...r,
        serp_queries: upsertAll(r.serp_queries, queries, (q) => q.query_id),
        successful_scraped_websites: upsertAll(r.successful_scraped_websites, websites, (w) => w.id),
      },
    };
    queries.clear();
    websites.clear();
    seqs.clear();
  };
  for (const chunk of chunks) {
    if (chunk.type === "data-query" || chunk.type === "data-website") {
      if (!s || chunk.data.seq <= s.snapshotSeq) continue;
      const key = rowKey(chunk)!;
      const seq = chunk.data.seq;
      if (seq <= (seqs.get(key) ?? -Infinity) || !newer(s, key, seq)) continue;
      seqs.set(key, seq);
      if (chunk.type === "data-query") {
        const row = stripMeta(chunk.data);
        queries.set(row.query_id, row);
      } else {
        const row = stripMeta(chunk.data);
        websites.set(row.id, row);
      }
      continue;
    }
    // A new snapshot holds everything before it; other parts touch other fields than the rows.
    if (chunk.type === "data-snapshot") {
      queries.clear();
      websites.clear();
      seqs.clear();
    }
    s = applyChunk(s, chunk);
  }
  flushRows();
  return s;
}

export function isTerminal(status: ResearchView["status"]): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}
