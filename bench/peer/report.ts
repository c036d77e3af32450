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
  pages?: { distinctUrls: number };
  quality?: { plantedFacts: number; inItems: number; inReport: number };
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

/**
 * Both fixture webs side by side with the peer (issue 57): per web and size, Quarry's span, prompt tokens and
 * LLM calls against the peer's (the median span of its runs, its last run's counts), and the planted facts
 * that reached Quarry's items and report. Targets on the overlapping web: (5, 5) prompt tokens ≤ the peer's,
 * span ≤ the peer's at every size.
 */
export function formatWebsMarkdown(webs: { name: string; overlap: boolean; tree: QuarryTreeFigures[]; peer: PeerRow[] }[]): string {
  const shown = webs.filter((w) => w.tree.length > 0);
  if (shown.length === 0) return "";
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = [
    "## Both webs side by side with the lean peer",
    "",
    "The distinct web: the tree rows' fixture web (each query's results drawn from 26 short pages). The overlapping web",
    "(`test/fakes/web-overlap.ts`, `--overlap-pages`): 22 pages by default, three of them long reads, drawn by popularity so that",
    "a (5, 5)'s 110 queries share them, each read by many queries, as on the real web. Peer: median span of its runs, its last run's counts.",
    "Targets on the overlapping web: (5, 5) prompt tokens ≤ the peer's; span ≤ the peer's at every size.",
    "",
    "| web | depth × breadth | span Quarry / peer | Quarry ÷ peer | prompt tokens Quarry / peer | LLM calls Quarry / peer | distinct pages | planted facts in items / report |",
    "| --- | --- | --- | ---: | --- | --- | ---: | --- |",
  ];
  for (const web of shown) {
    for (const q of web.tree) {
      const row = web.peer.find((p) => p.depth === q.depth && p.breadth === q.breadth);
      const span = row ? median(row.runs.map((r) => r.wallMs)) : undefined;
      const last = row?.runs.at(-1);
      const spanMark = web.overlap && span !== undefined ? (q.wallMs <= span ? " ✓" : " ✗") : "";
      const tokenMark = web.overlap && last && q.depth === 5 && q.breadth === 5 ? (q.llm.promptTokens <= last.promptTokens ? " ✓" : " ✗") : "";
      lines.push(
        `| ${web.name} | ${q.depth} × ${q.breadth}${q.database && q.database !== "sqlite" ? ` (${q.database})` : ""} | ${s(q.wallMs)} / ${span !== undefined ? s(span) : "—"} | ${span !== undefined ? `${(q.wallMs / span).toFixed(2)}${spanMark}` : "—"} | ` +
          `${k(q.llm.promptTokens)} / ${last ? k(last.promptTokens) : "—"}${tokenMark} | ${q.llm.calls} / ${last ? last.llmCalls : "—"} | ${q.pages?.distinctUrls ?? "—"} | ` +
          `${q.quality ? `${pct(q.quality.inItems)} / ${pct(q.quality.inReport)} of ${q.quality.plantedFacts}` : "—"} |`,
      );
    }
  }
  lines.push("");
  return lines.join("\n");
}
