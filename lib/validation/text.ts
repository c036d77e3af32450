// Text from outside must be storable the same on both databases: PostgreSQL refuses U+0000 in a text
// column ("invalid byte sequence for encoding UTF8: 0x00"), and SQLite (as UTF-8) refuses a lone
// UTF-16 surrogate, which JSON can carry ("\ud800"). A request's own text is refused with a 400 naming
// the field (text() below); text the product fetches (search results, pages, PDFs, LLM replies) is
// cleaned where it enters (storable()).
import { z } from "zod";

/** Why a request's text cannot be taken, completing "<field> …"; marks the issue for the body parser. */
const PROBLEMS = {
  surrogate: "must be well-formed Unicode: it contains an unpaired UTF-16 surrogate",
  nul: "must not contain NUL characters (U+0000)",
} as const;
type Problem = keyof typeof PROBLEMS;

const NUL = /\u0000/g;

/** Outside text made storable: NUL characters dropped, lone surrogates replaced with U+FFFD. */
export function storable(value: string): string {
  return value.toWellFormed().replace(NUL, "");
}

/** storable() on every string of a JSON-like value (an LLM's structured reply), keys included. */
export function storableDeep<T>(value: T): T {
  if (typeof value === "string") return storable(value) as T;
  if (Array.isArray(value)) return value.map(storableDeep) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storableDeep(v)])) as T;
  }
  return value;
}

/** Why a query parameter or path cannot be taken ("<name> must …"), or null when it can. */
export function unstorableProblem(value: string): string | null {
  if (!value.isWellFormed()) return PROBLEMS.surrogate;
  if (value.includes("\u0000")) return PROBLEMS.nul;
  return null;
}

const refusal = (problem: Problem) => ({ error: `Text ${PROBLEMS[problem]}.`, params: { problem }, abort: true });

/** z.string() for a request's text: refuses lone surrogates and NUL; chain .trim(), .min(), .max() as usual. */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z
    .string(params)
    .refine((value) => value.isWellFormed(), refusal("surrogate"))
    .refine((value) => !value.includes("\u0000"), refusal("nul"));
}

/** The message of an issue text() raised, naming the field (`label`); null for any other issue. */
export function unstorableMessage(issue: z.core.$ZodIssue, label: string): string | null {
  const problem = issue.code === "custom" ? (issue.params as { problem?: Problem } | undefined)?.problem : undefined;
  return problem && problem in PROBLEMS ? `${label} ${PROBLEMS[problem]}.` : null;
}

/**
 * A text's words as compared for sameness: case, spacing and punctuation aside ("Sales rose 12%." and
 * "sales rose 12 %" are one). ASCII text, most of what pages say, takes a path without Unicode
 * normalisation or Unicode classes: the same result, a fraction of the CPU (planning calls key
 * every learning of their chain).
 */
export function wordsKey(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
  return text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}
