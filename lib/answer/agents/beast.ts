// Beast mode: the loop is over (budget, bad attempts, step cap or no progress); answer now from
// everything known, definitively, citing only pages that were read.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag, today } from "../../ai/prompts";
import type { UsageSink } from "../../ai/usage";
import { knowledgeBlock, type KnowledgeItem } from "./prompt";

const schema = z.object({
  answer: z.string().describe("The best definitive answer the knowledge supports"),
  references: z
    .array(z.object({ url: z.string().describe("A URL from the knowledge's pages"), exactQuote: z.string().describe("A sentence copied exactly from that page") }))
    .describe("The sources of the answer"),
});

export async function beastAnswer({
  question,
  context,
  knowledge,
  reason,
  knowledgeTokens,
  budget,
  onUsage,
  signal,
}: {
  question: string;
  context: string;
  knowledge: KnowledgeItem[];
  reason: string;
  knowledgeTokens: number;
  budget?: (text: string) => number;
  onUsage?: UsageSink;
  signal?: AbortSignal;
}): Promise<z.infer<typeof schema>> {
  const agent = "answer-beast";
  const system = `${agentHeader(agent)}
Today is ${today()}. The research is over (${reason}). Give your final answer now, from the knowledge you have: commit to the
most likely answer, with no hedging. Cite only pages in your knowledge, with sentences copied exactly from them.`;
  const prompt = [tag("question", question), context ? tag("conversation", context) : "", knowledgeBlock(knowledge, knowledgeTokens)].filter(Boolean).join("\n");
  const r = await generateStructured({ agent, schema, system, prompt, budget, onUsage, signal });
  return { answer: r.answer.trim(), references: r.references.slice(0, 10) };
}
