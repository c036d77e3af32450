// What of a long source the verifier sees: the whole text when it fits the budget, else its
// paragraphs that share the most words with the sentences being checked, kept in page order. The
// start of a page alone would hide a passage from its second half, and the verdict would be wrong.
import { estimateTokens } from "../ai/prompts";

const words = (text: string) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 3));

export function sourceWindow(text: string, sentences: string[], budgetTokens: number): string {
  if (estimateTokens(text) <= budgetTokens) return text;
  const wanted = words(sentences.join(" "));
  const paragraphs = text.split(/\n+/).map((p, index) => {
    const own = words(p);
    let score = 0;
    for (const w of own) if (wanted.has(w)) score++;
    return { p, index, score };
  });
  const picked: typeof paragraphs = [];
  let used = 0;
  for (const para of [...paragraphs].sort((a, b) => b.score - a.score || a.index - b.index)) {
    const cost = estimateTokens(para.p) + 1;
    if (used + cost > budgetTokens) continue;
    picked.push(para);
    used += cost;
  }
  return picked.sort((a, b) => a.index - b.index).map((x) => x.p).join("\n");
}
