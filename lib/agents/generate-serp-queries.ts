import { z } from "zod";
import { generateStructured } from "../ai/call";
import { StructuredOutputError } from "../ai/errors";
import { agentHeader, estimateTokens, qaBlock, tag, today, trimToTokens, type QA } from "../ai/prompts";
import type { UsageSink } from "../ai/usage";
import type { WaitOptions } from "../concurrency";
import { wordsKey } from "../validation/text";

const schema = z.object({
  queries: z
    .array(
      // Small models write the list as the queries alone (["grid battery revenue", …]): each is kept,
      // its own text its objective, rather than the plan lost to repairs.
      z.preprocess(
        (item) => (typeof item === "string" ? { query: item, objective: item } : item),
        z.object({
          query: z.string().describe("A web search query, as one would type it into a search engine"),
          objective: z.string().describe("What to extract from the pages this query finds, and why it matters for the research"),
        }),
      ),
    )
    .describe("The search queries"),
});

export type SerpQueryDraft = z.infer<typeof schema>["queries"][number];

export interface ChainLink {
  query: string;
  objective: string;
  learnings: { content: string; url: string }[];
}

/** Learnings shown of the parent, and of each farther ancestor, in the digest of a chain. */
export const DIGEST_PARENT_LEARNINGS = 16;
export const DIGEST_ANCESTOR_LEARNINGS = 6;


/**
 * A bounded digest of the parent chain (root first) for planning a query's children: each link's
 * query and objective, and its distinct learnings, at most DIGEST_PARENT_LEARNINGS of the parent and
 * DIGEST_ANCESTOR_LEARNINGS of each ancestor, picked round-robin over its pages. A learning already
 * shown for a nearer link is not shown again, and each URL is written once (under the first link
 * that shows it; later learnings of it cite it as "[n]"). The whole stays within `budgetTokens`,
 * the farthest ancestors trimmed first. It used to be the whole chain with a URL per learning: 5,491
 * tokens of a 6,132-token prompt at depth 5.
 */
export function renderChain(chain: ChainLink[], budgetTokens: number): { text: string; trimmed: number } {
  const shown = new Set<string>();
  const urls = new Map<string, number>();
  const picked: { link: ChainLink; label: string; lines: string[]; left: number }[] = [];
  for (let i = chain.length - 1; i >= 0; i--) {
    const link = chain[i];
    const parent = i === chain.length - 1;
    const cap = parent ? DIGEST_PARENT_LEARNINGS : DIGEST_ANCESTOR_LEARNINGS;
    // Round-robin over the link's pages: the digest covers its sources before it repeats one.
    const byUrl = new Map<string, string[]>();
    for (const l of link.learnings) {
      const key = wordsKey(l.content);
      if (!key || shown.has(key)) continue;
      shown.add(key);
      byUrl.set(l.url, [...(byUrl.get(l.url) ?? []), l.content]);
    }
    const lines: string[] = [];
    const queues = [...byUrl.entries()];
    let distinct = 0;
    for (const [, items] of queues) distinct += items.length;
    for (let round = 0; lines.length < cap && queues.some(([, items]) => items.length > round); round++) {
      for (const [url, items] of queues) {
        if (lines.length >= cap) break;
        if (round >= items.length) continue;
        let ref = urls.get(url);
        const first = ref === undefined;
        if (first) urls.set(url, (ref = urls.size + 1));
        lines.push(`- ${items[round]} [${ref}${first ? `: ${url}` : ""}]`);
      }
    }
    picked.unshift({ link, label: parent ? "parent" : `ancestor ${chain.length - 1 - i}`, lines, left: distinct - lines.length });
  }

  const blocks: string[] = [];
  let used = 0;
  let trimmed = 0;
  for (let i = picked.length - 1; i >= 0; i--) {
    const { link, label, lines, left } = picked[i];
    const more = left > 0 ? `\n(${left} more learning(s) not shown)` : "";
    const learnings = (lines.join("\n") || "(nothing new extracted)") + more;
    const full = tag("query", `Query: ${link.query}\nObjective: ${link.objective}\nLearnings:\n${learnings}`, { level: label });
    const remaining = budgetTokens - used;
    if (estimateTokens(full) <= remaining) {
      blocks.unshift(full);
      used += estimateTokens(full);
    } else if (remaining > 200) {
      blocks.unshift(tag("query", `Query: ${link.query}\nObjective: ${link.objective}\nLearnings (trimmed):\n${trimToTokens(learnings, remaining - 100)}`, { level: label }));
      used = budgetTokens;
      trimmed++;
    } else {
      trimmed++;
    }
  }
  return { text: blocks.join("\n"), trimmed };
}

/** How many times a short or repetitive reply is followed by a request for the missing queries. */
export const QUERY_REPAIR_ROUNDS = 3;

/**
 * The model could not plan `count` distinct queries, even after QUERY_REPAIR_ROUNDS requests for the
 * missing ones. `queries` holds the distinct ones it did plan (possibly none): the runner goes on with
 * them and records the message as a research warning.
 */
