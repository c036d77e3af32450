// Beast mode: the loop is over (budget, bad attempts, step cap or no progress); answer now from
// everything known, definitively, citing only pages that were read (by their handles, P1…).
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag, today } from "../../ai/prompts";
import { languageOf, languageRule } from "../../ai/language";
import type { UsageSink } from "../../ai/usage";
import { handleField, handlesFor, PAGE_PREFIX, resolveReferences, type NamedReference } from "../actions";
import { knowledgeBlock, pagesBlock, type KnowledgeItem } from "./prompt";

/** The schema for `pages` pages read: a reference names one by handle (the JSON Schema's enum; resolved in code). */
function beastSchema(pages: number) {
  const source = handleField(PAGE_PREFIX, pages, pages > 0 ? `The page read that the quote is from, by its handle (${PAGE_PREFIX}1…)` : "No page was read: leave references empty");
  return z.object({
    answer: z.string().describe("The best definitive answer the knowledge supports"),
    references: z.array(z.object({ source, exactQuote: z.string().describe("A sentence copied exactly from that page") })).describe("The sources of the answer"),
  });
}

export async function beastAnswer({
  question,
  context,
  knowledge,
  pages,
  reason,
  knowledgeTokens,
  budget,
  onUsage,
  signal,
}: {
  question: string;
  context: string;
  knowledge: KnowledgeItem[];
  /** Every page read. */
  pages: { url: string; title: string }[];
  reason: string;
  knowledgeTokens: number;
  budget?: (text: string) => number;
  onUsage?: UsageSink;
  signal?: AbortSignal;
}): Promise<{ answer: string; references: NamedReference[] }> {
  const agent = "answer-beast";
  const system = `${agentHeader(agent)}
Today is ${today()}. The research is over (${reason}). Give your final answer now, from the knowledge you have: commit to the
most likely answer, with no hedging. Cite only pages in your knowledge, by their handles (${PAGE_PREFIX}1, ${PAGE_PREFIX}2…), with sentences copied exactly from them.
${languageRule(languageOf(question), "the question", "the answer")}`;
  const pageChoices = handlesFor(PAGE_PREFIX, pages);
  const prompt = [tag("question", question), context ? tag("conversation", context) : "", knowledgeBlock(knowledge, knowledgeTokens, pageChoices), pagesBlock(pageChoices)].filter(Boolean).join("\n");
  const r = await generateStructured({ agent, schema: beastSchema(pageChoices.length), system, prompt, budget, onUsage, signal });
  return { answer: r.answer.trim(), references: resolveReferences(r.references, pageChoices) };
}
