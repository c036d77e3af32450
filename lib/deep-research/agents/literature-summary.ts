// The literature summary of a task: a cited summary of what its tree exploration extracted. Citations
// are snippet ids in brackets; ids that are not among the snippets are removed.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import { renderItems, type EvidenceItem } from "./discovery";

const schema = z.object({
  summary: z.string().describe("A concise summary in Markdown answering the task's objective; cite each claim with snippet ids in brackets, e.g. [abc:0]"),
});

export async function summariseLiterature({ objective, items, budgetTokens, onUsage, signal }: {
  objective: string;
  items: EvidenceItem[];
  budgetTokens: number;
  onUsage?: import("../../ai/usage").UsageSink;
  signal?: AbortSignal;
}): Promise<{ summary: string; citedItemIds: string[] }> {
  const agent = "dr-literature";
  const { text, shown } = renderItems(items, budgetTokens);
  const system = `${agentHeader(agent)}
Summarise what the literature search found for the task's objective. Use only the snippets; cite them by id in brackets.`;
  const out = await generateStructured({ agent, schema, system, prompt: `${tag("objective", objective)}\n${tag("snippets", text)}`, onUsage, signal });
  const known = new Set(shown.map((i) => i.id));
  const cited: string[] = [];
  const summary = out.summary.replace(/\[([^\]\s]+)\]/g, (whole, id: string) => {
    if (!known.has(id)) return "";
    if (!cited.includes(id)) cited.push(id);
    return whole;
  });
  return { summary: summary.trim(), citedItemIds: cited };
}
