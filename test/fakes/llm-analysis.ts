// What the fake LLM answers for the analysis agent (dr-analysis) and the dataset description
// (dr-dataset). The analysis scenario works on any dataset shown: it groups the first text column
// and sums the first numeric one, then reports each group's figures from the result rows in the
// prompt, with a bar chart over that result. Markers in the user's message add steps:
//   #analysis-hostile  the first query is a COPY to a file (refused; the agent goes on);
//   #analysis-invent   the first output cites a number no result holds (the engine sends it back);
//   #analysis-stubborn every output cites that number (the engine cuts the sentence);
//   #analysis-endless  one more query while any step is left (the engine's step limit ends it);
//   #analysis-huge-string  the first query builds a 600 MB string (past the sandbox's memory; the agent goes on).
import { tagContent, tagOf } from "./llm-parse";

interface Dataset {
  table: string;
  columns: { name: string; type: string }[];
}

function datasets(task: string): Dataset[] {
  // <tables>, not the world view's <datasets> section, which comes first in the prompt.
  const block = tagContent(task, "tables") ?? "";
  return [...block.matchAll(/<dataset((?:\s+[\w-]+="[^"]*")*)\s*>([\s\S]*?)<\s?\/dataset>/g)].map((m) => ({
    table: /table="([^"]*)"/.exec(m[1])?.[1] ?? "",
    columns: (/columns: (.*)/.exec(m[2])?.[1] ?? "").split(", ").map((c) => {
      const [name, type] = c.split(" ");
      return { name, type };
    }),
  }));
}

interface SeenQuery {
  id: string;
  ok: boolean;
  header: string[];
  rows: string[][];
}

function queries(task: string): SeenQuery[] {
  return [...task.matchAll(/<query id="(q\d+)" status="(ok|error)"[^>]*>([\s\S]*?)<\s?\/query>/g)].map((m) => {
    const lines = (tagContent(m[3], "result") ?? "").split("\n").filter((l) => l && !l.startsWith("…"));
    return { id: m[1], ok: m[2] === "ok", header: (lines[0] ?? "").split(" | "), rows: lines.slice(1).map((l) => l.split(" | ")) };
  });
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const NUMERIC = /INT|DOUBLE|DECIMAL|FLOAT|REAL|NUMERIC/;

export function analysisReply(task: string): unknown {
  const seen = queries(task);
  const [d] = datasets(task);
  const none = { chart: null };
  if (!d) return { thought: "No dataset is shown.", sql: null, output: "No dataset was available to analyse.", ...none };
  const category = d.columns.find((c) => !NUMERIC.test(c.type))?.name ?? d.columns[0].name;
  const measure = d.columns.find((c) => NUMERIC.test(c.type))?.name ?? d.columns[0].name;
  if (task.includes("#analysis-hostile") && seen.length === 0) {
    return { thought: "Export the table first.", sql: `COPY ${quote(d.table)} TO '/tmp/quarry-exfiltrated.csv'`, output: null, ...none };
  }
  if (task.includes("#analysis-huge-string") && seen.length === 0) {
    return { thought: "How long can a value be?", sql: "SELECT length(repeat('x', 600000000)) AS n", output: null, ...none };
  }
  // The second analysis of #analyses-2 ("Count the uploaded records per category"): records per
  // value of the second text column, and the largest measure of each, with a line chart.
  if (/records per category/.test(tagContent(task, "objective") ?? "")) return recordsPerCategory(d, seen);
  const good = seen.find((q) => q.ok);
  if (!good) {
    return { thought: `Total ${measure} per ${category}.`, sql: `SELECT ${quote(category)}, sum(${quote(measure)}) AS total, count(*) AS n FROM ${quote(d.table)} GROUP BY 1 ORDER BY 1`, output: null, ...none };
  }
  const left = Number(tagContent(task, "steps_left") ?? "0");
  if (task.includes("#analysis-endless") && left > 0) {
    return { thought: "One more look.", sql: `SELECT count(*) AS n, ${seen.length} AS step FROM ${quote(d.table)}`, output: null, ...none };
  }
  const problem = tagOf(task, "problem");
  const invent = task.includes("#analysis-stubborn") || (task.includes("#analysis-invent") && !problem);
  const lines = good.rows.map((r) => `- ${r[0]}: ${r[1]} ${measure} over ${r[2]} rows [${good.id}].`);
  if (invent) lines.push(`- Overall the data show 987654 ${measure} in total [${good.id}].`);
  return {
    thought: "The grouped totals answer the objective.",
    sql: null,
    output: `Total ${measure} by ${category}:\n${lines.join("\n")}`,
    chart: { queryId: good.id, mark: "bar", x: good.header[0], y: "total", color: null, title: `Total ${measure} by ${category}` },
  };
}

function recordsPerCategory(d: Dataset, seen: SeenQuery[]): unknown {
  const texts = d.columns.filter((c) => !NUMERIC.test(c.type)).map((c) => c.name);
  const category = texts[1] ?? texts[0] ?? d.columns[0].name;
  const measure = d.columns.find((c) => NUMERIC.test(c.type))?.name ?? d.columns[0].name;
  const good = seen.find((q) => q.ok);
  if (!good) {
    return { thought: `Records per ${category}.`, sql: `SELECT ${quote(category)}, count(*) AS records, max(${quote(measure)}) AS largest FROM ${quote(d.table)} GROUP BY 1 ORDER BY 1`, output: null, chart: null };
  }
  const lines = good.rows.map((r) => `- ${r[0]}: ${r[1]} records [${good.id}].`);
  return {
    thought: "The counts answer the objective.",
    sql: null,
    output: `Records per ${category}:\n${lines.join("\n")}`,
    chart: { queryId: good.id, mark: "line", x: good.header[0], y: "records", color: null, title: `Records per ${category}` },
  };
}

export function datasetDescriptionReply(task: string): unknown {
  const d = tagOf(task, "dataset");
  const columns = (tagContent(task, "columns") ?? "").split("\n").map((l) => l.split(" ")[0]).filter(Boolean);
  return { description: `Table ${d?.attrs.table ?? "?"} from ${d?.attrs.file ?? "?"}: one row per record, with ${columns.join(", ")}.` };
}
