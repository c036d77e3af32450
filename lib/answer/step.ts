// One step of the loop: the agent picks an action among those allowed, and the step carries it
// out on the state. Persisting and emitting are the engine's (engine.ts); this only changes state.
import { languageOf, languageProblem } from "../ai/language";
import { answerAgentStep } from "./agents/agent";
import { evaluateAnswer } from "./agents/evaluator";
import { saveAnswerPage } from "../db/answers";
import { WEB_ONLY, type Sources } from "../knowledge/sources";
import { searchSources } from "../search/knowledge";
import { allowedActions, type AgentAction } from "./actions";
import { checkReferences, type ReadPage } from "./attribution";
import { BudgetExhaustedError, type TokenBudget } from "./budget";
import { normaliseQuestion, type Embed } from "./dedup";
import { dropDuplicateQuestions } from "./embed";
import type { ActionState } from "./events";
import { closeGap, completeStep, currentGap, rejectAnswer, type StepOutcome } from "./loop";
import { boosted, hostAllowed, urlAllowed } from "./hostnames";
import { readPage } from "./read";
import type { AnswerState, FoundUrl, Reference } from "./types";
import { mergeResults, normaliseUrl, rankUrls, urlsIn } from "./urls";
import { fitToContext } from "../ai/context-limit";

export interface LoopContext {
  runId: string;
  question: string;
  context: string;
  state: AnswerState;
  budget: TokenBudget;
  /** The pages read so far, with their stored text. */
  pages: ReadPage[];
  signal: AbortSignal;
  embed?: Embed;
  /** Where it searches (issue 22); default the web only. */
  sources?: Sources;
  /** Whose collections it may read (null: shared ones only). */
  userId?: string | null;
}

export interface StepRecord {
  gap: string;
  actionState: ActionState;
  /** What the step did, for the stored step: its outcome beside the action. */
  payload: Record<string, unknown>;
}

export type StepResult = { kind: "step"; record: StepRecord; final?: { answer: string; references: Reference[] } } | { kind: "beast"; reason: string };

/** Knowledge shown to the agent: a share of what the loop can still spend, within sane bounds and the model's context window where known. */
export function knowledgeTokens(budget: TokenBudget, phase: "loop" | "beast"): number {
  const left = budget.limit(phase) - budget.used;
  return Math.max(0, Math.min(fitToContext(24_000), Math.floor((left - 5_000) * 0.5)));
}

/** The pages read so far, as the agent names them (P1… in this order). */
export function readPages(ctx: LoopContext): { url: string; title: string }[] {
  return ctx.pages.map((p) => ({ url: p.url, title: p.title ?? p.url }));
}

/** URLs written in the question or its conversation: the user's own, which a visit may read although no search found them. */
function givenUrls(ctx: LoopContext): string[] {
  return urlsIn(`${ctx.question}\n${ctx.context}`).filter((url) => urlAllowed(url, ctx.state.options));
}

/** The URLs the agent may read this step: those the user gave, then the search results, ranked; none read before. */
function readableUrls(ctx: LoopContext): FoundUrl[] {
  const options = ctx.state.options;
  const visited = new Set(ctx.state.visited);
  const given = givenUrls(ctx)
    .filter((url) => !visited.has(url))
    .map((url) => ctx.state.urls.find((u) => u.url === url) ?? { url, title: "(given in the question)", snippet: "", hits: 0 });
  const ranked = rankUrls(ctx.state.urls, [...ctx.state.visited, ...given.map((u) => u.url)], { boost: (url) => boosted(url, options) });
  return [...given, ...ranked];
}

