// The stored snippets an agent is shown (a literature task's extracted items, an analysis task's
// queries with their results), each under a short handle: <item id="S3" …>. A reply cites S3 and the
// handle is resolved back to the stored item (its stored id and URL are aliases: a model that copies
// either still names it); no agent retypes a stored id.
import { estimateTokens, escapeAttr, trimToTokens } from "../../ai/prompts";
import type { Choice } from "../../ai/resolve";
import type { StoredResult } from "../../datasets/numbers";

export interface EvidenceItem {
  id: string;
  taskKey: string;
  content: string;
  url: string;
  /** For a query of an analysis task: its stored result, which the discovery's numbers must come from. */
  result?: StoredResult;
}

export interface ShownItems {
  /** The items as the prompt shows them. */
  text: string;
  shown: EvidenceItem[];
  /** The handle of each shown item (S1 is the first), for resolving the reply's citations. */
  choices: Choice<EvidenceItem>[];
}

/** Tokens of one snippet's content in a prompt. */
const ITEM_TOKENS = 120;

/** The snippets in order (the caller puts the newest level's first) within a token budget, each under its handle. */
export function renderItems(items: EvidenceItem[], budgetTokens: number): ShownItems {
  const lines: string[] = [];
  const choices: Choice<EvidenceItem>[] = [];
  let used = 0;
  for (const item of items) {
    const handle = `S${choices.length + 1}`;
    const line = `<item id="${handle}" task="${escapeAttr(item.taskKey)}" url="${escapeAttr(item.url)}">${trimToTokens(item.content, ITEM_TOKENS)}</item>`;
    if (used + estimateTokens(line) > budgetTokens) break;
    used += estimateTokens(line);
    lines.push(line);
    choices.push({ handle, value: item, aliases: [item.id, ...(item.url ? [item.url] : [])] });
  }
  return { text: lines.join("\n"), shown: choices.map((c) => c.value), choices };
}
