import { generatePlainText, streamPlainText, type StreamHandlers } from "../../ai/call";
import { agentHeader, qaBlock, tag, today, trimToTokens, type QA } from "../../ai/prompts";
import type { UsageSink } from "../../ai/usage";
import { languageRule, type Language } from "../../ai/language";
import type { WaitOptions } from "../../concurrency";

export interface Learning {
  content: string;
  url: string;
}

/**
 * Groups learnings by URL into <source> elements: the model cites the exact url attribute, or the
 * source's id (S1 is the first URL) when it cannot copy a URL exactly (lib/verification/cited-urls.ts).
 */
export function renderSources(learnings: Learning[]): string {
  const byUrl = new Map<string, string[]>();
  for (const l of learnings) byUrl.set(l.url, [...(byUrl.get(l.url) ?? []), l.content]);
  return [...byUrl.entries()].map(([url, items], i) => tag("source", items.map((item) => `- ${item}`).join("\n"), { url, id: `S${i + 1}` })).join("\n");
}

const CITATION_RULES = `Cite every factual claim right after the claim with a numbered Markdown link to its exact source URL,
e.g. "… grew 12% in 2024 [1](https://example.org/page)." Number sources in the order you first cite them and reuse a
source's number when you cite it again. Use only URLs that appear in a url attribute of the sources; never invent,
shorten or alter a URL; when you cannot copy a URL exactly, cite the source's id instead, e.g. "[S3]". Do not state facts that the sources do not support. Do not write a list of sources at the
end: the numbered source list with each page's title is added for you.`;

/** The Report Writing Agent: a sectioned Markdown report from extracted content only, streamed. */
export async function writeReport({
  prompt,
  qa,
  language,
  sources,
  problem,
  onDelta,
  onRestart,
  onUsage,
  signal,
  schedule,
}: StreamHandlers & {
  prompt: string;
  qa: QA[];
  /** The researcher's language (their prompt and answers): the report is written in it. */
  language: Language | null;
  /** Rendered <source> elements or <branch_summary> elements. */
  sources: string;
  /** What was wrong with the report written before (it cited no source, it was in another language): the model is told, and writes it again. */
  problem?: string;
  onUsage?: UsageSink;
  signal?: AbortSignal;
  schedule?: WaitOptions;
}): Promise<string> {
  const agent = "report-writer";
  const system = `${agentHeader(agent)}
Today is ${today()}. Write a research report in Markdown that answers the researcher's prompt and takes their
clarifications into account, using only the extracted research content provided. Structure: a "# " title, a short
summary, "## " sections with the findings (use lists and tables where they help), and a section on open questions or
conflicting evidence. ${languageRule(language, "the researcher's prompt")}
${CITATION_RULES}`;
  const user = [tag("prompt", prompt), qaBlock(qa), tag("learnings", sources), problem ? tag("problem", problem) : ""].filter(Boolean).join("\n");
  return streamPlainText({ agent, system, prompt: user, onDelta, onRestart, onUsage, signal, schedule });
}

/** Condenses one branch's learnings, keeping every URL next to its facts (for reports too large for one call). */
export async function summarizeBranch({
  prompt,
  branchQuery,
  learnings,
  budgetTokens,
  targetTokens,
  onUsage,
  signal,
  schedule,
}: {
  prompt: string;
  branchQuery: string;
  learnings: Learning[];
  budgetTokens: number;
  /** About how long the summary may be: its share of the report's prompt. */
  targetTokens: number;
  onUsage?: UsageSink;
  signal?: AbortSignal;
  schedule?: WaitOptions;
}): Promise<string> {
  const agent = "branch-summarizer";
  const system = `${agentHeader(agent)}
Condense the research learnings of one branch into a dense list of findings for a report writer. Keep every
distinct fact with its specifics, merge duplicates, and keep each fact's source URL exactly as given, as
"- finding (url)". Do not add facts. Keep it within about ${Math.max(50, Math.round(targetTokens * 0.75))} words: drop the least relevant findings first.`;
  const user = [
    tag("prompt", prompt),
    tag("branch", branchQuery),
    tag("learnings", trimToTokens(renderSources(learnings), budgetTokens)),
  ].join("\n");
  return generatePlainText({ agent, system, prompt: user, onUsage, signal, schedule });
}
