import { z } from "zod";
import { generateStructured } from "../ai/call";
import { StructuredOutputError } from "../ai/errors";
import { agentHeader, estimateTokens, qaBlock, tag, today, trimToTokens, type QA } from "../ai/prompts";
import type { UsageSink } from "../ai/usage";
import type { WaitOptions } from "../concurrency";

const schema = z.object({
  queries: z
    .array(
      z.object({
        query: z.string().describe("A web search query, as one would type it into a search engine"),
        objective: z.string().describe("What to extract from the pages this query finds, and why it matters for the research"),
      }),
    )
    .describe("The search queries"),
});

export type SerpQueryDraft = z.infer<typeof schema>["queries"][number];

export interface ChainLink {
  query: string;
  objective: string;
  learnings: { content: string; url: string }[];
}

/**
 * Renders the parent chain (root first) within a token budget. The farthest ancestors are trimmed
 * first: the parent's own learnings matter most for its children.
 */
export function renderChain(chain: ChainLink[], budgetTokens: number): { text: string; trimmed: number } {
  const blocks: string[] = [];
  let used = 0;
  let trimmed = 0;
  for (let i = chain.length - 1; i >= 0; i--) {
    const link = chain[i];
    const learnings = link.learnings.map((l) => `- ${l.content} (${l.url})`).join("\n") || "(nothing extracted)";
    const label = i === chain.length - 1 ? "parent" : `ancestor ${chain.length - 1 - i}`;
    const full = tag("query", `Query: ${link.query}\nObjective: ${link.objective}\nLearnings:\n${learnings}`, { level: label });
    const remaining = budgetTokens - used;
    if (estimateTokens(full) <= remaining) {
      blocks.unshift(full);
      used += estimateTokens(full);
    } else if (remaining > 200) {
      blocks.unshift(
        tag("query", `Query: ${link.query}\nObjective: ${link.objective}\nLearnings (trimmed):\n${trimToTokens(learnings, remaining - 100)}`, { level: label }),
      );
      used = budgetTokens;
      trimmed++;
    } else {
      trimmed++;
    }
  }
  return { text: blocks.join("\n"), trimmed };
}

/** The Query Generator Agent: exactly `count` queries with objectives. */
export async function generateSerpQueries({
  prompt,
  qa,
  chain = [],
  count,
  contextBudgetTokens,
  onUsage,
  signal,
  schedule,
}: {
  prompt: string;
  qa: QA[];
  chain?: ChainLink[];
  count: number;
  contextBudgetTokens: number;
  onUsage?: UsageSink;
  signal?: AbortSignal;
  schedule?: WaitOptions;
}): Promise<SerpQueryDraft[]> {
  const agent = "query-generator";
  const rendered = renderChain(chain, contextBudgetTokens);
  const trimNote =
    rendered.trimmed > 0
      ? `\nThe research chain was too long to show in full: the ${rendered.trimmed} farthest ancestor(s) are trimmed or left out; the nearest are complete.`
      : "";
  const system = `${agentHeader(agent)}
Today is ${today()}. You plan web searches for a research report. Write exactly the number of search queries asked
for; each must be distinct, specific and likely to find primary, factual sources, with an objective that says what
to extract. ${chain.length ? "You are going deeper into one branch of the research: build on the learnings of the parent chain, fill its gaps and follow its most promising leads; do not repeat its queries." : "Cover the main aspects of the prompt and the researcher's clarifications."}${trimNote}`;
  const user = [
    tag("prompt", prompt),
    qaBlock(qa),
    chain.length ? tag("parent_chain", rendered.text) : "",
    tag("count", String(count)),
  ]
    .filter(Boolean)
    .join("\n");

  const result = await generateStructured({ agent, schema, system, prompt: user, onUsage, signal, schedule });
  const seen = new Set(chain.map((c) => c.query.toLowerCase()));
  const queries = result.queries
    .map((q) => ({ query: q.query.trim(), objective: q.objective.trim() }))
    .filter((q) => q.query && !seen.has(q.query.toLowerCase()) && (seen.add(q.query.toLowerCase()), true));
  if (queries.length >= count) return queries.slice(0, count);

  // Top up a short answer once, then fall back to objectives of the queries we have.
  const topUp = await generateStructured({
    agent,
    schema,
    system,
    prompt: `${user}\n${tag("already_planned", queries.map((q) => q.query).join("\n"))}\nWrite ${count - queries.length} more, different queries.`,
    onUsage,
    signal,
    schedule,
  });
  for (const q of topUp.queries) {
    const text = q.query.trim();
    if (queries.length < count && text && !seen.has(text.toLowerCase())) {
      seen.add(text.toLowerCase());
      queries.push({ query: text, objective: q.objective.trim() });
    }
  }
  if (queries.length < count) {
    throw new StructuredOutputError(agent, `planned ${queries.length} of ${count} queries`);
  }
  return queries;
}
