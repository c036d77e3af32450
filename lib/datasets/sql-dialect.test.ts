// A model's SQL as DuckDB reads it: fences, labels and MySQL's backticks; anything else as written.
import assert from "node:assert/strict";
import { test } from "node:test";
import { asDuckDbSql } from "./sql-dialect";

test("a query in a code fence, after a label or with backtick-quoted identifiers is brought to DuckDB's form", () => {
  assert.equal(asDuckDbSql("```sql\nSELECT region FROM sales\n```"), "SELECT region FROM sales");
  assert.equal(asDuckDbSql("```\nSELECT 1;\n```\n"), "SELECT 1;");
  assert.equal(asDuckDbSql("SQL: SELECT 1"), "SELECT 1");
  assert.equal(asDuckDbSql("SELECT `region`, sum(`unit price`) FROM `sales` GROUP BY 1"), 'SELECT "region", sum("unit price") FROM "sales" GROUP BY 1');
  assert.equal(asDuckDbSql("```sql\nSELECT `a` FROM t\n```"), 'SELECT "a" FROM t');
});

test("backticks inside literals, quoted identifiers and comments stay; other SQL is left as written", () => {
  assert.equal(asDuckDbSql("SELECT '`x`' AS s, `y` FROM t"), `SELECT '\`x\`' AS s, "y" FROM t`);
  assert.equal(asDuckDbSql("SELECT 'it''s `a`', `b` FROM t"), `SELECT 'it''s \`a\`', "b" FROM t`);
  assert.equal(asDuckDbSql('SELECT "we`ird" FROM t'), 'SELECT "we`ird" FROM t');
  assert.equal(asDuckDbSql("SELECT a -- the `b` column\nFROM `t`"), 'SELECT a -- the `b` column\nFROM "t"');
  assert.equal(asDuckDbSql("SELECT `unclosed FROM t"), "SELECT `unclosed FROM t");
  assert.equal(asDuckDbSql("  SELECT region FROM sales  "), "SELECT region FROM sales");
});

test("an uploaded file read by its name (DuckDB's idiom, which the sandbox refuses) is read from its table", () => {
  const tables = [{ table: "sales", filename: "Sales 2024.csv" }, { table: "regions", filename: "regions.parquet" }];
  assert.equal(asDuckDbSql("SELECT region, sum(units) FROM 'Sales 2024.csv' GROUP BY 1", tables), 'SELECT region, sum(units) FROM "sales" GROUP BY 1');
  assert.equal(
    asDuckDbSql("SELECT * FROM read_csv_auto('/data/sales 2024.csv', header = true) s JOIN read_parquet(\"regions.parquet\") r ON s.region = r.name", tables),
    'SELECT * FROM "sales" s JOIN "regions" r ON s.region = r.name',
  );
  // A table's own quoted name, another file, or a literal elsewhere are left as written.
  assert.equal(asDuckDbSql('SELECT * FROM "sales" WHERE note = \'Sales 2024.csv\'', tables), 'SELECT * FROM "sales" WHERE note = \'Sales 2024.csv\'');
  assert.equal(asDuckDbSql("SELECT * FROM 'other.csv'", tables), "SELECT * FROM 'other.csv'");
});
