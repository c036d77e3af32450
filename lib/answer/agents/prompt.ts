// Prompt blocks the answer agent's calls share: knowledge (pages, answers to sub-questions, lessons
// of rejected answers) trimmed to a token budget, newest kept first, the known URLs and the pages
// read, each shown with the handle a reply names it by (U3, P2: lib/answer/actions.ts).
import type { Choice } from "../../ai/resolve";
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

/** A page's handle from its URL (none: the page is shown without one). */
type HandleOf = (url: string) => string | undefined;

function renderItem(k: KnowledgeItem, handleOf: HandleOf): string {
  if (k.kind === "page") {
    const id = k.url ? handleOf(k.url) : undefined;
    return tag("page", trimToTokens(k.answer, PAGE_TOKENS), { ...(id ? { id } : {}), url: k.url ?? "", title: k.title ?? "" });
  }
  if (k.kind === "lesson") return tag("lesson", k.answer);
  return tag("qa", `Q: ${k.question}\nA: ${k.answer}`, k.url ? { url: k.url } : {});
}

/** The knowledge block within `maxTokens`: the newest items first to stay, shown oldest first; pages with their handle. */
export function knowledgeBlock(items: KnowledgeItem[], maxTokens: number, pages: readonly Choice<{ url: string }>[] = []): string {
  const byUrl = new Map(pages.map((p) => [p.value.url, p.handle]));
  const handleOf: HandleOf = (url) => byUrl.get(url);
  const kept: string[] = [];
  let used = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const text = renderItem(items[i], handleOf);
    const cost = estimateTokens(text);
    if (used + cost > maxTokens) continue;
    kept.unshift(text);
    used += cost;
  }
  // The items are tagged (and escaped) one by one already: wrap them without escaping again.
  return kept.length ? `<knowledge>\n${kept.join("\n")}\n</knowledge>` : "";
}

/** The URLs the agent may read, by handle: `- U3: https://… — title: snippet`. */
export function urlBlock(urls: readonly Choice<{ url: string; title: string; snippet: string }>[]): string {
  return urls.length ? tag("known_urls", urls.map(({ handle, value: u }) => `- ${handle}: ${u.url} — ${u.title}${u.snippet ? `: ${u.snippet.slice(0, 200)}` : ""}`).join("\n")) : "";
}

/** The pages read, by handle (all of them: the knowledge block may show only the newest). */
export function pagesBlock(pages: readonly Choice<{ url: string; title: string }>[]): string {
  return pages.length ? tag("read_pages", pages.map(({ handle, value: p }) => `- ${handle}: ${p.url} — ${p.title}`).join("\n")) : "";
}

export const listBlock = (name: string, items: string[]) => (items.length ? tag(name, items.map((i) => `- ${i}`).join("\n")) : "");
