// The first of the query sandbox's checks, before DuckDB sees the SQL: one statement whose first word
// is SELECT, WITH or FROM (DuckDB's FROM-first select), and no call of a table function that reads
// files or reaches the network. DuckDB's own parser decides the rest (query.ts: one statement, of
// type SELECT), and the instance itself is read-only with external access off, so this list is a
// second wall, not the only one.

/** Table and scalar functions that read files, list them, or run SQL given as text. */
const FORBIDDEN_FUNCTIONS = [
  "read_csv", "read_csv_auto", "read_json", "read_json_auto", "read_json_objects", "read_json_objects_auto", "read_ndjson", "read_ndjson_auto",
  "read_ndjson_objects", "read_parquet", "parquet_scan", "parquet_metadata", "parquet_schema", "parquet_file_metadata", "parquet_kv_metadata",
  "read_text", "read_blob", "read_xlsx", "glob", "sniff_csv", "query", "query_table", "iceberg_scan", "delta_scan", "sqlite_scan",
  "postgres_scan", "mysql_scan", "read_ipc", "arrow_scan", "httpfs", "load_aws_credentials", "duckdb_secrets",
];

const ALLOWED_FIRST_WORDS = new Set(["select", "with", "from"]);

/** Comments and string literals blanked out, so that the checks below see only the SQL's own words. */
export function stripLiteralsAndComments(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, " ")
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, " ")
    .replace(/'(?:[^']|'')*'/g, "''");
}

/** Why the SQL is refused, or null when it may go on to DuckDB's own checks. */
export function refusalOf(sql: string): string | null {
  const bare = stripLiteralsAndComments(sql);
  if (!bare.trim()) return "The query is empty.";
  const first = /^[\s(]*([A-Za-z_]+)/.exec(bare)?.[1]?.toLowerCase();
  if (!first || !ALLOWED_FIRST_WORDS.has(first)) {
    return `Only one SELECT (or WITH … SELECT) statement is allowed; this one starts with ${first ? first.toUpperCase() : "something else"}.`;
  }
  // A literal path as a table (FROM 'file.csv') is DuckDB's replacement scan of a file.
  if (/\b(from|join)\s+''/i.test(bare)) return "Reading a file by its path is not allowed; query the dataset tables by name.";
  for (const m of bare.matchAll(/([A-Za-z_][\w]*)\s*\(/g)) {
    const name = m[1].toLowerCase();
    if (FORBIDDEN_FUNCTIONS.includes(name)) return `The function ${name}() is not allowed: it reads files or runs other SQL. Query the dataset tables by name.`;
  }
  return null;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
