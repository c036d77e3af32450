// Reading the product's prompts: agent names from the system message, XML-style tags from the user
// message (the product escapes nested closing tags as "< /name>"), sources with their URLs.

export interface ChatMessage {
  role: string;
  content: string | { type: string; text?: string }[] | null;
}

export function messageText(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (!Array.isArray(message.content)) return "";
  return message.content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

/**
 * `You are Quarry's <name> agent.` on the first line of the system message (or, for the bench's lean
 * peer, `You are the bench peer's <name> agent.`), else "unknown".
 */
export function agentOf(messages: ChatMessage[]): string {
  // With no system message, a system prompt sent at the head of the first user message (as to a chat
  // template that takes none).
  const system = messages.find((m) => m.role === "system" || m.role === "developer") ?? messages.find((m) => m.role === "user");
  const firstLine = system ? messageText(system).split("\n", 1)[0] : "";
  return /^You are (?:Quarry's|the bench peer's) ([\w-]+) agent\./.exec(firstLine.trim())?.[1] ?? "unknown";
}

/** The first user message: the task. Later user messages are repair requests for the same task. */
export function taskText(messages: ChatMessage[]): string {
  const user = messages.find((m) => m.role === "user");
  return user ? messageText(user) : "";
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function unescapeAttr(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** Content and attributes of the first <name …>…</name> element, trimmed. */
export function tagOf(text: string, name: string): { content: string; attrs: Record<string, string> } | undefined {
  const n = escapeRegex(name);
  const match = new RegExp(`<${n}((?:\\s+[\\w-]+="[^"]*")*)\\s*>([\\s\\S]*?)(?:<\\s?/${n}>|$)`).exec(text);
  if (!match) return undefined;
  const attrs: Record<string, string> = {};
  for (const [, key, value] of match[1].matchAll(/([\w-]+)="([^"]*)"/g)) attrs[key] = unescapeAttr(value);
  return { content: match[2].trim(), attrs };
}

export function tagContent(text: string, name: string): string | undefined {
  return tagOf(text, name)?.content;
}

export function intTag(text: string, name: string, fallback: number): number {
  const value = Number.parseInt(tagContent(text, name) ?? "", 10);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** The first `count` words of a text, lower-case, without punctuation. */
export function firstWords(text: string, count: number): string {
  const words = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  return words.slice(0, count).join(" ") || "the topic";
}

export interface SourcedFact {
  fact: string;
  url: string;
}

/**
 * Facts with their URLs from <source url="…"> elements (one fact per "- " line) and from
 * "- fact (url)" lines elsewhere, e.g. inside <branch_summary>.
 */
export function sourcedFacts(text: string): SourcedFact[] {
  const out: SourcedFact[] = [];
  const sourceRe = /<source\s+url="([^"]*)"[^>]*>([\s\S]*?)(?:<\s?\/source>|(?=<source\s)|(?=<\s?\/[a-z_]+>)|$)/g;
  let rest = text;
  for (const [whole, rawUrl, body] of text.matchAll(sourceRe)) {
    const url = unescapeAttr(rawUrl);
    const lines = body.split("\n").map((l) => l.trim()).filter(Boolean);
    const bullets = lines.filter((l) => /^[-*]\s+/.test(l)).map((l) => l.replace(/^[-*]\s+/, ""));
    for (const fact of bullets.length ? bullets : [lines.join(" ")]) if (fact) out.push({ fact, url });
    rest = rest.replace(whole, "");
  }
  for (const line of rest.split("\n")) {
    const match = /^\s*[-*]\s+(.+?)\s*\(?\s*(https?:\/\/[^\s)]+)\s*\)?\s*\.?\s*$/.exec(line);
    if (match) out.push({ fact: match[1].replace(/[\s—:-]+$/, ""), url: match[2] });
  }
  return out;
}

/**
 * Sentences of a page text, exactly as they appear in it. Lines without a full stop at the end or
 * with "·" separators are page furniture (bylines, thread stats), not statements.
 */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z0-9“"])/))
    .map((s) => s.trim())
    .filter((s) => s.length >= 30 && s.length <= 600 && /[.!?][”"]?$/.test(s) && !/[·|]/.test(s) && s.split(/\s+/).length >= 6);
}
