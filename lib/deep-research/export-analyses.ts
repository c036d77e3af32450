// A conversation's analyses as part of its export (the owner's: a share link shows no dataset's rows,
// lib/deep-research/shared-view.ts): for each analysis task its objective, datasets and output, every
// query that ran with its SQL, the first rows of its result and how many in all, under an anchor
// (`<a id="query-ana-1-1-q1">`) that the output's [q1] and the discoveries' evidence link to, and its
// chart as a Vega-Lite block that every format draws as a figure (lib/exports: chart-layout.ts).
import type { Cell } from "../datasets/values";
import { linkQueryCitations, queryAnchor } from "../exports/query-links";
import { analysisArtifacts } from "./analysis-evidence";

/** Result rows shown per query: the viewer has them all. */
export const ROWS_SHOWN = 10;
const CELL_MAX = 80;

export interface AnalysisTask {
  id: string;
  type: string;
  objective: string;
  status: string;
  output: string | null;
  /** The task's stored artifacts, as the snapshot parsed them. */
  artifacts: unknown;
}

const cell = (c: Cell | undefined) => {
  const text = c === null || c === undefined ? "NULL" : typeof c === "number" ? c.toLocaleString("en", { maximumFractionDigits: 6 }) : String(c);
  const one = text.replace(/\s+/g, " ").trim();
  // A pipe would end the Markdown cell; a backslash before it would escape the escape.
  return (one.length > CELL_MAX ? `${one.slice(0, CELL_MAX)}…` : one).replace(/\\/g, "\\\\").replace(/\|/g, "\\|") || " ";
};
const fence = (text: string) => "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));


/** How a dataset was read, as the datasets panel says it ("semicolon-separated, Latin-1 (Windows-1252) text"). */
export type ReadAs = ReadonlyMap<string, string | null | undefined>;

/**
 * The analyses that ran (a skipped one has no queries; the paper's limitations name it) as Markdown
 * sections, "" when none ran. Without `data` (a share link's export) only their objectives and
 * outputs, as the shared page shows them, and a line saying what is left out.
 */
export function analysesMarkdown(tasks: AnalysisTask[], { data = true, readAs = new Map() }: { data?: boolean; readAs?: ReadAs } = {}): string {
  const parts: string[] = [];
  for (const t of tasks) {
    if (t.type !== "ANALYSIS") continue;
    const a = analysisArtifacts(typeof t.artifacts === "string" ? t.artifacts : JSON.stringify(t.artifacts ?? null));
    if (!a) continue;
    const read = (filename: string) => (readAs.get(filename) ? `, read as ${readAs.get(filename)}` : "");
    const lines = [`### ${t.objective.replace(/\s+/g, " ").trim()}`, "", `Task ${t.id} · status: ${t.status}.${data && a.datasets.length ? ` Datasets: ${a.datasets.map((d) => `${d.filename} (table ${d.table}${read(d.filename)})`).join(", ")}.` : ""}`];
    const ran = new Set(a.queries.filter((q) => q.ok).map((q) => q.id));
    if (t.output?.trim()) lines.push("", data ? linkQueryCitations(t.output.trim(), ran, (q) => `#${queryAnchor(t.id, q)}`) : t.output.trim());
    if (!data) {
      lines.push("", `_${a.queries.length} quer${a.queries.length === 1 ? "y" : "ies"} ran; their SQL and result rows come from the owner's datasets and are not part of a shared export._`);
      parts.push(lines.join("\n"));
      continue;
    }
    for (const q of a.queries) {
      lines.push("", `<a id="${queryAnchor(t.id, q.id)}"></a>**Query ${q.id}**${q.ok ? ` (${q.rowCount.toLocaleString("en")} row${q.rowCount === 1 ? "" : "s"}${q.truncated ? ", truncated" : ""})` : " (failed)"}`, "", `${fence(q.sql)}sql`, q.sql.trim(), fence(q.sql));
      if (!q.ok) {
        if (q.error) lines.push("", `Error: ${q.error.replace(/\s+/g, " ").trim()}`);
        continue;
      }
      if (q.columns.length) {
        lines.push("", `| ${q.columns.map((c) => cell(c)).join(" | ")} |`, `|${q.columns.map(() => "---").join("|")}|`, ...q.rows.slice(0, ROWS_SHOWN).map((r) => `| ${q.columns.map((_, i) => cell(r[i])).join(" | ")} |`));
        const shown = Math.min(q.rows.length, ROWS_SHOWN);
        lines.push("", q.rowCount > shown ? `_The first ${shown} of ${q.rowCount.toLocaleString("en")} rows._` : `_All ${q.rowCount.toLocaleString("en")} row${q.rowCount === 1 ? "" : "s"}._`);
      }
      if (a.chart?.queryId === q.id) {
        // Without its $schema: a URL in the write-up would be numbered as a cited source.
        const { $schema: _schema, ...chart } = a.chart.spec as Record<string, unknown>;
        const spec = JSON.stringify(chart, null, 1);
        lines.push("", `${fence(spec)}vega-lite`, spec, fence(spec));
      }
    }
    parts.push(lines.join("\n"));
  }
  return parts.length ? ["## Analyses", ...parts].join("\n\n") : "";
}
