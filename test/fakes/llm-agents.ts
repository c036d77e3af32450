// What the fake LLM answers, per agent. Deterministic: the same prompt (and the same counter state)
// gives the same reply. Report writing and branch summaries live in llm-report.ts.
import { schemaInstance, type JsonSchema } from "./json-schema-instance";
import { firstWords, intTag, sentencesOf, tagContent, tagOf, taskText, type ChatMessage } from "./llm-parse";
import { answerAgentReply, answerBeastReply, answerEvaluatorReply, answerFinalReply } from "./llm-answer";
import { chatClassifierReply } from "./llm-chat-classifier";
import { deepResearchReply } from "./llm-deep-research";
import { peerReply } from "./llm-peer";
import { writeBranchSummary, writeReport } from "./llm-report";
import { uncitedReply, verifierReply, type VerifyScenario } from "./llm-verify";
import { hashString } from "./random";

/**
 * How many queries (and questions) the fake writes against what it is asked for: exact, count + 2,
 * max(1, count - 1), or "stuck": like "fewer" on the first request, and then a model that keeps
 * repeating itself, answering every request for more with what it already planned (and its
 * parent's query) in a different case and punctuation.
 */
export type QueryCountOverride = "exact" | "more" | "fewer" | "stuck";

export interface ResponseFormat {
  type: string;
  json_schema?: { name?: string; schema?: JsonSchema };
}

export interface AgentContext {
  agent: string;
  messages: ChatMessage[];
  responseFormat?: ResponseFormat;
  queryCountOverride: QueryCountOverride;
  /** Whether a page read proposes the follow-up searches it is asked for. */
  readFollowUps: boolean;
  hallucinateCitation: boolean;
  verify: VerifyScenario;
  /** Next number of a per-prompt counter that lives as long as the fake (until reset). */
  nextNumber: (key: string) => number;
}

export interface AgentReply {
  text: string;
  /** Whether the reply is JSON (sloppy and broken modes apply). */
  json: boolean;
}

export function agentReply(ctx: AgentContext): AgentReply {
  const task = taskText(ctx.messages);
  switch (ctx.agent) {
    case "prompt-analyzer":
      return json(questions(task, ctx));
    case "query-generator":
      return json(queries(task, ctx));
    case "website-analyzer":
      return json(extractItems(task, ctx));
    case "item-selector":
      return json(selectItems(task));
    case "report-writer":
      return { text: writeReport(task, ctx.hallucinateCitation, ctx.verify), json: false };
    case "branch-summarizer":
      return { text: writeBranchSummary(task), json: false };
    case "citation-verifier":
      return json(verifierReply(task, ctx.verify));
    case "uncited-claim-finder":
      return json(uncitedReply(task));
    case "answer-agent":
      return json(answerAgentReply(task, ctx.nextNumber));
    case "answer-evaluator":
      return json(answerEvaluatorReply(task));
    case "answer-beast":
      return json(answerBeastReply(task));
    case "chat-classifier":
      return json(chatClassifierReply(task));
    case "answer-final":
      return answerFinalReply(task, ctx.responseFormat, (schema) => schemaInstance(schema as JsonSchema));
    case "peer-planner":
    case "peer-learner":
    case "peer-writer":
      return json(peerReply(ctx.agent, task));
    default: {
      const dr = deepResearchReply(ctx.agent, ctx.messages, ctx.verify);
      if (dr === undefined) return fallback(task, ctx);
      // The reply agent writes Markdown, streamed (lib/deep-research/agents/reply.ts).
      if (ctx.agent === "dr-reply") return { text: (dr as { reply: string }).reply, json: false };
      return json(dr);
    }
  }
}

const json = (value: unknown): AgentReply => ({ text: JSON.stringify(value), json: true });

function adjustCount(count: number, mode: QueryCountOverride): number {
  if (mode === "more") return count + 2;
  if (mode === "fewer" || mode === "stuck") return Math.max(1, count - 1);
  return count;
}

const QUESTION_TEMPLATES = [
  (t: string) => `What time period should the research on "${t}" cover?`,
  (t: string) => `Which countries or regions matter most for "${t}"?`,
  (t: string) => `Who will read the report on "${t}", and how technical should it be?`,
  (t: string) => `Which aspects of "${t}" matter most to you: costs, technology, policy or impacts?`,
  (t: string) => `Are there sources on "${t}" that you trust, or want excluded?`,
  (t: string) => `Should the report on "${t}" compare options or recommend one?`,
  (t: string) => `What decision will the research on "${t}" inform?`,
  (t: string) => `How recent must the data on "${t}" be to be useful?`,
];

