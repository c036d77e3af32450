// A chart of the analysis agent as a Vega-Lite spec over one stored result: the model picks the
// result, the mark and the columns; the spec (and its data, the result's stored rows) is built here,
// so it is valid and shows only what a query returned. A choice naming a missing result or column is dropped.
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
  const result = results.find((r) => r.id === choice.queryId);
  if (!result) return null;
  const fields = [choice.x, choice.y, ...(choice.color ? [choice.color] : [])];
  if (!fields.every((f) => result.columns.includes(f))) return null;
  const values = result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])));
  const encode = (field: string) => ({ field, type: fieldType(values.map((v) => v[field] as Cell)) });
  return {
    queryId: result.id,
    spec: {
      $schema: "https://vega.github.io/schema/vega-lite/v5.json",
      title: choice.title,
      data: { values },
      mark: choice.mark,
      encoding: { x: encode(choice.x), y: encode(choice.y), ...(choice.color ? { color: encode(choice.color) } : {}) },
    },
  };
}
