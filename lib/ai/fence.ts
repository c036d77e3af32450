// A model asked for Markdown that sends its whole reply in a code fence ("```markdown … ```", or a bare
// "``` … ```"), as many do: shown as is, the report would be one code block, its links no links and its
// sentences no claims to verify. The fence around the whole reply is taken off, for a reply given whole
// (unwrapFence) or streamed (fenceFilter: the opening line is held until it is known, and a closing
// fence at the end held until more text follows it). A fence of another language (```python) is content,
// as are the fences inside the reply.
import { bufferedFilter, type StreamFilter } from "./stream-filter";

/** An opening line that wraps a Markdown reply: a bare fence or one of Markdown's info strings. */
const OPENING = /^\s*(`{3,}|~{3,})[ \t]*(?:markdown|md|mdx|gfm)?[ \t]*$/i;

/**
 * The reply without a fence around the whole of it (unchanged when it has none). A fence opened and
 * never closed (a reply cut short) loses its opening line too: the rest is the reply's Markdown.
 */
export function unwrapFence(text: string): string {
  const lines = text.replace(/^\s*\n/, "").replace(/\s+$/, "").split("\n");
  const open = OPENING.exec(lines[0] ?? "");
  if (!open || lines.length < 2) return text;
  const closed = lines.at(-1)!.trim() === open[1];
  return lines.slice(1, closed ? -1 : undefined).join("\n").trim();
}

/** A line a model puts before its Markdown ("Sure! Here is the report:"): chatty, or one that announces what follows. */
const OPENER = /^(sure|certainly|of course|absolutely|okay|ok|great)\b|^(here('s| is| are)|below (is|are)|i('ve| have) (written|prepared|compiled))\b/i;
/** A closing line after it ("Let me know if you need anything else!"). */
const CLOSER = /^(let me know|i hope|hope this|feel free|if you('d| would)? (like|want|need)|would you like|do you want|happy to help|please let me know)\b/i;
const LINK = /\]\(https?:\/\/|https?:\/\//i;

/**
 * A report as the model meant it, without what a chat model puts around it: a short opening line before
 * its title ("Sure! Here is the report:"), a short closing line after it ("Let me know if …"), and then a
 * fence around the whole of it. The opening line goes only when a heading or a fence follows it and it
 * cites nothing; the closing one only when it cites nothing. Anything else is the report's.
 */
export function unwrapReport(text: string): string {
  const lines = text.split("\n");
  const nonBlank = (i: number, step: 1 | -1) => {
    while (i >= 0 && i < lines.length && !lines[i].trim()) i += step;
    return i;
  };
  const first = nonBlank(0, 1);
  const last = nonBlank(lines.length - 1, -1);
  let start = first;
  const next = nonBlank(start + 1, 1);
  const opener = lines[start]?.trim() ?? "";
  if (next < lines.length && /^\s*(#{1,6}\s|`{3,}|~{3,})/.test(lines[next]) && !/^(#|`{3,}|~{3,})/.test(opener) && opener.length <= 200 && !LINK.test(opener) && (OPENER.test(opener) || opener.endsWith(":"))) start = next;
  let end = last;
  const closer = lines[end]?.trim() ?? "";
  if (end > start && closer.length <= 200 && !LINK.test(closer) && CLOSER.test(closer)) end = nonBlank(end - 1, -1);
  // Nothing around it: the reply as it came (its own leading and trailing space kept unless fenced).
  return unwrapFence(start === first && end === last ? text : lines.slice(start, end + 1).join("\n"));
}

/** The same for a streamed reply: push each delta, then end(); each returns the text to hand on. */
export function fenceFilter(): StreamFilter {
  // What is held back: the first line until it is known, then a tail that may be the closing fence.
  let state: "first-line" | "wrapped" | "plain" = "first-line";
  let marker = "";
  /** The end of what is held that could still be the closing fence (its line, the break before it, blank lines after it). */
  const closingTail = (held: string): { text: string; complete: boolean } => {
    const m = /(^|\n)[ \t]*([`~]*)[ \t]*(\n[ \t\n]*)?$/.exec(held);
    if (!m || !marker.startsWith(m[2])) return { text: "", complete: false };
    return { text: held.slice(m.index), complete: m[2] === marker };
  };
  const take = (held: { text: string }, final: boolean): string => {
    if (state === "first-line") {
      const text = held.text.replace(/^\s+/, "");
      const lineEnd = text.indexOf("\n");
      const first = lineEnd === -1 ? text : text.slice(0, lineEnd);
      // Until its first line is over, a reply that may open with a fence is held.
      const couldOpen = /^(`{1,}|~{1,})[ \t]*[a-z]*[ \t]*$/i.test(first) || first === "";
      if (lineEnd === -1 && couldOpen && !final) return "";
      const open = lineEnd !== -1 ? OPENING.exec(first) : null;
      if (open) {
        state = "wrapped";
        marker = open[1];
        held.text = text.slice(lineEnd + 1);
      } else state = "plain";
    }
    if (state === "plain") {
      const out = held.text;
      held.text = "";
      return out;
    }
    const tail = closingTail(held.text);
    if (final) {
      const out = tail.complete ? held.text.slice(0, held.text.length - tail.text.length) : held.text;
      held.text = "";
      return out;
    }
    const out = held.text.slice(0, held.text.length - tail.text.length);
    held.text = tail.text;
    return out;
  };
  return bufferedFilter(take);
}
