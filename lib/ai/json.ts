// Lenient JSON recovery for models that ignore response_format: code fences, prose around the
// object, and JSON written loosely, as models without a grammar write it — trailing commas, comments,
// line breaks and tabs inside strings, single-quoted strings, unquoted keys, Python's True, False and
// None. Pure; unit-tested.
export function extractJson(text: string): unknown {
  const candidates: string[] = [];
  const fence = /```(?:json|JSON|json5|javascript|js|python)?\s*([\s\S]*?)```/g;
  for (const match of text.matchAll(fence)) candidates.push(match[1]);
  const firstBrace = text.search(/[[{]/);
  if (firstBrace >= 0) {
    const open = text[firstBrace];
    const close = open === "{" ? "}" : "]";
    const last = text.lastIndexOf(close);
    if (last > firstBrace) candidates.push(text.slice(firstBrace, last + 1));
  }
  candidates.push(text);
  for (const candidate of candidates) {
    const parsed = tryParse(candidate.trim());
    if (parsed !== undefined) return parsed;
  }
  // Several values one after another: JSON Lines, or objects separated by commas with no list around them.
  const sequence = firstBrace >= 0 ? jsonSequence(text.slice(firstBrace)) : undefined;
  if (sequence) return sequence;
  throw new SyntaxError("The reply contains no parseable JSON");
}

/**
 * Two or more JSON values in a row, as small models write a list they were asked for inside an object
 * (`{"query": "a"}` on a line, `{"query": "b"}` on the next, or with commas between), as the list of
 * them (the schema then takes the list as its object's one list: ./conform.ts); undefined for fewer
 * than two.
 */
function jsonSequence(text: string): unknown[] | undefined {
  const values: unknown[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && /[\s,]/.test(text[i])) i++;
    if (i >= n) break;
    // Prose after the values ends them.
    if (text[i] !== "{" && text[i] !== "[") break;
    const start = i;
    let depth = 0;
    let quote: string | null = null;
    for (; i < n; i++) {
      const c = text[i];
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === "{" || c === "[") depth++;
      else if ((c === "}" || c === "]") && --depth === 0) break;
    }
    if (depth !== 0) return undefined;
    const value = tryParse(text.slice(start, ++i));
    if (value === undefined) return undefined;
    values.push(value);
  }
  return values.length >= 2 ? values : undefined;
}

/** The text as JSON, strict or written loosely (strictJson); undefined when it is neither. */
export function tryParse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(strictJson(text));
    } catch {
      return undefined;
    }
  }
}

const LITERALS: Record<string, string> = { true: "true", false: "false", null: "null", True: "true", False: "false", None: "null", undefined: "null" };
const CONTROL_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

/**
 * Loosely written JSON made strict, in one pass that knows where strings are: comments dropped, a
 * comma before a closing bracket dropped, control characters in strings escaped, single-quoted strings
 * double-quoted, bare keys quoted, Python's literals made JSON's. What it cannot read (a string never
 * closed, a bare word that is no key) is left for JSON.parse to reject.
 */
export function strictJson(text: string): string {
  let out = "";
  let i = 0;
  const n = text.length;
  /** A string from its opening quote (double or single) on, written double-quoted. */
  const string = (quote: string) => {
    out += '"';
    i++;
    while (i < n && text[i] !== quote) {
      const c = text[i];
      if (c === "\\" && i + 1 < n) {
        // In a single-quoted string \' is a quote; any other escape stays as written.
        out += quote === "'" && text[i + 1] === "'" ? "'" : c + text[i + 1];
        i += 2;
        continue;
      }
      if (c === '"') out += '\\"';
      else if (c < " ") out += CONTROL_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
      else out += c;
      i++;
    }
    out += '"';
    i++;
  };
  while (i < n) {
    const c = text[i];
    if (c === '"' || c === "'") string(c);
    else if (c === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? n : end + 2;
    } else if (c === "}" || c === "]") {
      let j = out.length - 1;
      while (j >= 0 && /\s/.test(out[j])) j--;
      if (out[j] === ",") out = out.slice(0, j) + out.slice(j + 1);
      out += c;
      i++;
    } else if (/[A-Za-z_$]/.test(c)) {
      const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i, i + 64))?.[0] ?? c;
      i += word.length;
      const literal = LITERALS[word];
      // A bare key ("{queries: …}") is quoted; a literal is JSON's; any other word stays (and fails).
      out += /^\s*:/.test(text.slice(i, i + 16)) && !literal ? `"${word}"` : (literal ?? word);
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