function questions(task: string, ctx: AgentContext) {
  const topic = firstWords(tagContent(task, "prompt") ?? task, 6);
  const count = adjustCount(intTag(task, "count", 3), ctx.queryCountOverride);
  const asked = new Set((tagContent(task, "already_asked") ?? "").split("\n").map((q) => q.trim().toLowerCase()));
  const out: string[] = [];
  for (let i = 0; out.length < count && i < count + asked.size + QUESTION_TEMPLATES.length; i++) {
    const q = i < QUESTION_TEMPLATES.length ? QUESTION_TEMPLATES[i](topic) : `Is there anything else about "${topic}" we should know (point ${i + 1})?`;
    if (!asked.has(q.toLowerCase())) out.push(q);
  }
  return { questions: out };
}

/** The query's path ("2.1") in the fake's numbering, from its text or a parent chain; "" for the roots' planning. */
function pathOf(text: string): string {
  return /aspect (\d+(?:\.\d+)*)/.exec(text)?.[1] ?? `0${hashString(text) % 1000}`;
}

/** The fake's query for a path: its text and objective ("aspect 2.1" at depth 2). */
function queryAt(topic: string, path: string) {
  return { query: `${topic} aspect ${path}`, objective: `Find figures, dates and named sources on ${topic} (aspect ${path}, depth ${path.split(".").length}).` };
}

/**
 * Query ids are paths: root queries are "aspect 1", "aspect 2"…, children of "aspect 2" are
 * "aspect 2.1", "aspect 2.2"…, so a branch is recognisable by its prefix and numbering does not
 * depend on the order in which concurrent branches call. Counters live per prompt and parent, so
 * a repeated call (top-up, repair, second run) continues the numbering instead of repeating it.
 */
function queries(task: string, ctx: AgentContext) {
  const prompt = tagContent(task, "prompt") ?? task;
  const topic = firstWords(prompt, 5);
  // A top-up request asks for "N more"; the count tag still holds the original number.
  const more = /Write (\d+) more/.exec(task);
  const count = adjustCount(more ? Number(more[1]) : intTag(task, "count", 3), ctx.queryCountOverride);
  const chain = tagContent(task, "parent_chain");
  const parentQuery = chain ? (/level="parent"\s*>\s*Query:\s*(.+)/.exec(chain)?.[1]?.trim() ?? chain) : "";
  const parentPath = chain ? pathOf(parentQuery) : "";
  const key = `${prompt.trim().toLowerCase()}|${parentPath}`;
  if (more && ctx.queryCountOverride === "stuck") return { queries: repeated(task, parentQuery) };
  return {
    queries: Array.from({ length: count }, () => queryAt(topic, parentPath ? `${parentPath}.${ctx.nextNumber(key)}` : String(ctx.nextNumber(key)))),
  };
}

/** A stuck model's answer to "N more": the queries it already has, restyled, and its parent's query. */
function repeated(task: string, parentQuery: string) {
  const planned = (tagContent(task, "already_planned") ?? "").split("\n").map((q) => q.trim()).filter(Boolean);
  const restyle = (q: string) => `${q.replace(/\b\w/g, (c) => c.toUpperCase())}?`;
  return [...planned.map(restyle), ...(parentQuery ? [`  ${parentQuery.toUpperCase()}  `] : [])].map((query) => ({
    query,
    objective: `Find more on ${query.trim()}.`,
  }));
}

/** The sentences of a page's text (an excerpt's "[…]" separators dropped). */
function pageSentences(task: string): { text: string; url: string; candidates: string[] } {
  const page = tagOf(task, "page");
  // An excerpt's passages are separated by "[…]" lines (lib/agents/passages.ts).
  const text = (page?.content ?? "").replace(/\s*\[…\]$/, "").replace(/\n\[…\]\n/g, "\n");
  return { text, url: page?.attrs.url ?? text, candidates: sentencesOf(text) };
}

const wordsOf = (text: string) => new Set(firstWords(text, 40).split(" ").filter((w) => w.length > 3));

/** How well a sentence serves an objective: figures, length, and the objective's words. */
function score(sentence: string, objectiveWords: Set<string>): number {
  return (/\d/.test(sentence) ? 2 : 0) + (sentence.split(/\s+/).length >= 12 ? 1 : 0) + sentence.toLowerCase().split(/\W+/).filter((w) => objectiveWords.has(w)).length;
}

