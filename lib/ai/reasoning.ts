// Reasoning output removed from a model's reply before anything reads it. Reasoning models served by
// llama.cpp, vLLM without a reasoning parser, Ollama or LM Studio put their thinking in the content
// itself: `<think>…</think>` (DeepSeek-R1, Qwen3, QwQ), `<thinking>` or `<reasoning>`. It must never
// reach a report, an answer, a message or an export, and a brace in it must not be taken for the
// reply's JSON. (Reasoning in its own field, `reasoning_content`, never becomes text here: only the
// reply's text parts are read.)

const TAGS = "think|thinking|reasoning|reflection";
const BLOCK = new RegExp(`<(${TAGS})\\b[^>]*>[\\s\\S]*?<\\/\\1\\s*>`, "gi");
const OPEN = new RegExp(`<(${TAGS})\\b[^>]*>`, "i");
const CLOSE = new RegExp(`<\\/(${TAGS})\\s*>`, "i");

/**
 * The reply without its reasoning: every closed block; an unclosed block to the end of the text (a reply
 * cut while thinking has no answer yet); and everything before a closing tag without an opening one
 * (templates that put `<think>` in the prompt, so the reply starts inside the block).
 */
export function stripReasoning(text: string): string {
  if (!text.includes("<") || !/<\/?(think|thinking|reasoning|reflection)\b/i.test(text)) return text;
  let out = text.replace(BLOCK, "");
  const open = OPEN.exec(out);
  if (open) out = out.slice(0, open.index);
  const close = CLOSE.exec(out);
  if (close) out = out.slice(close.index + close[0].length);
  return out.replace(/^\s+/, "");
}

/**
 * The same for a stream of deltas: text inside a reasoning block is held back and dropped, a tag split
 * across deltas is recognised, and the white space that follows a block is not handed on.
 */
export function reasoningFilter(): { push(delta: string): string; end(): string } {
  let pending = "";
  let inside: string | null = null;
  let started = false;
  const MAX_TAG = 16;
  const take = (final: boolean): string => {
    let out = "";
    for (;;) {
      if (inside) {
        const close = new RegExp(`<\\/${inside}\\s*>`, "i").exec(pending);
        if (!close) {
          // Keep only what could be the start of the closing tag.
          pending = final ? "" : pending.slice(Math.max(0, pending.length - MAX_TAG));
          return out;
        }
        pending = pending.slice(close.index + close[0].length).replace(/^\s+/, "");
        inside = null;
        continue;
      }
      const open = OPEN.exec(pending);
      if (open) {
        out += pending.slice(0, open.index);
        inside = open[1];
        pending = pending.slice(open.index + open[0].length);
        continue;
      }
      // No opening tag yet: hand on all but a tail that could be the start of one.
      const lt = pending.lastIndexOf("<");
      const hold = !final && lt >= 0 && pending.length - lt < MAX_TAG && /^<\/?[a-z]*$/i.test(pending.slice(lt)) ? pending.length - lt : 0;
      out += pending.slice(0, pending.length - hold);
      pending = pending.slice(pending.length - hold);
      return out;
    }
  };
  const emit = (text: string) => {
    if (!started) {
      text = text.replace(/^\s+/, "");
      if (text) started = true;
    }
    return text;
  };
  return {
    push(delta) {
      pending += delta;
      return emit(take(false));
    },
    end() {
      return emit(take(true));
    },
  };
}
