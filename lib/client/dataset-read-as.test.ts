import assert from "node:assert/strict";
import { test } from "node:test";
import { datasetReadAs } from "./dataset-read-as";

test("how a dataset was read: format, delimiter, and the encoding only when not UTF-8", () => {
  assert.equal(datasetReadAs("sales.csv", null), "CSV · comma-separated");
  assert.equal(datasetReadAs("Sales.CSV", "semicolon-separated"), "CSV · semicolon-separated");
  assert.equal(datasetReadAs("old.csv", "Latin-1 (Windows-1252) text, semicolon-separated"), "CSV · semicolon-separated · Latin-1 (Windows-1252) encoding");
  assert.equal(datasetReadAs("t.tsv", "comma-separated"), "TSV · comma-separated");
  assert.equal(datasetReadAs("t.tab", null), "TSV · tab-separated");
  assert.equal(datasetReadAs("rows.ndjson", "UTF-16 (little-endian) text"), "NDJSON · UTF-16 (little-endian) encoding");
  assert.equal(datasetReadAs("book.xlsx", null), "Excel workbook");
  assert.equal(datasetReadAs("data.parquet", undefined), "Parquet");
});
