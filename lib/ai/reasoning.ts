// Reasoning output removed from a model's reply before anything reads it. Reasoning models served by
// llama.cpp, vLLM without a reasoning parser, Ollama or LM Studio put their thinking in the content
// itself: `<think>…</think>` (DeepSeek-R1, Qwen3, QwQ), `<thinking>`, `<reasoning>`, `<seed:think>` (Seed-OSS)
// or Mistral's `[THINK]…[/THINK]` (Magistral). It must never
// reach a report, an answer, a message or an export, and a brace in it must not be taken for the
// reply's JSON. (Reasoning in its own field, `reasoning_content`, never becomes text here: only the
// reply's text parts are read.)
//
// A model served without its chat format's parser also leaks the format's special tokens: gpt-oss's
// "harmony" channels (`<|channel|>analysis<|message|>…<|end|><|start|>assistant<|channel|>final<|message|>…
// <|return|>`: the reasoning is the analysis channel, the reply the final one), and end-of-turn tokens
// after a reply (`<|im_end|>`, `<|eot_id|>`, `</s>`, `<end_of_turn>`…): the reply is the final channel's
// text, up to its first end token.
import { bufferedFilter, handOnBeforeTag, type StreamFilter } from "./stream-filter";

const TAGS = "think|thinking|reasoning|reflection|seed:think";
const ANY_TAG = new RegExp(`<\\/?(${TAGS})\\b`, "i");
/** Mistral's reasoning markers (Magistral: `[THINK]…[/THINK]`), read as the tags. */
const BRACKET_THINK = /\[(\/?)THINK\]/g;
const bracketsAsTags = (text: string) => (text.includes("THINK]") ? text.replace(BRACKET_THINK, "<$1think>") : text);
const BLOCK = new RegExp(`<(${TAGS})\\b[^>]*>[\\s\\S]*?<\\/\\1\\s*>`, "gi");
const OPEN = new RegExp(`<(${TAGS})\\b[^>]*>`, "i");
const CLOSE = new RegExp(`<\\/(${TAGS})\\s*>`, "i");

/**
 * The reply without its reasoning: every closed block; an unclosed block to the end of the text (a reply
 * cut while thinking has no answer yet); and everything before a closing tag without an opening one
 * (templates that put `<think>` in the prompt, so the reply starts inside the block).
 */
export function stripReasoning(text: string): string {
  text = bracketsAsTags(text);
  if (!text.includes("<")) return text;
  text = finalChannel(text);
  if (!ANY_TAG.test(text)) return text;
  let out = text.replace(BLOCK, "");
  const open = OPEN.exec(out);
  if (open) out = out.slice(0, open.index);
  const close = CLOSE.exec(out);
  if (close) out = out.slice(close.index + close[0].length);
  return out.replace(/^\s+/, "");
}

/** The start of a harmony reply's final channel (its header may name a format: `<|constrain|>json`). */
const HARMONY_FINAL = /<\|channel\|>\s*final\b[^<]*(?:<\|constrain\|>[^<]*)?<\|message\|>/i;
/** A reply that opens with a harmony header: it is in a channel until its final one begins. */
const HARMONY_START = /^\s*(?:<\|start\|>\s*assistant\s*)?<\|channel\|>/i;
const HARMONY_HEADERS = ["<|start|>assistant<|channel|>", "<|channel|>"];
/** A token that ends the reply (what follows it is no part of it). */
const END_TOKEN = /<\|(?:return|end|call|im_end|eot_id|endoftext|end_of_text|eom_id)\|>|<end_of_turn>/i;
/** Llama 2's and Mistral's end of text, at the reply's end only: elsewhere "</s>" closes Markdown's strikethrough "<s>". */
const TRAILING_EOS = /<\/s>\s*$/;
/** The longest end token or harmony marker, for holding back a part of one split across deltas. */
const MAX_SPECIAL = 48;

/** The reply of a text that leaked its chat format: the final channel's text (if any), up to its first end token. */
function finalChannel(text: string): string {
  if (!text.includes("<|") && !/<\/s>|<end_of_turn>/i.test(text)) return text;
  let out = text;
  const last = [...text.matchAll(new RegExp(HARMONY_FINAL.source, "gi"))].at(-1);
  if (last) out = out.slice(last.index + last[0].length);
  // Only other channels (a reply cut while it reasoned): no reply yet.
  else if (HARMONY_START.test(out)) return "";
  const end = END_TOKEN.exec(out);
  return end ? out.slice(0, end.index) : out.replace(TRAILING_EOS, "");
}

