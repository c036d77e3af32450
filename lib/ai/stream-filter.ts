// A filter of a streamed reply's text (reasoning, a chat format's channels, a wrapping fence): each
// delta is added to what it holds back, and it hands on what it can; at the end, what it still holds
// is decided.
export interface StreamFilter {
  push(delta: string): string;
  end(): string;
}

/** A StreamFilter over a buffer: `take` hands on what it can of `held.text` and leaves there what it holds back. */
export function bufferedFilter(take: (held: { text: string }, final: boolean) => string): StreamFilter {
  const held = { text: "" };
  return {
    push(delta) {
      held.text += delta;
      return take(held, false);
    },
    end() {
      return take(held, true);
    },
  };
}

/**
 * Hands on all that is held but a tail from its last "<" that may still become a tag or token: shorter
 * than `max` and matching `partial` (what such a start looks like). At the end, all of it.
 */
export function handOnBeforeTag(held: { text: string }, final: boolean, max: number, partial: RegExp): string {
  const lt = held.text.lastIndexOf("<");
  const hold = !final && lt >= 0 && held.text.length - lt < max && partial.test(held.text.slice(lt)) ? held.text.length - lt : 0;
  const out = held.text.slice(0, held.text.length - hold);
  held.text = held.text.slice(held.text.length - hold);
  return out;
}