export class QueryShortfallError extends StructuredOutputError {
  constructor(
    readonly queries: SerpQueryDraft[],
    readonly count: number,
    repairRounds: number,
  ) {
    super("query-generator", `planned ${queries.length} of ${count} queries`);
    this.name = "QueryShortfallError";
    this.message = `The query generator planned ${queries.length} of ${count} queries after ${repairRounds} repair attempts`;
  }
}

/** The text queries are compared by: case, whitespace and punctuation do not make a query new. */
export function normaliseQuery(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * A query's children from the follow-up searches its pages' reads proposed (per page, in the query's
 * order of pages): round-robin over the pages, so that its children follow different sources, each
 * distinct from the others and from the queries of its chain (`taken`). At most `count`; fewer when the
 * reads proposed fewer distinct ones (the Query Generator plans them then).
 */
export function chooseFollowUps(proposed: SerpQueryDraft[][], count: number, taken: string[]): SerpQueryDraft[] {
  const seen = new Set(taken.map(normaliseQuery));
  const chosen: SerpQueryDraft[] = [];
  for (let round = 0; chosen.length < count && proposed.some((list) => list.length > round); round++) {
    for (const list of proposed) {
      const draft = list[round];
      const key = draft && normaliseQuery(draft.query);
      if (!key || seen.has(key) || chosen.length >= count) continue;
      seen.add(key);
      chosen.push(draft);
    }
  }
  return chosen;
}

/** The Query Generator Agent: exactly `count` distinct queries with objectives, or QueryShortfallError. */
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
      ? `The research chain was too long to show in full: the ${rendered.trimmed} farthest ancestor(s) are trimmed or left out; the nearest are complete.`
      : "";
  // Stable text first (system prompt, then the research's prompt and answers), the branch's part last:
  // providers cache a prompt's common prefix.
  const system = `${agentHeader(agent)}
Today is ${today()}. You plan web searches for a research report. Write exactly the number of search queries asked
for; each must be distinct, specific and likely to find primary, factual sources, with an objective that says what
to extract. ${chain.length ? "You are going deeper into one branch of the research: build on the learnings of the parent chain (a digest: distinct learnings, each source's URL given once and then cited by its number), fill its gaps and follow its most promising leads; do not repeat its queries." : "Cover the main aspects of the prompt and the researcher's clarifications."}`;
  const user = [
    tag("prompt", prompt),
    qaBlock(qa),
    chain.length ? tag("parent_chain", rendered.text) : "",
    trimNote,
    tag("count", String(count)),
  ]
    .filter(Boolean)
    .join("\n");

  const queries: SerpQueryDraft[] = [];
  // The parent chain's queries count as taken: a child that repeats its ancestor finds nothing new.
  const seen = new Set(chain.map((c) => normaliseQuery(c.query)));
  // Rejected texts as the model wrote them, once each, to show it what not to write again.
  const rejected = new Map<string, string>();

  for (let round = 0; round <= QUERY_REPAIR_ROUNDS && queries.length < count; round++) {
    const result = await generateStructured({
      agent,
      schema,
      system,
      prompt: round === 0 ? user : repairPrompt(user, queries, [...rejected.values()], count - queries.length, chain.length > 0),
      onUsage,
      signal,
      schedule,
    });
    for (const draft of result.queries) {
      const query = draft.query.trim();
      const key = normaliseQuery(query);
      if (!key || queries.length >= count) continue;
      if (seen.has(key)) {
        if (!rejected.has(key)) rejected.set(key, query);
        continue;
      }
      seen.add(key);
      queries.push({ query, objective: draft.objective.trim() });
    }
  }
  if (queries.length < count) throw new QueryShortfallError(queries, count, QUERY_REPAIR_ROUNDS);
  return queries;
}

/** At most this many rejected queries are quoted back: enough to show the pattern, bounded in tokens. */
const MAX_REJECTED_SHOWN = 20;

/**
 * Asks for the missing queries. The <count> tag keeps the total; "Write N more" says how many are
 * still needed, and the model sees which it already has and which were rejected as repeats.
 */
function repairPrompt(user: string, planned: SerpQueryDraft[], rejected: string[], missing: number, hasChain: boolean): string {
  const parts = [user];
  if (planned.length) parts.push(tag("already_planned", planned.map((q) => q.query).join("\n")));
  if (rejected.length) parts.push(tag("rejected_duplicates", rejected.slice(-MAX_REJECTED_SHOWN).join("\n")));
  const others = [planned.length ? "the already planned queries" : "", hasChain ? "the queries of the parent chain" : "", rejected.length ? "the rejected duplicates" : ""].filter(Boolean);
  const differ = others.length ? ` Each must differ in substance (not only in case, spacing or punctuation) from ${new Intl.ListFormat("en").format(others)}.` : "";
  const what = missing === 1 ? "query, with its objective" : "queries, each with an objective";
  parts.push(`Write ${missing} ${planned.length ? "more, different " : ""}${what}.${differ}`);
  return parts.join("\n");
}
