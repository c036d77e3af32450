// The fake chat-classifier (lib/answer/agents/classifier.ts): decides from the text it is shown, as
// a model would read it. Housekeeping when an instruction — the system prompt, or the first line of
// the last message — asks for a task about the conversation (a title, tags, a summary, follow-ups,
// an emoji, search queries, an autocompletion), in one of a few languages; a question otherwise,
// including a person's own question about a template or log they pasted below it.
import { tagContent } from "./llm-parse";

const TASKS: [RegExp, string][] = [
  [/follow[- ]?up (questions|prompts)|suggest .{0,40}questions/i, "follow_ups"],
  [/\btitle\b|\bheader\b|\bheadline\b|\bname (for |this |the )?(chat|conversation)|标题|タイトル|titel|überschrift|título|titre|заголов/i, "title"],
  [/\btags?\b|\bcategor|标签|schlagw/i, "tags"],
  [/\bsummar(y|ize|ise)|总结|zusammenfass|resum/i, "summary"],
  [/\bemoji/i, "emoji"],
  [/search quer|standalone (question|query)|rephrase|reformul/i, "query_generation"],
  [/autocomplet|continue the text/i, "autocomplete"],
];
/** What a housekeeping instruction is about: the chat, or a message or query to transform. */
const ABOUT_CHAT = /conversation|\bchat\b|chat history|\bquery\b|\bmessage\b|following|对话|会话|unterhaltung|gespräch|abfrage|conversación|consulta/i;
/** A person's own question opening their message. */
const ASKS = /^(can|could|would|what|why|how|which|who|when|where|is|are|does|do|explain|please explain|here is|here's|i found|ich habe|warum|was|wie|welche|¿|por qué|pourquoi|为什么|什么)\b/i;

export function chatClassifierReply(task: string): { kind: string } {
  const system = tagContent(task, "system_prompt") ?? "";
  const last = tagContent(task, "last_message") ?? "";
  const firstLine = last.trim().split("\n")[0] ?? "";
  if (ASKS.test(firstLine.trim()) && !TASKS.some(([re]) => re.test(firstLine))) return { kind: "question" };
  for (const instruction of [firstLine, system]) {
    if (!ABOUT_CHAT.test(instruction)) continue;
    const hit = TASKS.find(([re]) => re.test(instruction));
    if (hit) return { kind: hit[1] };
  }
  return { kind: "question" };
}
