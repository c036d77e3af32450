// A reply that fell into a loop. Small and quantised local models sometimes write the same passage over
// and over until the output limit stops them; asked to go on (a reply cut at the limit is continued:
// ./call.ts), they go on looping, and the report filled with repeats up to five limits long. A reply cut
// at a limit whose end is one passage (20 to 2,000 characters) three times over or more is kept up to
// the passage's first copy, and not continued.

const PROBE = 40;
const MIN_PERIOD = 20;
const MAX_PERIOD = 2_000;

/**
 * The text without the loop at its end (the repeated passage kept once), or undefined when its end is
 * no loop: the last `period` characters the same three times running, for a period found where the
 * text's last characters occurred before.
 */
export function withoutLoop(text: string): string | undefined {
  if (text.length < MIN_PERIOD * 3) return undefined;
  const tail = text.slice(-PROBE);
  for (let at = text.lastIndexOf(tail, text.length - tail.length - 1); at !== -1; at = at > 0 ? text.lastIndexOf(tail, at - 1) : -1) {
    const period = text.length - tail.length - at;
    if (period > MAX_PERIOD || period * 3 > text.length) return undefined;
    // The nearest repeat is the loop's period: a short one is a pattern (a table's rules), no passage looping.
    if (period < MIN_PERIOD) return undefined;
    const last = text.slice(-period);
    if (text.slice(-2 * period, -period) !== last || text.slice(-3 * period, -2 * period) !== last) continue;
    // Back to where the loop began (whole copies, then characters), then one copy of it, to the end of its line.
    let start = text.length - 3 * period;
    while (start >= period && text.slice(start - period, start) === last) start -= period;
    while (start > 0 && text[start - 1] === text[start - 1 + period]) start--;
    const lineEnd = text.indexOf("\n", start + period);
    return text.slice(0, lineEnd !== -1 && lineEnd < start + 2 * period ? lineEnd : start + period).trimEnd();
  }
  return undefined;
}
