// What a query may do, decided on DuckDB's own parse tree (query.ts asks the sandbox's connection for
// `json_serialize_sql`, which parses without binding or running anything): exactly one statement,
// a SELECT (WITH … SELECT, FROM-first, PIVOT, DESCRIBE and SUMMARIZE parse as SELECT nodes; COPY,
// ATTACH, SET, INSERT … are "not serializable": not a SELECT), no function that reads files, reaches
// the network, runs SQL given as text or shows the server's paths or settings, and no table named by
// a file path. Quoting a name ("read_text"(…)) or hiding SQL words in a literal ('--') changes nothing:
// the tree holds the name the parser resolved. The instance itself is read-only with external access
// off, so a call this list misses still cannot read a file: this is the first wall, not the only one.

/** Function names refused wherever they appear (scalar, aggregate, window or table function). */
const DENIED_FUNCTIONS = new Set([
  "glob", "sniff_csv", "query", "query_table", "json_execute_serialized_sql", "json_deserialize_sql", "current_setting", "getenv",
  "which_secret", "load_aws_credentials", "checkpoint", "force_checkpoint", "httpfs",
]);
/** Families: file readers, scans of other stores, Parquet metadata, system tables (settings, databases with their files). */
const DENIED_PREFIXES = ["read_", "parquet_", "pragma_", "duckdb_", "iceberg_", "delta_"];
const DENIED_SUFFIXES = ["_scan"];
/** System tables of the families above that show nothing of the server: the dataset tables and their columns. */
const ALLOWED = new Set(["duckdb_tables", "duckdb_columns", "duckdb_views", "duckdb_types", "duckdb_functions", "duckdb_keywords", "pragma_table_info"]);

function denied(name: string): boolean {
  const n = name.toLowerCase();
  if (ALLOWED.has(n)) return false;
  return DENIED_FUNCTIONS.has(n) || DENIED_PREFIXES.some((p) => n.startsWith(p)) || DENIED_SUFFIXES.some((s) => n.endsWith(s));
}

/** A table name that is a file (DuckDB's replacement scan of 'data.csv', "/etc/passwd", 's3://…'). */
function looksLikePath(name: string): boolean {
  return /[/\\:]/.test(name) || /\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(name) || name.startsWith("~");
}

/** The parse tree json_serialize_sql returns. */
export interface ParseTree {
  error: boolean;
  error_type?: string;
  error_message?: string;
  statements?: unknown[];
}

/** The first word of the SQL, comments and parentheses skipped: only for naming a refused statement. */
export function firstKeyword(sql: string): string {
  const bare = sql.replace(/^(?:\s|\(|--[^\n]*(?:\n|$)|\/\*[\s\S]*?(?:\*\/|$))*/, "");
  return /^[A-Za-z_]+/.exec(bare)?.[0]?.toUpperCase() ?? "";
}

/** Every function name and base table name in the tree, in order. */
function namesIn(node: unknown, out: { functions: string[]; tables: string[] }): typeof out {
  if (Array.isArray(node)) {
    for (const child of node) namesIn(child, out);
  } else if (node && typeof node === "object") {
    const o = node as Record<string, unknown>;
    if (typeof o.function_name === "string") out.functions.push(o.function_name);
    if (o.type === "BASE_TABLE" && typeof o.table_name === "string") out.tables.push(o.table_name);
    for (const value of Object.values(o)) if (value && typeof value === "object") namesIn(value, out);
  }
  return out;
}

/** Why the parsed SQL is refused, or null when it is one SELECT calling nothing refused. */
export function refusalOfTree(tree: ParseTree, sql: string): string | null {
  if (tree.error) {
    if (tree.error_type === "parser") return `Parser Error: ${tree.error_message ?? "the SQL could not be parsed"}.`;
    // "Only SELECT statements can be serialized": the parser read another kind of statement.
    const word = firstKeyword(sql);
    const pivot = word === "PIVOT" || word === "UNPIVOT" || /\bPIVOT\b/i.test(sql);
    return `Only one SELECT (or WITH … SELECT) statement is allowed; DuckDB's parser reads this one as another kind of statement${word ? ` (it starts with ${word})` : ""}.${pivot ? " A PIVOT needs its IN list of values (PIVOT t ON c IN ('a', 'b') USING sum(x)), or write it with sum(x) FILTER (WHERE c = 'a')." : ""}`;
  }
  const statements = tree.statements ?? [];
  if (statements.length === 0) return "The query is empty.";
  if (statements.length !== 1) return `Exactly one statement is allowed per query; this SQL has ${statements.length}.`;
  const { functions, tables } = namesIn(statements[0], { functions: [], tables: [] });
  const fn = functions.find(denied);
  if (fn) return `The function ${fn.toLowerCase()}() is not allowed: it reads files, runs other SQL or shows the server's settings. Query the dataset tables by name.`;
  const file = tables.find(looksLikePath);
  if (file !== undefined) return "Reading a file by its path is not allowed; query the dataset tables by name.";
  const system = tables.find(denied);
  if (system) return `The system table ${system.toLowerCase()} is not allowed. Query the dataset tables by name.`;
  return null;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
