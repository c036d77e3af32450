// The prompt templates chat clients send for their own housekeeping (a chat's title, tags, follow-up
// suggestions, an emoji, search queries, an autocompletion) and to wrap a question in the context
// they retrieved (RAG), read from each client's sources (their current and earlier versions; the
// bodies they send are test/fixtures/chat-clients/). A template is known by its fixed text: the
// message must begin with its first part and hold the others in order (and end with its ending),
// white space and case aside. A question that merely quotes such a template (a pasted prompt) does
// not begin with it, so it is not taken for one: what no template settles goes to the classifier
// (lib/answer/task.ts).

export const HOUSEKEEPING = ["title", "tags", "summary", "follow_ups", "emoji", "query_generation", "autocomplete", "image_prompt", "other"] as const;
export type Housekeeping = (typeof HOUSEKEEPING)[number];

export interface KnownTemplate {
  id: string;
  client: string;
  does: Housekeeping | "rag";
  /** Where the client puts it: the last user message, the first system message, or either. */
  in: "user" | "system" | "either";
  /** Its fixed parts, in order; the message begins with the first (a RAG template: at a line's beginning). */
  parts: string[];
  /** What the message ends with, where the template ends the message. */
  ends?: string;
  /** A RAG template's context block: the tags around it (none: the whole message is the context). */
  contextTags?: [string, string];
}

const CHAT_HISTORY = ["<chat_history>"];

export const TEMPLATES: KnownTemplate[] = [
  // Open WebUI (backend/open_webui/config.py; the frontend's defaults before 0.3).
  { id: "open-webui/title", client: "Open WebUI", does: "title", in: "user", parts: ["### Task: Generate a concise title summarizing the chat history.", ...CHAT_HISTORY], ends: "</chat_history>" },
  { id: "open-webui/title-emoji", client: "Open WebUI", does: "title", in: "user", parts: ["### Task: Generate a concise, 3-5 word title with an emoji summarizing the chat history.", ...CHAT_HISTORY], ends: "</chat_history>" },
  { id: "open-webui/title-0.4", client: "Open WebUI", does: "title", in: "user", parts: ["Create a concise, 3-5 word title with an emoji as a title for the chat history", ...CHAT_HISTORY], ends: "</chat_history>" },
  { id: "open-webui/title-0.2", client: "Open WebUI", does: "title", in: "user", parts: ["Create a concise, 3-5 word phrase as a header for the following query, strictly adhering to the 3-5 word limit and avoiding the use of the word 'title'"] },
  { id: "open-webui/tags", client: "Open WebUI", does: "tags", in: "user", parts: ["### Task: Generate 1-3 broad tags categorizing the main themes of the chat history", ...CHAT_HISTORY], ends: "</chat_history>" },
  { id: "open-webui/follow-ups", client: "Open WebUI", does: "follow_ups", in: "user", parts: ["### Task: Suggest 3-5 relevant follow-up questions or prompts", ...CHAT_HISTORY], ends: "</chat_history>" },
  { id: "open-webui/queries", client: "Open WebUI", does: "query_generation", in: "user", parts: ["### Task: Analyze the chat history to determine the necessity of generating search queries", ...CHAT_HISTORY], ends: "</chat_history>" },
  { id: "open-webui/image-prompt", client: "Open WebUI", does: "image_prompt", in: "user", parts: ["### Task: Generate a detailed prompt for am image generation task", ...CHAT_HISTORY], ends: "</chat_history>" },
  { id: "open-webui/autocomplete", client: "Open WebUI", does: "autocomplete", in: "user", parts: ["### Task: You are an autocompletion system.", "<chat_history>", "</chat_history>", "<type>", "<text>"], ends: "#### Output:" },
  { id: "open-webui/emoji", client: "Open WebUI", does: "emoji", in: "user", parts: ["Your task is to reflect the speaker's likely facial expression through a fitting emoji.", "Message: ```"], ends: "```" },
  // An administrator's own version of a task template keeps its frame: a task, then the chat history it is about.
  { id: "open-webui/task", client: "Open WebUI", does: "other", in: "user", parts: ["### Task:", ...CHAT_HISTORY], ends: "</chat_history>" },
  { id: "open-webui/rag", client: "Open WebUI", does: "rag", in: "either", parts: ["### Task: Respond to the user query using the provided context", "<context>", "</context>"], contextTags: ["<context>", "</context>"] },

  // LibreChat (api/app/clients/OpenAIClient.js titleConvo; @librechat/agents src/utils/title.ts).
  { id: "librechat/title-legacy", client: "LibreChat", does: "title", in: "either", parts: ["Please generate a concise, 5-word-or-less title for the conversation"], ends: "||>Title:" },
  { id: "librechat/title-completion", client: "LibreChat", does: "title", in: "either", parts: ["Provide a concise, 5-word-or-less title for the conversation, using title case conventions. Only return the title itself.", "Conversation:"] },
  { id: "librechat/title-structured", client: "LibreChat", does: "title", in: "either", parts: ["Analyze this conversation and provide: 1. The detected language of the conversation 2. A concise title in the detected language"] },
  { id: "librechat/title-langchain", client: "LibreChat", does: "title", in: "system", parts: ["Write a concise title for this conversation in the given language."] },

  // LobeChat (src/chains/, later packages/prompts/src/chains/).
  { id: "lobechat/title-zh", client: "LobeChat", does: "title", in: "system", parts: ["你是一名擅长会话的助理，你需要将用户的会话总结为 10 个字以内的标题"] },
  { id: "lobechat/title", client: "LobeChat", does: "title", in: "system", parts: ["You are a professional conversation summarizer. Generate a concise title that captures the essence of the conversation."] },
  { id: "lobechat/tags-zh", client: "LobeChat", does: "tags", in: "system", parts: ["你是一名擅长会话标签总结的助理"] },
  { id: "lobechat/emoji-zh", client: "LobeChat", does: "emoji", in: "system", parts: ["你是一名擅长进行概念抽象的设计师与 Emoji 专家"] },
  { id: "lobechat/emoji", client: "LobeChat", does: "emoji", in: "system", parts: ["You are an emoji expert who selects the most appropriate emoji to represent concepts, emotions, or topics."] },
  { id: "lobechat/rewrite-query", client: "LobeChat", does: "query_generation", in: "system", parts: ["Given the following conversation and a follow-up question, rephrase the follow up question to be a standalone question", "<chatHistory>"] },
  { id: "lobechat/summary-history", client: "LobeChat", does: "summary", in: "system", parts: ["You're an assistant who's good at extracting key takeaways from conversations and summarizing them."] },
  { id: "lobechat/topic-summary", client: "LobeChat", does: "summary", in: "system", parts: ["Summarize the conversation for future reference."] },

  // Chatbox (src/renderer/packages/prompts.ts).
  { id: "chatbox/name", client: "Chatbox", does: "title", in: "either", parts: ["Name the conversation based on the chat records."], ends: "The conversation is named:" },
  { id: "chatbox/name-2025", client: "Chatbox", does: "title", in: "either", parts: ["Based on the chat history, give this conversation a name."], ends: "The name is:" },

  // Page Assist (src/services/title.ts, src/services/ollama.ts).
  { id: "page-assist/title", client: "Page Assist", does: "title", in: "user", parts: ["Here is the query:", "Create a concise, 3-5 word phrase as a title for the previous query."], ends: "Response:" },
  { id: "page-assist/search-query", client: "Page Assist", does: "query_generation", in: "either", parts: ["You will rephrase follow-up questions into concise, standalone search queries"] },
  { id: "page-assist/rag-question", client: "Page Assist", does: "query_generation", in: "either", parts: ["Given the following conversation and a follow up question, rephrase the follow up question to be a standalone question."] },
  { id: "page-assist/rag", client: "Page Assist", does: "rag", in: "system", parts: ["You are a helpful AI assistant. Use the following pieces of context to answer the question at the end."] },
  { id: "page-assist/web-search", client: "Page Assist", does: "rag", in: "system", parts: ["You are an AI model who is expert at searching the web and answering user's queries.", "<search-results>", "</search-results>"], contextTags: ["<search-results>", "</search-results>"] },
];