export async function runStep(ctx: LoopContext): Promise<StepResult> {
  const { state, budget } = ctx;
  const gap = currentGap(state);
  const options = state.options;
  const readable = readableUrls(ctx);
  let allowed = allowedActions(state, readable.length);
  // no_direct_answer: the first step looks things up, however simple the question seems.
  if (options?.noDirectAnswer && state.step === 0 && allowed.some((a) => a !== "answer")) allowed = allowed.filter((a) => a !== "answer");
  let action: AgentAction;
  try {
    action = await answerAgentStep({
      question: ctx.question,
      gap,
      context: ctx.context,
      knowledge: state.knowledge,
      urls: readable,
      pages: readPages(ctx),
      queries: state.queries,
      diary: state.diary,
      allowed,
      knowledgeTokens: knowledgeTokens(budget, "loop"),
      budget: budget.guard("loop"),
      onUsage: budget.sink("agent"),
      signal: ctx.signal,
    });
  } catch (error) {
    if (error instanceof BudgetExhaustedError) return { kind: "beast", reason: "the loop's share of the token budget is spent" };
    throw error;
  }
  const record: StepRecord = { gap, actionState: actionStateOf(action), payload: { ...action, allowed } };
  let outcome: StepOutcome;
  let final: { answer: string; references: Reference[] } | undefined;
  switch (action.action) {
    case "search":
      outcome = await search(ctx, action.searchQuery, record);
      break;
    case "visit":
      outcome = await visit(ctx, action.URLTargets, record);
      break;
    case "reflect":
      outcome = await reflect(ctx, action.questionsToAnswer, record);
      break;
    case "answer": {
      const r = await answer(ctx, gap, action, record);
      if ("beast" in r) return { kind: "beast", reason: r.beast };
      ({ outcome, final } = r);
    }
  }
  completeStep(state, outcome);
  return { kind: "step", record, final };
}

function actionStateOf(a: AgentAction): ActionState {
  const base = { action: a.action, think: a.think };
  if (a.action === "search") return { ...base, searchQuery: a.searchQuery };
  if (a.action === "visit") return { ...base, URLTargets: a.URLTargets };
  if (a.action === "reflect") return { ...base, questionsToAnswer: a.questionsToAnswer };
  return { ...base, answer: a.answer };
}