/**
 * finalChannel for a stream of deltas: a reply that opens with a harmony header is held back until its
 * final channel begins; the reply ends at an end token; a marker or token split across deltas is
 * recognised.
 */
function finalChannelFilter(): StreamFilter {
  let state: "detect" | "analysis" | "reply" | "done" = "detect";
  const take = (held: { text: string }, final: boolean): string => {
    if (state === "detect") {
      const head = held.text.trimStart();
      // Undecided while what came is the start of a harmony header.
      if (!final && !HARMONY_START.test(head) && HARMONY_HEADERS.some((h) => h.startsWith(head))) return "";
      state = HARMONY_START.test(head) ? "analysis" : "reply";
    }
    if (state === "analysis") {
      const m = HARMONY_FINAL.exec(held.text);
      if (!m) {
        held.text = final ? "" : held.text.slice(Math.max(0, held.text.length - MAX_SPECIAL));
        return "";
      }
      held.text = held.text.slice(m.index + m[0].length);
      state = "reply";
    }
    if (state === "reply") {
      const end = END_TOKEN.exec(held.text);
      if (end) {
        const out = held.text.slice(0, end.index);
        held.text = "";
        state = "done";
        return out;
      }
      // A "</s>" is held while nothing follows it: the reply's end, or strikethrough if text comes after.
      const eos = TRAILING_EOS.exec(held.text);
      if (eos) {
        const out = held.text.slice(0, eos.index);
        held.text = final ? "" : held.text.slice(eos.index);
        return out;
      }
      return handOnBeforeTag(held, final, MAX_SPECIAL, /^<[|/]?[a-z_]*\|?$/i);
    }
    held.text = "";
    return "";
  };
  return bufferedFilter(take);
}

/**
 * The same for a stream of deltas: text inside a reasoning block (or a harmony channel other than the
 * final one) is held back and dropped, a tag split across deltas is recognised, and the white space
 * that follows a block is not handed on. The white space a reply begins with is dropped too, but for a
 * continuation's (`continuation`): there it is the space between the cut text and what follows it.
 */
export function reasoningFilter({ continuation = false }: { continuation?: boolean } = {}): StreamFilter {
  const brackets = bracketFilter();
  const channel = finalChannelFilter();
  const tags = tagFilter(continuation);
  return {
    push: (delta) => tags.push(channel.push(brackets.push(delta))),
    end: () => tags.push(channel.push(brackets.end()) + channel.end()) + tags.end(),
  };
}

/** Mistral's bracket markers as tags in a stream: a tail that may be the start of one is held until it is known. */
function bracketFilter(): StreamFilter {
  return bufferedFilter((held, final) => {
    held.text = bracketsAsTags(held.text);
    const at = held.text.lastIndexOf("[");
    const hold = !final && at >= 0 && held.text.length - at < 8 && /^\[\/?[A-Z]*$/.test(held.text.slice(at)) ? held.text.length - at : 0;
    const out = held.text.slice(0, held.text.length - hold);
    held.text = held.text.slice(held.text.length - hold);
    return out;
  });
}

function tagFilter(continuation: boolean): StreamFilter {
  let inside: string | null = null;
  let started = continuation;
  const MAX_TAG = 16;
  const take = (held: { text: string }, final: boolean): string => {
    let out = "";
    for (;;) {
      if (inside) {
        const close = new RegExp(`<\\/${inside}\\s*>`, "i").exec(held.text);
        if (!close) {
          // Keep only what could be the start of the closing tag.
          held.text = final ? "" : held.text.slice(Math.max(0, held.text.length - MAX_TAG));
          return out;
        }
        held.text = held.text.slice(close.index + close[0].length).replace(/^\s+/, "");
        inside = null;
        continue;
      }
      const open = OPEN.exec(held.text);
      if (open) {
        out += held.text.slice(0, open.index);
        inside = open[1];
        held.text = held.text.slice(open.index + open[0].length);
        continue;
      }
      // No opening tag yet: hand on all but a tail that could be the start of one.
      return out + handOnBeforeTag(held, final, MAX_TAG, /^<\/?[a-z:]*$/i);
    }
  };
  const emit = (text: string) => {
    if (!started) {
      text = text.replace(/^\s+/, "");
      if (text) started = true;
    }
    return text;
  };
  return bufferedFilter((held, final) => emit(take(held, final)));
}