/**
 * A page read for several queries (lib/agents/analyze-website.ts): per query (<query id="Q1">objective</query>)
 * the 1–3 sentences that serve its objective best, tagged with its id; then the page's other sentences with a
 * figure, tagged with no query (what later queries choose from), 12 items at most.
 */
function extractItems(task: string, ctx: AgentContext) {
  const { text, url, candidates } = pageSentences(task);
  const queries = [...(tagContent(task, "queries") ?? "").matchAll(/<query id="([^"]+)"([^>]*)>([\s\S]*?)<\s?\/query>/g)].map((m) => ({
    id: m[1],
    objective: m[3].trim(),
    search: /search="([^"]*)"/.exec(m[2])?.[1] ?? "",
    followUps: Number(/follow_ups="(\d+)"/.exec(m[2])?.[1] ?? 0),
  }));
  // Asked for follow-ups: each query's children, as the query generator would plan them first (every page
  // of a query proposes the same; a count override applies as to the generator's).
  const topic = firstWords(tagContent(task, "research_prompt") ?? "", 5);
  const asking = queries.filter((q) => q.followUps > 0);
  const followUps = Object.fromEntries(
    asking.map((q) => [q.id, ctx.readFollowUps ? Array.from({ length: adjustCount(q.followUps, ctx.queryCountOverride) }, (_, i) => queryAt(topic, `${pathOf(q.search)}.${i + 1}`).query) : []]),
  );
  const asked = asking.length > 0 ? { follow_ups: followUps } : {};
  if (!text.trim()) return { items: [], ...asked };
  if (candidates.length === 0) return { items: [{ content: text.trim().split("\n")[0].slice(0, 300), queries: queries.map((q) => q.id) }], ...asked };
  const wanted = 1 + (hashString(url) % 3);
  const tags = new Map<number, string[]>();
  for (const q of queries) {
    const objectiveWords = wordsOf(q.objective);
    const picked = candidates.map((sentence, index) => ({ index, score: score(sentence, objectiveWords) })).sort((a, b) => b.score - a.score || a.index - b.index).slice(0, wanted);
    for (const p of picked) tags.set(p.index, [...(tags.get(p.index) ?? []), q.id]);
  }
  const others = candidates.map((sentence, index) => ({ sentence, index })).filter((c) => !tags.has(c.index) && /\d/.test(c.sentence));
  const notes = others.slice(0, Math.max(0, 12 - tags.size)).map((c) => c.index);
  return {
    items: [...tags.keys(), ...notes].sort((a, b) => a - b).map((index) => ({ content: candidates[index], queries: tags.get(index) ?? [] })),
    ...asked,
  };
}

/**
 * A later query choosing from what earlier reads extracted (lib/agents/analyze-website.ts): per page, the
 * 1–3 items that serve its objective best (ties broken by the objective, so that queries differ as their
 * objectives do), by their ids.
 */
function selectItems(task: string) {
  const objective = tagContent(task, "objective") ?? "";
  const objectiveWords = wordsOf(objective);
  const chosen: string[] = [];
  for (const page of (tagContent(task, "items") ?? "").matchAll(/<page((?:\s+[\w-]+="[^"]*")*)\s*>([\s\S]*?)<\s?\/page>/g)) {
    const url = /url="([^"]*)"/.exec(page[1])?.[1] ?? "";
    const items = [...page[2].matchAll(/^(N\d+): (.*)$/gm)].map((m) => ({ id: m[1], content: m[2] }));
    const wanted = 1 + (hashString(url) % 3);
    const picked = items
      .map((item, index) => ({ id: item.id, index, score: score(item.content, objectiveWords) * 8 + (hashString(`${objective}|${item.content}`) % 8) }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, wanted);
    chosen.push(...picked.sort((a, b) => a.index - b.index).map((p) => p.id));
  }
  return { items: chosen };
}

function fallback(task: string, ctx: AgentContext): AgentReply {
  const format = ctx.responseFormat;
  if (format?.type === "json_schema" && format.json_schema?.schema) return json(schemaInstance(format.json_schema.schema));
  if (format?.type === "json_object") return json({ reply: `Fake reply about ${firstWords(task, 6)}.` });
  return { text: `This is a fake reply about ${firstWords(task, 8)}.`, json: false };
}
