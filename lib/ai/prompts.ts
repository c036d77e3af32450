// Prompt helpers: token estimates, trimming to a budget, and XML-style tags around user and
// scraped content so that the model can tell instructions from data.

import { CHARS_PER_TOKEN, estimatedTokens } from "./usage";

/** A conservative estimate (≈4 characters per token for English); good enough for budgets. */
export function estimateTokens(text: string): number {
  return estimatedTokens(text.length);
}

export function trimToTokens(text: string, maxTokens: number): string {
  const maxChars = maxTokens * CHARS_PER_TOKEN;
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const lastBreak = Math.max(cut.lastIndexOf("\n"), cut.lastIndexOf(". "));
  return `${lastBreak > maxChars * 0.8 ? cut.slice(0, lastBreak + 1) : cut} […]`;
}

export function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** Neutralises closing tags inside content so that data cannot close our tags. */
export function escapeContent(value: string): string {
  return value.replace(/<\/(?=[a-z_]+>)/gi, "< /");
}

export function tag(name: string, content: string, attrs: Record<string, string> = {}): string {
  const attributes = Object.entries(attrs)
    .map(([key, value]) => ` ${key}="${escapeAttr(value)}"`)
    .join("");
  return `<${name}${attributes}>\n${escapeContent(content)}\n</${name}>`;
}

export function agentHeader(agent: string): string {
  return `You are Quarry's ${agent} agent.`;
}

export interface QA {
  question: string;
  answer: string;
}

export function qaBlock(qa: QA[]): string {
  if (qa.length === 0) return "";
  return tag(
    "clarifications",
    qa.map((item, i) => `Q${i + 1}: ${item.question}\nA${i + 1}: ${item.answer || "(no answer)"}`).join("\n\n"),
  );
}

export const today = () => new Date().toISOString().slice(0, 10);
