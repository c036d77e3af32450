// A free-text question → the words a full-text index is asked for: letters and digits only (so no
// query syntax of FTS5 or tsquery can be injected), without the commonest English words (they match
// nearly every chunk and only slow the ranking), de-duplicated, at most MAX_TERMS.
const STOP = new Set(
  "a an and are as at be but by for from has have how in into is it its of on or that the their there these this to was were what when where which who why will with does do did can about".split(" "),
);
const MAX_TERMS = 24;

export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? [];
  const kept = [...new Set(words.filter((w) => !STOP.has(w)))];
  // A question made only of common words still searches for them.
  return (kept.length > 0 ? kept : [...new Set(words)]).slice(0, MAX_TERMS);
}
