// A model's SQL as DuckDB reads it. Models write the analysis agent's query the way they write SQL
// elsewhere: inside a Markdown code fence in the JSON string ("```sql\nSELECT …\n```"), after a label
// ("SQL: SELECT …"), and with MySQL's backtick-quoted identifiers (`region`), which DuckDB's parser
// refuses. Each cost a step of the task's few, and a model that writes so writes so again: the analysis
// never ran. What plainly means one query is brought to DuckDB's form; anything else is left for the
// parser's error, which the agent is shown to fix.

const FENCE = /^```[\w-]*[ \t]*\n?([\s\S]*?)\n?[ \t]*```\s*$/;
const LABEL = /^(?:sql|query|duckdb)\s*:\s*/i;

/** A dataset as a query may name it: its table, and the file it was uploaded as. */
export interface NamedTable {
  table: string;
  filename: string;
}

/**
 * The query as DuckDB reads it: fence and label taken off, backtick-quoted identifiers double-quoted,
 * and an uploaded file read by its name (DuckDB's own idiom, `FROM 'sales.csv'`, `read_csv('sales.csv')`,
 * which the sandbox refuses: it reads no file) read from its table instead.
 */
export function asDuckDbSql(sql: string, tables: readonly NamedTable[] = []): string {
  let text = sql.trim();
  const fenced = FENCE.exec(text);
  if (fenced) text = fenced[1].trim();
  text = text.replace(LABEL, "");
  return filesAsTables(backticksQuoted(text), tables);
}

/** A file reader's call or a quoted file name after FROM or JOIN, naming an uploaded file: that file's table. */
const FILE_READ = /\b(from|join)(\s+)(?:(?:read_csv(?:_auto)?|read_parquet|read_json(?:_auto)?)\s*\(\s*(['"])([^'"]+)\3[^)]*\)|(['"])([^'"]+)\5)/gi;

function filesAsTables(sql: string, tables: readonly NamedTable[]): string {
  if (tables.length === 0) return sql;
  const byFile = new Map(tables.map((t) => [t.filename.toLowerCase(), t.table]));
  return sql.replace(FILE_READ, (whole, keyword: string, space: string, _q1, readFile: string | undefined, _q2, quoted: string | undefined) => {
    const name = (readFile ?? quoted ?? "").split(/[\\/]/).pop()!.toLowerCase();
    const table = byFile.get(name);
    // A double-quoted name that is a table's own is the table already.
    if (!table || (quoted !== undefined && tables.some((t) => t.table === quoted))) return whole;
    return `${keyword}${space}"${table.replace(/"/g, '""')}"`;
  });
}

/** `name` as "name", outside string literals and comments; a backtick in a string stays. */
function backticksQuoted(sql: string): string {
  if (!sql.includes("`")) return sql;
  let out = "";
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      // A literal or a quoted identifier, to its closing quote ('' and "" are escapes).
      let j = i + 1;
      while (j < sql.length && (sql[j] !== c || sql[j + 1] === c)) j += sql[j] === c ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      out += sql.slice(i, end === -1 ? sql.length : end);
      i = (end === -1 ? sql.length : end) - 1;
    } else if (c === "`") {
      const end = sql.indexOf("`", i + 1);
      if (end === -1) return sql;
      out += `"${sql.slice(i + 1, end).replace(/"/g, '""')}"`;
      i = end;
    } else out += c;
  }
  return out;
}
