// The answer agent's step: given the question, the gap it works on, what it knows and the URLs it
// found, it picks one of the actions the schema offers (lib/answer/actions.ts) and says why. URLs to
// read and pages to cite are named by handle (U3, P2), resolved here to the URLs they stand for.
import { generateStructured } from "../../ai/call";
import { agentHeader, tag, today } from "../../ai/prompts";
import { languageOf, languageRule } from "../../ai/language";
import type { UsageSink } from "../../ai/usage";
import { actionSchema, handlesFor, MAX_QUERIES, MAX_SUBQUESTIONS, MAX_URLS, PAGE_PREFIX, resolveAction, URL_PREFIX, type AgentAction } from "../actions";
import type { ActionName } from "../types";
import { knowledgeBlock, listBlock, pagesBlock, urlBlock, type KnowledgeItem } from "./prompt";

const HELP: Record<ActionName, string> = {
  search: `search: up to ${MAX_QUERIES} new web search queries (not repeating the searched ones) to find pages that answer the current question.`,
  visit: `visit: up to ${MAX_URLS} of the known URLs to read, named by their handles (${URL_PREFIX}1, ${URL_PREFIX}2…); their text becomes knowledge you can quote.`,
  reflect: `reflect: up to ${MAX_SUBQUESTIONS} new sub-questions that must be answered first (not repeating any question asked).`,
  answer: `answer: answer the current question, with references: each the handle of a page you have read (${PAGE_PREFIX}1, ${PAGE_PREFIX}2…) and a sentence copied exactly from its text. A trivial question (arithmetic, common knowledge) needs no references.`,
};

export async function answerAgentStep({
  question,
  gap,
  context,
  knowledge,
  urls,
  pages,
  queries,
  diary,
  allowed,
  knowledgeTokens,
  budget,
  onUsage,
  signal,
}: {
  question: string;
  gap: string;
  context: string;
  knowledge: KnowledgeItem[];
  /** The URLs it may read, best first. */
  urls: { url: string; title: string; snippet: string }[];
  /** Every page read so far. */
  pages: { url: string; title: string }[];
  queries: string[];
  diary: string[];
  allowed: ActionName[];
  knowledgeTokens: number;
  budget?: (text: string) => number;
  onUsage?: UsageSink;
  signal?: AbortSignal;
}): Promise<AgentAction> {
  const agent = "answer-agent";
  const system = `${agentHeader(agent)}
Today is ${today()}. You answer a question precisely, with sources. Each step you take exactly one action:
${allowed.map((a) => `- ${HELP[a]}`).join("\n")}
Answer only when your knowledge supports a definitive answer; never hedge. Quotes must be copied exactly from a page in your knowledge.
Lessons from rejected answers are in your knowledge: do not repeat their mistakes.
${languageRule(languageOf(question), "the question", "the answer")}`;
  const urlChoices = handlesFor(URL_PREFIX, urls);
  const pageChoices = handlesFor(PAGE_PREFIX, pages);
  const prompt = [
    tag("question", question),
    gap !== question ? tag("current_question", gap) : "",
    context ? tag("conversation", context) : "",
    knowledgeBlock(knowledge, knowledgeTokens, pageChoices),
    listBlock("searched_queries", queries),
    urlBlock(urlChoices),
    pagesBlock(pageChoices),
    listBlock("diary", diary.slice(-10)),
    tag("allowed_actions", allowed.join(", ")),
  ]
    .filter(Boolean)
    .join("\n");
  const schema = actionSchema(allowed, { urls: urlChoices.length, pages: pageChoices.length });
  const reply = await generateStructured({ agent, schema, system, prompt, budget, onUsage, signal });
  return resolveAction(reply, { urls: urlChoices, pages: pageChoices });
}