async function search(ctx: LoopContext, queries: string[], record: StepRecord): Promise<StepOutcome> {
  const seen = new Set(ctx.state.queries.map((q) => normaliseQuestion(q).join(" ")));
  const fresh = queries.filter((q) => {
    const key = normaliseQuestion(q).join(" ");
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  let added = 0;
  const failures: string[] = [];
  for (const q of fresh) {
    ctx.state.queries.push(q);
    try {
      const results = await searchSources({ sources: ctx.sources ?? WEB_ONLY, userId: ctx.userId ?? null, query: q, signal: ctx.signal, onUsage: ctx.budget.sink("dedup") });
      // The client's host rules: a result on an excluded host is never known, so never read.
      added += mergeResults(ctx.state.urls, results.filter((r) => urlAllowed(r.url, ctx.state.options)));
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      failures.push(`${q}: ${error instanceof Error ? error.message : "search failed"}`);
    }
  }
  Object.assign(record.payload, { searched: fresh, newUrls: added, failures });
  // Progress shows what was searched, not what the model asked for (repeats and failures left out).
  record.actionState.searchQuery = fresh.filter((q) => !failures.some((f) => f.startsWith(`${q}: `)));
  return { progress: added > 0, disable: added === 0 ? "search" : undefined, diary: `searched ${fresh.map((q) => `"${q}"`).join(", ") || "nothing new"}: ${added} new URLs` };
}

async function visit(ctx: LoopContext, targets: string[], record: StepRecord): Promise<StepOutcome> {
  const known = new Set([...ctx.state.urls.map((u) => u.url), ...givenUrls(ctx)]);
  const visited = new Set(ctx.state.visited);
  // Only URLs that searches found or the user gave: a model cannot send the reader anywhere it likes.
  const options = ctx.state.options;
  const urls = [...new Set(targets.map((t) => normaliseUrl(t)).filter((u): u is string => u !== null && known.has(u) && !visited.has(u) && urlAllowed(u, options)))];
  ctx.state.visited.push(...urls);
  const allowHost = options?.onlyHostnames?.length || options?.badHostnames?.length ? (host: string) => hostAllowed(host, options) : undefined;
  const results = await Promise.all(urls.map((url) => readPage(url, ctx.signal, ctx.sources?.collections ?? [], allowHost)));
  const read: string[] = [];
  for (const r of results) {
    if (!r.ok) continue;
    await saveAnswerPage({ runId: ctx.runId, url: r.url, title: r.title, content: r.text });
    ctx.pages.push({ url: r.url, title: r.title, content: r.text });
    ctx.state.read.push(r.url);
    ctx.state.knowledge.push({ question: currentGap(ctx.state), answer: r.text, kind: "page", url: r.url, title: r.title ?? undefined });
    read.push(r.url);
  }
  Object.assign(record.payload, { visited: urls, read, failed: results.flatMap((r) => (r.ok ? [] : [{ url: r.url, error: r.error }])) });
  // Progress shows the pages read, not the URLs the model named (unknown, already read or unreadable ones left out).
  record.actionState.URLTargets = read;
  return { progress: read.length > 0, disable: read.length === 0 ? "visit" : undefined, diary: `read ${read.length} of ${urls.length} pages` };
}

async function reflect(ctx: LoopContext, questions: string[], record: StepRecord): Promise<StepOutcome> {
  const fresh = await dropDuplicateQuestions(questions, ctx.state.questions, ctx.embed);
  ctx.state.questions.push(...fresh);
  ctx.state.gaps.push(...fresh);
  Object.assign(record.payload, { added: fresh, dropped: questions.filter((q) => !fresh.includes(q.trim())) });
  record.actionState.questionsToAnswer = fresh;
  return { progress: fresh.length > 0, disable: fresh.length === 0 ? "reflect" : undefined, diary: fresh.length ? `new sub-questions: ${fresh.join(" | ")}` : "no new sub-questions" };
}

type AnswerAction = Extract<AgentAction, { action: "answer" }>;

async function answer(ctx: LoopContext, gap: string, action: AnswerAction, record: StepRecord): Promise<{ outcome: StepOutcome; final?: { answer: string; references: Reference[] } } | { beast: string }> {
  const { state } = ctx;
  if (gap !== ctx.question) {
    state.knowledge.push({ question: gap, answer: action.answer, kind: "answer" });
    closeGap(state, gap);
    record.payload.outcome = "sub-question answered";
    return { outcome: { progress: true, diary: `answered the sub-question "${gap}"` } };
  }
  // A trivial question: answered at once, from nothing, with nothing to cite.
  if (state.step === 0 && action.references.length === 0) {
    record.payload.outcome = "accepted (trivial)";
    return { outcome: { progress: true, diary: "answered at once" }, final: { answer: action.answer, references: [] } };
  }
  const { verified, problems } = checkReferences(action.references, ctx.pages);
  let lesson = "";
  // An answer in another language than the question's (a model following its pages', or drifting).
  const inAnother = languageProblem(action.answer, languageOf(ctx.question), "answer");
  if (problems.length || verified.length === 0) {
    lesson = `An answer was rejected for its references: ${problems.join("; ") || "it cited no page that was read"}. Cite only pages you have read, with sentences copied exactly from them.`;
  } else if (inAnother) {
    lesson = `An answer was rejected: ${inAnother.told}`;
  } else {
    try {
      const e = await evaluateAnswer({ question: ctx.question, context: ctx.context, answer: action.answer, references: verified, budget: ctx.budget.guard("loop", 1_000), onUsage: ctx.budget.sink("evaluate"), signal: ctx.signal });
      if (!e.pass) lesson = `An answer ("${action.answer.slice(0, 200)}") was rejected: ${e.lesson}`;
    } catch (error) {
      if (error instanceof BudgetExhaustedError) return { beast: "the loop's share of the token budget is spent" };
      throw error;
    }
  }
  if (!lesson) {
    record.payload.outcome = "accepted";
    return { outcome: { progress: true, diary: "answered" }, final: { answer: action.answer, references: verified } };
  }
  rejectAnswer(state, lesson);
  Object.assign(record.payload, { outcome: "rejected", lesson });
  return { outcome: { progress: true, disable: "answer", diary: "an answer was rejected" } };
}
