// How a Deep Research agent names something that exists (a dataset, a snippet, a task, a discovery,
// a query): the schema offers the short handles of what exists (D1, S3, lit-1-2, q2) as the JSON
// Schema's enum, and the reply's values are resolved here with lib/ai/resolve.ts, near-misses and
// aliases (a file or table name, an item's stored id, a URL) included. The enum is only in the JSON
// Schema sent: validation takes any string, so that a value a model writes its own way ("EXPR.CSV",
// "[D1]", "Expression data") reaches the resolver instead of failing the call.
import { z } from "zod";
import { resolveChoice, type Choice } from "../../ai/resolve";

/** A string field whose JSON Schema offers `handles` as its enum (plain string when there are none: an enum needs a value). */
export function handleField(handles: readonly string[], description: string) {
  const field = z.string().describe(description);
  return handles.length > 0 ? field.meta({ enum: [...handles] }) : field;
}

/**
 * The distinct choices a reply's values name, in order, and the values that named none. `only`: a
 * lone candidate takes any value (lib/ai/resolve.ts); off where a wrong link is worse than none.
 */
export function resolveAll<T>(values: readonly unknown[], choices: readonly Choice<T>[], { only = false }: { only?: boolean } = {}): { resolved: Choice<T>[]; unresolved: string[] } {
  const resolved: Choice<T>[] = [];
  const unresolved: string[] = [];
  for (const value of values) {
    const hit = resolveChoice(value, choices, { only });
    if (!hit) unresolved.push(typeof value === "string" ? value : JSON.stringify(value));
    else if (!resolved.includes(hit)) resolved.push(hit);
  }
  return { resolved, unresolved };
}

/**
 * Inline citations in brackets ("[S1]", "[S1, S3]", "[s2][S4]") resolved against `choices` and written
 * again by `render` (its choices, in order, deduplicated). A bracket that names none is dropped when its
 * tokens look like citations (`looksCited`: an invented id), else kept (prose: "[sic]", "[see below]").
 * Markdown links ("[text](url)") are left alone.
 */
export function resolveCitations<T>(text: string, choices: readonly Choice<T>[], render: (cited: Choice<T>[]) => string, looksCited: (token: string) => boolean = (t) => /\d/.test(t)): { text: string; cited: Choice<T>[] } {
  const cited: Choice<T>[] = [];
  const out = text.replace(/([ \t]*)\[([^\]\n]+)\](?!\()/g, (whole, space: string, inner: string) => {
    // Each comma-separated part is one citation ("Source 3" too), or several separated by spaces when
    // every word holds a digit ("S1 S3"); "Figure 2" is prose, not S2.
    const parts = inner.split(/[,;]/).map((s) => s.trim()).filter(Boolean);
    const tokens = parts.flatMap((part) => {
      const words = part.split(/\s+/);
      return resolveChoice(part, choices, { only: false }) || !words.every((w) => /\d/.test(w)) ? [part] : words;
    });
    const { resolved } = resolveAll(tokens, choices);
    // An invented id goes with the space before it ("fact [S9]." → "fact.").
    if (resolved.length === 0) return tokens.length > 0 && tokens.every((t) => !/\s/.test(t) && looksCited(t)) ? "" : whole;
    for (const c of resolved) if (!cited.includes(c)) cited.push(c);
    return space + render(resolved);
  });
  return { text: out, cited };
}
