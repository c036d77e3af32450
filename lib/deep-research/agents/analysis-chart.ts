// A chart of the analysis agent as a Vega-Lite spec over one stored result: the model picks the
// result, the mark and the columns; the spec (and its data, the result's stored rows) is built here,
// so it is valid and shows only what a query returned. The result and the columns are resolved as
// choices ("Q2" is q2, "Region" the column region); a chart naming a missing result or axis column
// is dropped, a colour naming no column left out.
import { resolveChoice } from "../../ai/resolve";
import type { Cell } from "../../datasets/values";

export interface ChartChoice {
  queryId: string;
  mark: "bar" | "line" | "point";
  x: string;
  y: string;
  color: string | null;
  title: string;
}

export interface StoredChart {
  queryId: string;
  spec: Record<string, unknown>;
}

function fieldType(values: Cell[]): "quantitative" | "nominal" {
  const present = values.filter((v) => v !== null);
  return present.length > 0 && present.every((v) => typeof v === "number") ? "quantitative" : "nominal";
}

export function chartSpec(choice: ChartChoice, results: { id: string; columns: string[]; rows: Cell[][] }[]): StoredChart | null {
  // A chart over the only result there is is that result's, whatever its id was written as.
  const result = resolveChoice(choice.queryId, results.map((r) => ({ handle: r.id, value: r })))?.value;
  if (!result) return null;
  const columns = result.columns.map((c) => ({ handle: c, value: c }));
  const column = (name: string) => resolveChoice(name, columns, { only: false })?.value;
  const [x, y, color] = [column(choice.x), column(choice.y), choice.color ? column(choice.color) : undefined];
  // Without its x or y there is no chart; a colour that names no column is left out.
  if (!x || !y) return null;
  const values = result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])));
  const encode = (field: string) => ({ field, type: fieldType(values.map((v) => v[field] as Cell)) });
  return {
    queryId: result.id,
    spec: {
      $schema: "https://vega.github.io/schema/vega-lite/v5.json",
      title: choice.title,
      data: { values },
      mark: choice.mark,
      encoding: { x: encode(x), y: encode(y), ...(color ? { color: encode(color) } : {}) },
    },
  };
}
