// The browser's copy of a research, built from the stream: one snapshot, then live parts newer
// than it. `query` and `website` parts carry whole rows, so applying one is an upsert by id.
import type { ResearchDataParts, ResearchView } from "@/lib/types";

export interface LiveResearch {
  research: ResearchView;
  /** The sequence number of the snapshot this state was built from. */
  snapshotSeq: number;
  /** The report as it is being written (deltas appended), until the final report arrives. */
  reportDraft: string | null;
}

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
    return { research: chunk.data.research, snapshotSeq: chunk.data.seq, reportDraft: chunk.data.report_draft };
  }
  // Live parts before a snapshot, or already contained in it, are ignored.
  if (!state || chunk.data.seq <= state.snapshotSeq) return state;
  const r = state.research;
  switch (chunk.type) {
    case "data-query": {
      const row = stripMeta(chunk.data);
      return { ...state, research: { ...r, serp_queries: upsert(r.serp_queries, row, (q) => q.query_id === row.query_id) } };
    }
    case "data-website": {
      const row = stripMeta(chunk.data);
      return {
        ...state,
        research: { ...r, successful_scraped_websites: upsert(r.successful_scraped_websites, row, (w) => w.id === row.id) },
      };
    }
    case "data-report-delta":
      return { ...state, reportDraft: (state.reportDraft ?? "") + chunk.data.delta };
    case "data-report":
      return { ...state, reportDraft: null, research: { ...r, report: chunk.data.markdown } };
    case "data-run": {
      const { status, error, tokens, paused, warnings, started_at, completed_at } = chunk.data;
      return { ...state, research: { ...r, status, error, tokens, paused, warnings, started_at, completed_at } };
    }
    default:
      return state;
  }
}

export function isTerminal(status: ResearchView["status"]): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}
