// The tree-research operations that route handlers (and the CLI) call: one function per action.
import { generateFollowupQuestions } from "./agents/prompt-analyzer";
import { LlmUnavailableError, StructuredOutputError } from "../ai/errors";
import { countExtractedItems, createResearch, deleteResearch, getResearch, listExtractedItems, loadResearchGraph, loadResearchStatusRows, researchExists, saveStartParameters, type Owner } from "../db/research";
import { reopenForReport, reopenForResume } from "../db/tree";
import { startWithinLimits, withinPlanningLimits } from "../runs/limits";
import { addTokens, ZERO_TOKENS, type UsageSink } from "../ai/usage";
import { assertResearchConfigured } from "../env";
import { assertSourcesReadable, parseSources, WEB_ONLY } from "../knowledge/sources";
import { AppError } from "../errors";
import { deleteRunsOf, getRun, openRun } from "../db/runs";
import { runRegistry } from "../runs/engines";
import type { ResearchData, ResearchItemsPage } from "../types";
import { parseStringArray, toResearchStatusView, toResearchView } from "../explore/public-shape";
import type { FollowUpRequest, QuestionsRequest, StartRequest } from "./schema";
import { followUpLink, type FollowUpLink } from "./follow-up";

function llmFailure(error: unknown): never {
  if (error instanceof LlmUnavailableError) throw new AppError("unavailable:llm", error.message, { cause: error });
  if (error instanceof StructuredOutputError) throw new AppError("unavailable:llm", error.message, { cause: error });
  throw error;
}

/**
 * A new draft with tailored follow-up questions, within the user's limits on planning calls (429):
 * the call's tokens are recorded on the draft and against the user.
 */
export function askFollowupQuestions({ userId, input }: { userId: string; input: QuestionsRequest }) {
  assertResearchConfigured({ llm: true, search: true });
  return withinPlanningLimits({ userId, kind: "research-questions" }, ({ onUsage, setSubject }) => draftWithQuestions({ userId, input, onUsage, setSubject }));
}

/** askFollowupQuestions without the per-user limits: for the local CLI, which acts as the machine's owner. */
export async function draftWithQuestions({ userId, input, onUsage, setSubject }: { userId: string | null; input: QuestionsRequest; onUsage?: UsageSink; setSubject?: (id: string) => void }) {
  assertResearchConfigured({ llm: true, search: true });
  let tokens = ZERO_TOKENS;
  const questions = await generateFollowupQuestions({
    prompt: input.initial_prompt,
    count: input.num_questions,
    onUsage: async (t) => {
      tokens = addTokens(tokens, t);
      await onUsage?.(t);
    },
  }).catch(llmFailure);
  const research = await createResearch({ userId, initialPrompt: input.initial_prompt, questions, usage: tokens });
  setSubject?.(research.id);
  return { research_id: research.id, followup_questions: questions };
}

type StartArgs = Owner & { input: StartRequest; followUp?: FollowUpLink };

/**
 * Starts a draft with its answers (and, when given, a revised prompt and questions), or — without
 * `research_id` — creates the research and starts it in one call. The user's limits (429) are
 * checked and the run opened under the user's start lock.
 */
export function startResearch(args: StartArgs & { userId: string }) {
  return startWithinLimits({ userId: args.userId, pool: "research", start: () => launchResearch(args) });
}

