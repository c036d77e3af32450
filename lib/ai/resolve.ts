// The one tolerant resolver for a model's choices. Wherever a reply must name something that exists
// (a dataset, a source, a sentence, a query, a task), the schema offers short handles of what exists
// (`S3`, `D1`) as an enum, and a reply's value is mapped to one of them here: exact, then the same up to
// case, white space, quotes and brackets around it, then a URL in its normal form, a file name without
// its extension or a table name, "Source 3" or "C03" for S3 or C3, a handle with the model's label after it ("Q1 (battery
// prices)") or before it ("Sentence C1", "id: C1"), and lastly the only candidate there is. A value
// that matches no candidate, or more than one, resolves to nothing: the caller keeps what it has and
// marks it, it never guesses between two.

export interface Choice<T> {
  /** The short handle offered to the model: `S3`, `D1`, `C12`. */
  handle: string;
  value: T;
  /** Other names a model may write for it: its URL, file name, table name, title. */
  aliases?: readonly string[];
}

/** `count` handles with a prefix: handles("S", 3) = ["S1", "S2", "S3"]. */
export function handles(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
}

/** Choices for a list, handled in order: S1 is the first item. */
export function choicesOf<T>(prefix: string, items: readonly T[], aliases: (item: T) => readonly string[] = () => []): Choice<T>[] {
  return items.map((value, i) => ({ handle: `${prefix}${i + 1}`, value, aliases: aliases(value) }));
}

