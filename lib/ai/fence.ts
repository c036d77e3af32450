// A model asked for Markdown that sends its whole reply in a code fence ("```markdown … ```", or a bare
// "``` … ```"), as many do: shown as is, the report would be one code block, its links no links and its
// sentences no claims to verify. The fence around the whole reply is taken off, for a reply given whole
// (unwrapFence) or streamed (fenceFilter: the opening line is held until it is known, and a closing
// fence at the end held until more text follows it). A fence of another language (```python) is content,
// as are the fences inside the reply.

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

/** The same for a streamed reply: push each delta, then end(); each returns the text to hand on. */
export function fenceFilter(): { push(delta: string): string; end(): string } {
  /** Text not yet handed on: the first line until it is known, then a tail that may be the closing fence. */
  let pending = "";
  let state: "first-line" | "wrapped" | "plain" = "first-line";
  let marker = "";
  /** The end of what is pending that could still be the closing fence (its line, the break before it, blank lines after it). */
  const closingTail = (): { text: string; complete: boolean } => {
    const m = /(^|\n)[ \t]*([`~]*)[ \t]*(\n[ \t\n]*)?$/.exec(pending);
    if (!m || !marker.startsWith(m[2])) return { text: "", complete: false };
    return { text: pending.slice(m.index), complete: m[2] === marker };
  };
  const take = (final: boolean): string => {
    if (state === "first-line") {
      const text = pending.replace(/^\s+/, "");
      const lineEnd = text.indexOf("\n");
      const first = lineEnd === -1 ? text : text.slice(0, lineEnd);
      // Until its first line is over, a reply that may open with a fence is held.
      const couldOpen = /^(`{1,}|~{1,})[ \t]*[a-z]*[ \t]*$/i.test(first) || first === "";
      if (lineEnd === -1 && couldOpen && !final) return "";
      const open = lineEnd !== -1 ? OPENING.exec(first) : null;
      if (!open) {
        state = "plain";
        const out = pending;
        pending = "";
        return out;
      }
      state = "wrapped";
      marker = open[1];
      pending = text.slice(lineEnd + 1);
    }
    if (state === "plain") {
      const out = pending;
      pending = "";
      return out;
    }
    const tail = closingTail();
    if (final) {
      const out = tail.complete ? pending.slice(0, pending.length - tail.text.length) : pending;
      pending = "";
      return out;
    }
    const out = pending.slice(0, pending.length - tail.text.length);
    pending = tail.text;
    return out;
  };
  return {
    push(delta) {
      pending += delta;
      return take(false);
    },
    end() {
      return take(true);
    },
  };
}