/** startResearch without the per-user limits: for the local CLI, which acts as the machine's owner. */
export async function launchResearch({ input, followUp, ...owner }: StartArgs) {
  const draft = input.research_id ? await getResearch({ id: input.research_id, ...owner }) : null;
  if (input.research_id && !draft) {
    throw new AppError("bad_request:research", `Unknown research_id: ${input.research_id}`, { field: "research_id" });
  }
  if (draft && draft.status !== "draft") {
    throw new AppError("conflict:research", `This research has already been started (status: ${draft.status})`, { field: "research_id" });
  }
  const questions = input.followup_questions ?? (draft ? parseStringArray(draft.followupQuestions) : []);
  if (input.followup_answers.length !== questions.length) {
    throw new AppError("bad_request:research", "Number of answers must match number of questions", { field: "followup_answers" });
  }
  const sources = input.sources ?? WEB_ONLY;
  // Collections only: no web search, so no SearXNG needed (an offline research with a local LLM).
  assertResearchConfigured({ llm: true, search: sources.web });
  await assertSourcesReadable(owner.userId ?? null, sources);
  const research = draft ?? (await createResearch({ userId: owner.userId ?? null, initialPrompt: input.initial_prompt!, questions, followUp }));
  // A client that keeps the draft on its side may send a revised prompt and questions with the start.
  const revised = draft !== null && (input.initial_prompt !== undefined || input.followup_questions !== undefined);
  const started = await saveStartParameters({
    id: research.id,
    answers: input.followup_answers,
    depth: input.depth,
    breadth: input.breadth,
    sources: JSON.stringify(sources),
    ...(revised ? { initialPrompt: input.initial_prompt ?? research.initialPrompt, questions } : {}),
  });
  if (!started) throw new AppError("conflict:research", "This research has already been started", { field: "research_id" });
  const run = await openRun({ kind: "tree", subjectId: research.id, userId: research.userId, mode: "tree" });
  void runRegistry.start("tree", research.id);
  return { research_id: research.id, run_id: run.id, status: "running" as const };
}

/**
 * A Deep Research literature task's tree is driven by its conversation's run, not by a tree run:
 * cancelling, resuming, reporting on or deleting it here would break the conversation's evidence.
 */
function refuseTaskTree(research: { conversationId: string | null }): void {
  if (research.conversationId) {
    throw new AppError("conflict:research", "This research is a literature task of a Deep Research conversation; manage it through the conversation");
  }
}

export async function getResearchView({ id, ...owner }: Owner & { id: string }): Promise<ResearchData> {
  const graph = await loadResearchGraph({ id, ...owner });
  if (!graph) throw new AppError("not_found:research", "Research not found");
  return toResearchView(graph);
}

/** The lean status view (GET /api/research/:id?view=status): counts and the tree's shape. */
export async function getResearchStatusView({ id, ...owner }: Owner & { id: string }) {
  const rows = await loadResearchStatusRows({ id, ...owner });
  if (!rows) throw new AppError("not_found:research", "Research not found");
  return toResearchStatusView(rows);
}

/** A page of the research's extracted items (GET /api/research/:id/items), optionally of one query or query page. */
export async function getResearchItems({
  id,
  queryId,
  websiteId,
  after,
  limit,
  ...owner
}: Owner & { id: string; queryId?: string; websiteId?: string; after?: string; limit: number }): Promise<ResearchItemsPage> {
  if (!(await researchExists({ id, ...owner }))) throw new AppError("not_found:research", "Research not found");
  // A website id is `${query_id}:${page_id}` (public-shape.ts).
  const [websiteQueryId, pageId] = websiteId ? websiteId.split(":") : [];
  if (queryId && websiteQueryId && queryId !== websiteQueryId) return { items: [], next: null };
  const { rows, more } = await listExtractedItems({ researchId: id, queryId: queryId ?? websiteQueryId, pageId, after, limit });
  return {
    items: rows.map((r) => ({
      id: r.id,
      website_id: `${r.queryPage.queryId}:${r.queryPage.pageId}`,
      query_id: r.queryPage.queryId,
      url: r.url,
      content: r.content,
    })),
    next: more && rows.length > 0 ? rows[rows.length - 1].id : null,
  };
}

export async function cancelResearch({ id, ...owner }: Owner & { id: string }) {
  const research = await getResearch({ id, ...owner });
  if (!research) throw new AppError("not_found:research", "Research not found");
  refuseTaskTree(research);
  if (research.status !== "running") {
    throw new AppError("conflict:research", `Only a running research can be cancelled (status: ${research.status})`);
  }
  await runRegistry.cancel("tree", id);
  return { research_id: id, status: "cancelled" as const };
}

/**
 * Resume: a failed or cancelled research continues from where it stopped (completed work is kept,
 * lost analyses are retried); a running research paused by its LLM provider retries it at once.
 */
export async function resumeResearch({ id, userId }: { id: string; userId: string }) {
  const research = await getResearch({ id, userId });
  if (!research) throw new AppError("not_found:research", "Research not found");
  refuseTaskTree(research);
  if (research.status === "running") {
    if (!research.pausedAt) throw new AppError("conflict:research", "This research is running; there is nothing to resume");
    runRegistry.retryProviderNow();
    const run = await getRun({ kind: "tree", subjectId: id });
    return { research_id: id, run_id: run?.id ?? null, status: "running" as const };
  }
  if (research.status !== "failed" && research.status !== "cancelled") {
    throw new AppError("conflict:research", `Only a failed, cancelled or paused research can be resumed (status: ${research.status})`);
  }
  assertResearchConfigured({ llm: true, search: true });
  return runAgain({ id, userId, mode: "tree", reopen: reopenForResume });
}

