// The answer agent's step: given the question, the gap it works on, what it knows and the URLs it
// found, it picks one of the actions the schema offers (lib/answer/actions.ts) and says why.
import { generateStructured } from "../../ai/call";
import { agentHeader, tag, today } from "../../ai/prompts";
import type { UsageSink } from "../../ai/usage";
import { actionSchema, MAX_QUERIES, MAX_SUBQUESTIONS, MAX_URLS, type AgentAction } from "../actions";
import type { ActionName } from "../types";
import { knowledgeBlock, listBlock, urlBlock, type KnowledgeItem } from "./prompt";

const HELP: Record<ActionName, string> = {
  search: `search: up to ${MAX_QUERIES} new web search queries (not repeating the searched ones) to find pages that answer the current question.`,
  visit: `visit: up to ${MAX_URLS} of the known URLs to read; their text becomes knowledge you can quote.`,
  reflect: `reflect: up to ${MAX_SUBQUESTIONS} new sub-questions that must be answered first (not repeating any question asked).`,
  answer: "answer: answer the current question, with references: each a URL you have read and a sentence copied exactly from its text. A trivial question (arithmetic, common knowledge) needs no references.",
};

export async function answerAgentStep({
  question,
  gap,
  context,
  knowledge,
  urls,
  queries,
  read,
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
  urls: { url: string; title: string; snippet: string }[];
  queries: string[];
  read: string[];
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
Lessons from rejected answers are in your knowledge: do not repeat their mistakes.`;
  const prompt = [
    tag("question", question),
    gap !== question ? tag("current_question", gap) : "",
    context ? tag("conversation", context) : "",
    knowledgeBlock(knowledge, knowledgeTokens),
    listBlock("searched_queries", queries),
    urlBlock(urls),
    listBlock("read_urls", read),
    listBlock("diary", diary.slice(-10)),
    tag("allowed_actions", allowed.join(", ")),
  ]
    .filter(Boolean)
    .join("\n");
  const reply = await generateStructured({ agent, schema: actionSchema(allowed), system, prompt, budget, onUsage, signal });
  switch (reply.action) {
    case "search":
      return { ...reply, searchQuery: reply.searchQuery.map((q) => q.trim()).filter(Boolean).slice(0, MAX_QUERIES) };
    case "visit":
      return { ...reply, URLTargets: reply.URLTargets.map((u) => u.trim()).filter(Boolean).slice(0, MAX_URLS) };
    case "reflect":
      return { ...reply, questionsToAnswer: reply.questionsToAnswer.map((q) => q.trim()).filter(Boolean).slice(0, MAX_SUBQUESTIONS) };
    case "answer":
      return { ...reply, answer: reply.answer.trim(), references: reply.references.slice(0, 10) };
  }
}