/** White space collapsed and case folded: templates reach us re-indented, re-wrapped and re-cased. */
export const normal = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/** The end of the template's parts in the (normal) text, found in order from `from`; undefined when one is missing or the first is not at `from` (unless `anywhere`). */
function partsEnd(text: string, parts: string[], anywhere: boolean): number | undefined {
  let at = 0;
  for (const [i, part] of parts.map(normal).entries()) {
    const found = text.indexOf(part, at);
    if (found < 0 || (i === 0 && !anywhere && found !== 0)) return undefined;
    at = found + part.length;
  }
  return at;
}

/**
 * Whether a message is this template: it begins with it and ends as it does. A RAG template may
 * stand anywhere in its message (Open WebUI puts it before or after the question): taking a pasted
 * one for the real thing only means the question is researched, which it is anyway.
 */
export function matches(template: KnownTemplate, message: string): boolean {
  const text = normal(message);
  if (template.ends && !text.endsWith(normal(template.ends))) return false;
  return partsEnd(text, template.parts, template.does === "rag") !== undefined;
}

/** A RAG template's parts in the message: the context block and the question it wraps (empty when the question is another message). */
export function ragParts(template: KnownTemplate, message: string): { context: string; question: string } {
  const query = /<user_query>\s*([\s\S]*?)\s*<\/user_query>/.exec(message)?.[1];
  if (!template.contextTags) return { context: message.trim(), question: query ?? "" };
  const [open, close] = template.contextTags;
  const from = message.indexOf(open);
  const to = message.lastIndexOf(close);
  if (from < 0 || to < from) return { context: message.trim(), question: query ?? "" };
  const context = message.slice(from + open.length, to).trim();
  if (query !== undefined) return { context, question: query };
  // The question is what is not the template: before it (Open WebUI appends it) or after its context (prepends it).
  const start = message.toLowerCase().indexOf(template.parts[0].split(/\s+/).slice(0, 2).join(" ").toLowerCase());
  const head = start > 0 ? message.slice(0, start) : "";
  const tail = message.slice(to + close.length);
  return { context, question: `${head}\n${tail}`.trim() };
}
