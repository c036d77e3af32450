// Prompt blocks the answer agent's calls share: knowledge (pages, answers to sub-questions, lessons
// of rejected answers) trimmed to a token budget, newest kept first, and the known URLs.
import { estimateTokens, tag, trimToTokens } from "../../ai/prompts";

export interface KnowledgeItem {
  question: string;
  answer: string;
  kind: "answer" | "page" | "lesson" | "search";
  url?: string;
  title?: string;
}

/** One page's text in a prompt is cut to this. */
export const PAGE_TOKENS = 1_500;

function renderItem(k: KnowledgeItem): string {
  if (k.kind === "page") return tag("page", trimToTokens(k.answer, PAGE_TOKENS), { url: k.url ?? "", title: k.title ?? "" });
  if (k.kind === "lesson") return tag("lesson", k.answer);
  return tag("qa", `Q: ${k.question}\nA: ${k.answer}`, k.url ? { url: k.url } : {});
}

/** The knowledge block within `maxTokens`: the newest items first to stay, shown oldest first. */
export function knowledgeBlock(items: KnowledgeItem[], maxTokens: number): string {
  const kept: string[] = [];
  let used = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const text = renderItem(items[i]);
    const cost = estimateTokens(text);
    if (used + cost > maxTokens) continue;
    kept.unshift(text);
    used += cost;
  }
  // The items are tagged (and escaped) one by one already: wrap them without escaping again.
  return kept.length ? `<knowledge>\n${kept.join("\n")}\n</knowledge>` : "";
}

export function urlBlock(urls: { url: string; title: string; snippet: string }[]): string {
  return urls.length ? tag("known_urls", urls.map((u) => `- ${u.url} — ${u.title}: ${u.snippet.slice(0, 200)}`).join("\n")) : "";
}

export const listBlock = (name: string, items: string[]) => (items.length ? tag(name, items.map((i) => `- ${i}`).join("\n")) : "");
