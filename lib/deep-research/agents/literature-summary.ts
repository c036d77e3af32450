// The literature summary of a task: a cited summary of what its tree exploration extracted. The
// snippets are shown by handle (S1, S2 …) and cited so in brackets; each citation is resolved to its
// stored snippet and written back as the snippet's stored id ([<item id>], as the task's output keeps
// it). Citations that name no snippet shown are removed.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import type { Choice } from "../../ai/resolve";
import type { UsageSink } from "../../ai/usage";
import { canonicalCitations } from "../../report-citations";
import { resolveCitations } from "./choices";
import { renderItems, type EvidenceItem } from "./snippets";

const schema = z.object({
  summary: z.string().describe("A concise summary in Markdown answering the task's objective; cite each claim with the handles of its snippets in brackets, e.g. [S2]"),
});

export async function summariseLiterature({ objective, items, budgetTokens, onUsage, signal }: {
  objective: string;
  items: EvidenceItem[];
  budgetTokens: number;
  onUsage?: UsageSink;
  signal?: AbortSignal;
}): Promise<{ summary: string; citedItemIds: string[] }> {
  const agent = "dr-literature";
  const { text, choices } = renderItems(items, budgetTokens);
  const system = `${agentHeader(agent)}
Summarise what the literature search found for the task's objective. Use only the snippets; cite them by handle in brackets (e.g. [S1]).`;
  const out = await generateStructured({ agent, schema, system, prompt: `${tag("objective", objective)}\n${tag("snippets", text)}`, onUsage, signal });
  return citedSummary(out.summary, choices);
}

/** The summary with its citations as stored snippet ids, and those ids in the order first cited. */
export function citedSummary(summary: string, choices: readonly Choice<EvidenceItem>[]): { summary: string; citedItemIds: string[] } {
  const { text, cited } = resolveCitations(canonicalCitations(summary, "S", choices.length), choices, (items) => items.map((c) => `[${c.value.id}]`).join(""));
  return { summary: text.trim(), citedItemIds: cited.map((c) => c.value.id) };
}
