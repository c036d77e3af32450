// A reply that fell into a loop. Small and quantised local models sometimes write the same passage over
// and over until the output limit stops them; asked to go on (a reply cut at the limit is continued:
// ./call.ts), they go on looping, and the report filled with repeats up to five limits long. A reply cut
// at a limit whose end is one passage (20 to 2,000 characters) three times over or more is kept up to
// the passage's first copy, and not continued. So is one whose copies differ only in a number that counts
// up by one from copy to copy ("Step 14: Check the results.", "Step 15: …"), a loop as common: five
// copies at least for it, since a table's rows can differ in one number too.

const PROBE = 40;
const MIN_PERIOD = 20;
const MAX_PERIOD = 2_000;
/** Copies of an exact loop, and of one whose copies count up (see above). */
const EXACT_COPIES = 3;
const COUNTED_COPIES = 5;

/**
 * The text without the loop at its end (the repeated passage kept once), or undefined when its end is
 * no loop: the last `period` characters the same three times running, for a period found where the
 * text's last characters occurred before; or, the numbers masked, five times running with one number
 * counting up.
 */
export function withoutLoop(text: string): string | undefined {
  const exact = loopAt(text, EXACT_COPIES);
  if (exact) return keptOnce(text, exact.start, exact.start + exact.period);
  return countedLoop(text);
}

/** Where the loop at the text's end begins, and its period; undefined when its end is no loop of `copies` copies or more. */
function loopAt(text: string, copies: number, accept: (start: number, period: number) => boolean = () => true): { start: number; period: number } | undefined {
  if (text.length < MIN_PERIOD * copies) return undefined;
  const tail = text.slice(-PROBE);
  for (let at = text.lastIndexOf(tail, text.length - tail.length - 1); at !== -1; at = at > 0 ? text.lastIndexOf(tail, at - 1) : -1) {
    const period = text.length - tail.length - at;
    if (period > MAX_PERIOD || period * copies > text.length) return undefined;
    // The nearest repeat is the loop's period: a short one is a pattern (a table's rules), no passage looping.
    if (period < MIN_PERIOD) return undefined;
    const last = text.slice(-period);
    let repeated = true;
    for (let k = 2; k <= copies && repeated; k++) repeated = text.slice(-k * period, -(k - 1) * period) === last;
    if (!repeated) continue;
    // Back to where the loop began (whole copies, then characters).
    let start = text.length - copies * period;
    while (start >= period && text.slice(start - period, start) === last) start -= period;
    while (start > 0 && text[start - 1] === text[start - 1 + period]) start--;
    if (accept(start, period)) return { start, period };
  }
  return undefined;
}

/** The text up to the end of the loop's first copy (`firstEnd`), to the end of its line. */
function keptOnce(text: string, start: number, firstEnd: number): string {
  const lineEnd = text.indexOf("\n", firstEnd);
  return text.slice(0, lineEnd !== -1 && lineEnd < firstEnd + (firstEnd - start) ? lineEnd : firstEnd).trimEnd();
}

/** A loop whose copies differ in one number counting up by one (see the head of the file). */
function countedLoop(text: string): string | undefined {
  // Every run of digits as "#", and where each masked character came from.
  let masked = "";
  const from: number[] = [];
  const numbers: { at: number; value: number }[] = [];
  for (const m of text.matchAll(/\d+|\D+/g)) {
    if (/^\d/.test(m[0])) {
      numbers.push({ at: masked.length, value: Number(m[0]) });
      from.push(m.index);
      masked += "#";
    } else {
      for (let i = 0; i < m[0].length; i++) from.push(m.index + i);
      masked += m[0];
    }
  }
  from.push(text.length);
  if (numbers.length < COUNTED_COPIES) return undefined;
  const counts = (start: number, period: number): boolean => {
    // The numbers of each whole copy: from copy to copy, one of them one more, the others the same.
    const copies: number[][] = [];
    for (let begin = start; begin + period <= masked.length; begin += period) copies.push(numbers.filter((n) => n.at >= begin && n.at < begin + period).map((n) => n.value));
    if (copies.length < COUNTED_COPIES || copies[0].length === 0) return false;
    let counter: number | undefined;
    for (let c = 1; c < copies.length; c++) {
      const changed = copies[c].flatMap((value, i) => (value === copies[c - 1][i] ? [] : [i]));
      if (changed.length !== 1 || copies[c][changed[0]] !== copies[c - 1][changed[0]] + 1) return false;
      if (counter !== undefined && changed[0] !== counter) return false;
      counter = changed[0];
    }
    return true;
  };
  const loop = loopAt(masked, COUNTED_COPIES, counts);
  if (!loop) return undefined;
  return keptOnce(text, from[loop.start], from[loop.start + loop.period]);
}
