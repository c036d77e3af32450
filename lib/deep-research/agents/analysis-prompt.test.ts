// What the analysis agent shows of the datasets when its budget is small (a prompt held to a small
// context window): each table and its columns whole, never text cut into; what is left out is said.
import assert from "node:assert/strict";
import { test } from "node:test";
import { renderDatasets, type AnalysisDataset } from "./analysis";

const dataset = (table: string, columns: number, description: string | null = "One row per sale, with its region, product and price."): AnalysisDataset => ({
  table,
  filename: `${table}.csv`,
  rowCount: 1200,
  columns: Array.from({ length: columns }, (_, i) => ({ name: `column_${i + 1}`, type: i % 2 ? "DOUBLE" : "VARCHAR", nulls: i })) as AnalysisDataset["columns"],
  description,
});

const tables = (text: string) => [...text.matchAll(/<dataset [^>]*table="([^"]+)"[^>]*>([\s\S]*?)<\/dataset>/g)].map((m) => ({ table: m[1], body: m[2].trim() }));

test("within the budget: every column with its nulls, and the description", () => {
  const text = renderDatasets([dataset("sales", 4)], 1_000);
  assert.match(text, /column_2 DOUBLE \(1 nulls\)/);
  assert.match(text, /description: One row per sale/);
});

test("held to a small budget: the description and the null counts go first, the columns stay whole", () => {
  const text = renderDatasets([dataset("sales", 4), dataset("regions", 3)], 60);
  const shown = tables(text);
  assert.deepEqual(shown.map((t) => t.table), ["sales", "regions"], "every table shown, its tag closed");
  assert.match(shown[0].body, /^columns: column_1 VARCHAR, column_2 DOUBLE, column_3 VARCHAR, column_4 DOUBLE$/);
  assert.doesNotMatch(text, /description|nulls|\[…\]/);
});

test("a table wider than the budget shows its first columns whole and says how many are left out", () => {
  const text = renderDatasets([dataset("wide", 200, null)], 100);
  const [wide] = tables(text);
  assert.ok(wide, "the table's tag is whole");
  const columns = /^columns: (.*?)(?: \(and (\d+) more columns not shown\))?$/.exec(wide.body);
  assert.ok(columns?.[2], wide.body);
  const names = columns[1].split(", ");
  assert.ok(names.every((c) => /^column_\d+ (VARCHAR|DOUBLE)$/.test(c)), "no column cut into");
  assert.equal(names.length + Number(columns[2]), 200);
});
