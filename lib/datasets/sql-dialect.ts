// A model's SQL as DuckDB reads it. Models write the analysis agent's query the way they write SQL
// elsewhere: inside a Markdown code fence in the JSON string ("```sql\nSELECT …\n```"), after a label
// ("SQL: SELECT …"), and with MySQL's backtick-quoted identifiers (`region`), which DuckDB's parser
// refuses. Each cost a step of the task's few, and a model that writes so writes so again: the analysis
// never ran. What plainly means one query is brought to DuckDB's form; anything else is left for the
// parser's error, which the agent is shown to fix.

const FENCE = /^```[\w-]*[ \t]*\n?([\s\S]*?)\n?[ \t]*```\s*$/;
const LABEL = /^(?:sql|query|duckdb)\s*:\s*/i;

/** The query as DuckDB reads it: fence and label taken off, backtick-quoted identifiers double-quoted. */
export function asDuckDbSql(sql: string): string {
  let text = sql.trim();
  const fenced = FENCE.exec(text);
  if (fenced) text = fenced[1].trim();
  text = text.replace(LABEL, "");
  return backticksQuoted(text);
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
