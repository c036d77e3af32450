// The side-by-side table: each tree size's Quarry rows against the lean peer's runs in the same fakes.
import { median } from "../extraction-measure";
import { peerBoundMs, type PeerResult } from "./tree-peer";

export interface PeerRow {
  depth: number;
  breadth: number;
  concurrency: number;
  boundMs: number;
  /** Each run of the peer at this size, in order. */
  runs: PeerResult[];
}

/** The tree row's figures the table needs. */
export interface QuarryTreeFigures {
  depth: number;
  breadth: number;
  database?: string;
  wallMs: number;
  ratio: number;
  llm: { calls: number; promptTokens: number; completionTokens: number };
}

export function peerRow(depth: number, breadth: number, concurrency: number, latencies: { llmMs: number; searchMs: number; webMs: number }, runs: PeerResult[]): PeerRow {
  return { depth, breadth, concurrency, boundMs: peerBoundMs(depth, latencies), runs };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const k = (n: number) => `${Math.round(n / 1000)}k`;

export function formatPeerMarkdown(rows: PeerRow[], tree: QuarryTreeFigures[]): string {
  if (rows.length === 0) return "";
  const lines = [
    "## Side by side with the lean peer (dzhng/deep-research's design)",
    "",
    "The peer (`bench/peer/tree-peer.ts`) runs the same tree sizes against the same fakes right after Quarry's rows: per level a",
    "planning call, then per query a search, its first 5 pages read whole and one learning call; a report call at the end; no",
    "database, events, shared limits, per-page analysis or per-claim citations. Its bound is its critical path (per level",
    "2 LLM calls, a search and a page, then the report). Span: the median of its runs. Issue 25's target: Quarry's (5, 5) span with",
    "default settings ≤ the peer's at concurrency 16.",
    "",
    "| depth × breadth | who | runs | span | ÷ its bound | LLM calls | prompt / completion tokens | Quarry ÷ peer span |",
    "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: |",
  ];
  for (const row of rows) {
    const spans = row.runs.map((r) => r.wallMs);
    const span = median(spans);
    const last = row.runs.at(-1)!;
    for (const q of tree.filter((t) => t.depth === row.depth && t.breadth === row.breadth)) {
      lines.push(`| ${row.depth} × ${row.breadth} | Quarry (${q.database ?? "sqlite"}) | 1 | ${s(q.wallMs)} | ${q.ratio.toFixed(3)} | ${q.llm.calls} | ${k(q.llm.promptTokens)} / ${k(q.llm.completionTokens)} | **${(q.wallMs / span).toFixed(2)}**${row.depth === 5 && row.breadth === 5 ? (q.wallMs <= span ? " ✓" : " ✗") : ""} |`);
    }
    lines.push(
      `| ${row.depth} × ${row.breadth} | peer, concurrency ${row.concurrency} | ${row.runs.length} | ${s(span)} (${spans.map((x) => (x / 1000).toFixed(2)).join(", ")}) | ${(span / row.boundMs).toFixed(3)} | ${last.llmCalls} | ${k(last.promptTokens)} / ${k(last.completionTokens)} | |`,
    );
  }
  const failed = rows.flatMap((r) => r.runs).reduce((n, r) => n + r.failedQueries, 0);
  lines.push("", `Peer runs' queries that failed (dropped, as the peer does): ${failed}.`, "");
  return lines.join("\n");
}