const WRAPPERS = /^[\s"'`“”‘’«»[\](){}<>*_]+|[\s"'`“”‘’«»[\](){}<>*_.,;:!?]+$/g;

/** A value as compared: Unicode-normalised, without the quotes, brackets and punctuation around it, case and white space folded. */
export function foldChoice(value: string): string {
  return value.normalize("NFKC").replace(WRAPPERS, "").replace(/\s+/g, " ").trim().toLowerCase();
}

/** A URL's normal form: scheme and host in lower case, no default port, fragment, `www.` or trailing slash. With `query: false`, no query string either. */
export function normalUrl(value: string, { query = true }: { query?: boolean } = {}): string | undefined {
  const text = value.trim().replace(WRAPPERS, "");
  if (!/^https?:\/\//i.test(text) && !/^[\w-]+(\.[\w-]+)+\//.test(text)) return undefined;
  try {
    const url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
    const host = url.hostname.toLowerCase().replace(/^www\./, "");
    const path = decodeURIComponentSafe(url.pathname).replace(/\/+$/, "");
    const search = query ? [...url.searchParams].filter(([k]) => !/^utm_|^(ref|fbclid|gclid)$/i.test(k)).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`).join("&") : "";
    return `${host}${url.port && !["80", "443"].includes(url.port) ? `:${url.port}` : ""}${path}${search ? `?${search}` : ""}`;
  } catch {
    return undefined;
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A file name's stem: `expr.csv` → `expr`, `/data/Sales 2024.xlsx` → `sales 2024`. */
function stem(value: string): string {
  const base = value.split(/[\\/]/).pop() ?? value;
  return foldChoice(base.replace(/\.[a-z0-9]{1,6}$/i, "")).replace(/[\s_-]+/g, "_");
}

/** Keys a name is known by, from the strictest to the loosest. */
function keysOf(name: string): string[] {
  const keys = [foldChoice(name)];
  const url = normalUrl(name);
  if (url) keys.push(`url:${url}`, `url-path:${normalUrl(name, { query: false })}`);
  else keys.push(`stem:${stem(name)}`);
  return keys;
}

/**
 * The choice a value names, or undefined when it names none or could name several. `only`: a lone
 * candidate is taken whatever the value says (default true: with one dataset, "Expression data" is it).
 */
export function resolveChoice<T>(value: unknown, choices: readonly Choice<T>[], { only = true }: { only?: boolean } = {}): Choice<T> | undefined {
  if (choices.length === 0) return undefined;
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : "";
  if (text) {
    const exact = choices.find((c) => c.handle === text);
    if (exact) return exact;
    const wanted = keysOf(text);
    // Each level of looseness is tried on every choice before the next: a unique match wins there.
    for (let level = 0; level < wanted.length; level++) {
      const hits = choices.filter((c) => [c.handle, ...(c.aliases ?? [])].some((name) => keysOf(name)[level] === wanted[level]));
      if (hits.length === 1) return hits[0];
      if (hits.length > 1) return undefined;
    }
    const named = byNumber(text, choices) ?? byLeadingHandle(text, choices) ?? byLabelledHandle(text, choices);
    if (named) return named;
  }
  return only && choices.length === 1 ? choices[0] : undefined;
}

/** "Source 3", "s-3", "#3", "C01" for a handle S3 (the same letter, or none, and the same number). */
function byNumber<T>(text: string, choices: readonly Choice<T>[]): Choice<T> | undefined {
  const m = /^([a-z]*)[\s#_-]*(\d+)$/i.exec(foldChoice(text));
  return m ? numbered(m[1], m[2], choices, (letters, h) => letters === "" || letters[0] === h[0]) : undefined;
}

/** A label word then the handle and nothing else: "Sentence C1", "id: C1", "claim #C12", "source = S3". */
const LABELLED_HANDLE = /^[a-z][a-z_]*(?:\s+[a-z]+)?\s*[:#=]?\s*["'`[(]*([a-z]+)[\s#_-]?(\d+)["'`\])]*$/i;

function byLabelledHandle<T>(text: string, choices: readonly Choice<T>[]): Choice<T> | undefined {
  const m = LABELLED_HANDLE.exec(foldChoice(text));
  return m ? numbered(m[1], m[2], choices, (letters, h) => letters === h) : undefined;
}

/** The one choice whose handle is letters then `digits`' number (leading zeros aside) and whose letters `match`. */
function numbered<T>(letters: string, digits: string, choices: readonly Choice<T>[], match: (letters: string, handleLetters: string) => boolean): Choice<T> | undefined {
  const n = Number(digits);
  const hits = choices.filter((c) => {
    const h = /^([a-z]+)(\d+)$/i.exec(c.handle);
    return h !== null && Number(h[2]) === n && match(letters.toLowerCase(), h[1].toLowerCase());
  });
  return hits.length === 1 ? hits[0] : undefined;
}

/** A handle then the model's label for it: "Q1 (battery prices)", "lit-1-2: solar review", "[S3] – the report". */
const LEADING_HANDLE = /^[\s"'`[(]*([a-z]+\d+|[a-z]+(?:-\d+)+)[\s"'`\])]*(?:[:(–—-]|\s)/i;

/** The choice a value's leading handle names, when nothing after it names another ("Q1 and Q2" names none). */
function byLeadingHandle<T>(text: string, choices: readonly Choice<T>[]): Choice<T> | undefined {
  const normal = text.normalize("NFKC");
  const m = LEADING_HANDLE.exec(normal);
  if (!m) return undefined;
  const lead = m[1].toLowerCase();
  const hit = choices.find((c) => c.handle.toLowerCase() === lead);
  if (!hit) return undefined;
  const rest = normal.slice(m[0].length).toLowerCase().split(/[^a-z0-9-]+/);
  return choices.some((c) => c !== hit && rest.includes(c.handle.toLowerCase())) ? undefined : hit;
}

/**
 * The value among `options` (an enum's) that a reply's value means, up to case, padding and the resolver's
 * other near-misses, and as models word a judgement in their own words (wordedEnumValue).
 */
export function resolveEnumValue(value: unknown, options: readonly string[]): string | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  return resolveChoice(value, options.map((o) => ({ handle: o, value: o })), { only: false })?.value ?? (typeof value === "string" ? wordedEnumValue(value, options) : undefined);
}

const wordsOf = (text: string) => text.normalize("NFKC").toLowerCase().replace(/[_\s-]+/g, " ").trim();

/**
 * An enum value in a model's words: "partially_supported", "Partially supported", "partly" for "partial"; "not
 * supported", "Not_Relevant" for "unsupported", "irrelevant"; "fully supported" for "supported"; "literature
 * review" for "literature" (its first word, unless that word negates). Undefined unless exactly one option fits.
 */
function wordedEnumValue(value: string, options: readonly string[]): string | undefined {
  const byWords = new Map(options.map((o) => [wordsOf(o), o]));
  const words = wordsOf(value);
  const one = (candidates: string[]) => {
    const hits = [...new Set(candidates.map((c) => byWords.get(c)).filter((o): o is string => o !== undefined))];
    return hits.length === 1 ? hits[0] : undefined;
  };
  if (byWords.has(words)) return byWords.get(words);
  const negated = /^(?:not|non|no)\s+(.+)$/.exec(words);
  if (negated) return one(["un", "in", "im", "ir", "non ", "non", "not "].map((prefix) => `${prefix}${negated[1]}`));
  if (/\b(?:partially|partly|partial)\b/.test(words)) return one(["partial", "partially", "partly"]);
  // A negation anywhere else ("supported, not fully") is not read past.
  if (/\b(?:not|no|non|never)\b/.test(words)) return undefined;
  const plain = /^(?:fully|completely|entirely|clearly|directly)\s+(.+)$/.exec(words);
  if (plain && byWords.has(plain[1])) return byWords.get(plain[1]);
  return one([words.split(" ")[0]]);
}