/**
 * Runs a failed or cancelled research again (`mode` as the tree engine knows it). Running again
 * counts against the user's concurrent runs: checked, reopened and queued under the user's lock.
 */
async function runAgain({ id, userId, mode, reopen }: { id: string; userId: string; mode: "tree" | "report"; reopen: (id: string) => Promise<boolean> }) {
  const run = await startWithinLimits({
    userId,
    pool: "research",
    start: async () => {
      if (!(await reopen(id))) throw new AppError("conflict:research", "This research was restarted already");
      return openRun({ kind: "tree", subjectId: id, userId, mode });
    },
  });
  void runRegistry.start("tree", id);
  return { research_id: id, run_id: run.id, status: "running" as const };
}

/** Writes the report of a failed or cancelled research from what it had found. */
export async function writeReportNow({ id, userId }: { id: string; userId: string }) {
  const research = await getResearch({ id, userId });
  if (!research) throw new AppError("not_found:research", "Research not found");
  refuseTaskTree(research);
  if (research.status !== "failed" && research.status !== "cancelled") {
    throw new AppError("conflict:research", `A report can be written from the findings of a failed or cancelled research only (status: ${research.status})`);
  }
  if ((await countExtractedItems({ researchId: id })) === 0) {
    throw new AppError("conflict:research", "Nothing was found yet to write a report from; resume the research instead");
  }
  assertResearchConfigured({ llm: true });
  return runAgain({ id, userId, mode: "report", reopen: reopenForReport });
}

export async function deleteResearchById({ id, ...owner }: Owner & { id: string }) {
  const research = await getResearch({ id, ...owner });
  if (!research) throw new AppError("not_found:research", "Research not found");
  refuseTaskTree(research);
  // Its rows go only once no process writes them: a run here or elsewhere is cancelled and waited
  // for (one cancelled a moment ago may still be settling its rows, so this is not only for `running`).
  if (!(await runRegistry.cancelAndWait("tree", id))) {
    throw new AppError("unavailable:research", "The research is still stopping; try deleting it again in a few seconds", { retryAfterSeconds: 5 });
  }
  await deleteResearch({ id, ...owner });
  await deleteRunsOf({ kind: "tree", subjectId: id });
}

/** A completed research's report, which no longer changes (so a page may render it on the server); null otherwise. */
export async function getFinishedReport({ id, userId }: { id: string; userId: string }): Promise<string | null> {
  const research = await getResearch({ id, userId });
  return research?.status === "completed" ? research.report : null;
}

/** What the new-research wizard continues from: the caller's draft, or only the status of a research that is no draft. */
export async function loadDraft({ id, userId }: { id: string; userId: string }) {
  const research = await getResearch({ id, userId });
  if (!research) return null;
  if (research.status !== "draft") return { status: research.status } as const;
  const questions = parseStringArray(research.followupQuestions);
  const answers = parseStringArray(research.followupAnswers);
  return {
    status: "draft" as const,
    draft: {
      researchId: research.id,
      prompt: research.initialPrompt,
      questions,
      answers: questions.map((_, i) => answers[i] ?? ""),
      ...(research.depth ? { depth: research.depth } : {}),
      ...(research.breadth ? { breadth: research.breadth } : {}),
    },
  };
}

/**
 * A follow-up: a new research on `question` that builds on what this one found — all of it, or the
 * branch under `query_id` ("go deeper on this branch") — linked to it both ways.
 */
export async function startFollowUp({ id, userId, input }: { id: string; userId: string; input: FollowUpRequest }) {
  const parent = await getResearch({ id, userId });
  if (!parent) throw new AppError("not_found:research", "Research not found");
  const link = await followUpLink({ parent, queryId: input.query_id });
  // It searches where its parent searched (the parent's collections, the web or both).
  const sources = parseSources(parent.sources);
  return startResearch({ userId, followUp: link, input: { initial_prompt: input.question, followup_answers: [], depth: input.depth, breadth: input.breadth, sources } });
}
