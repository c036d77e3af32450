// The tree-research operations that route handlers (and the CLI) call: one function per action.
import { generateFollowupQuestions } from "../agents/prompt-analyzer";
import { LlmUnavailableError, StructuredOutputError } from "../ai/errors";
import { countExtractedItems, createResearch, deleteResearch, getResearch, loadResearchGraph, saveStartParameters, type Owner } from "../db/research";
import { reopenForReport, reopenForResume } from "../db/tree";
import { startWithinLimits } from "../auth/run-limits";
import { assertResearchConfigured } from "../env";
import { AppError } from "../errors";
import { deleteRunsOf, openRun } from "../db/runs";
import { runRegistry } from "../runs/engines";
import type { ResearchView } from "../types";
import { parseStringArray, researchLinks, toResearchView } from "./public-shape";
import type { QuestionsRequest, StartRequest } from "./schema";

function llmFailure(error: unknown): never {
  if (error instanceof LlmUnavailableError) throw new AppError("unavailable:llm", error.message, { cause: error });
  if (error instanceof StructuredOutputError) throw new AppError("unavailable:llm", error.message, { cause: error });
  throw error;
}

export async function askFollowupQuestions({ userId, input }: { userId: string | null; input: QuestionsRequest }) {
  assertResearchConfigured({ llm: true, search: true });
  let tokens = { promptTokens: 0, completionTokens: 0, calls: 0 };
  const questions = await generateFollowupQuestions({
    prompt: input.initial_prompt,
    count: input.num_questions,
    onUsage: (t) => {
      tokens = { promptTokens: tokens.promptTokens + t.promptTokens, completionTokens: tokens.completionTokens + t.completionTokens, calls: tokens.calls + t.calls };
    },
  }).catch(llmFailure);
  const research = await createResearch({ userId, initialPrompt: input.initial_prompt, questions, usage: tokens });
  return { research_id: research.id, followup_questions: questions };
}

export async function startResearch({ input, ...owner }: Owner & { input: StartRequest }) {
  const research = await getResearch({ id: input.research_id, ...owner });
  if (!research) {
    throw new AppError("bad_request:research", `Unknown research_id: ${input.research_id}`, { field: "research_id" });
  }
  if (research.status !== "draft") {
    throw new AppError("conflict:research", `This research has already been started (status: ${research.status})`, { field: "research_id" });
  }
  const questions = input.followup_questions ?? parseStringArray(research.followupQuestions);
  if (input.followup_answers.length !== questions.length) {
    throw new AppError("bad_request:research", "Number of answers must match number of questions", { field: "followup_answers" });
  }
  assertResearchConfigured({ llm: true, search: true });
  // A client that keeps the draft on its side may send a revised prompt and questions with the start.
  const revised = input.initial_prompt !== undefined || input.followup_questions !== undefined;
  const started = await saveStartParameters({
    id: research.id,
    answers: input.followup_answers,
    depth: input.depth,
    breadth: input.breadth,
    ...(revised ? { initialPrompt: input.initial_prompt ?? research.initialPrompt, questions } : {}),
  });
  if (!started) throw new AppError("conflict:research", "This research has already been started", { field: "research_id" });
  await openRun({ kind: "tree", subjectId: research.id, userId: research.userId, mode: "tree" });
  void runRegistry.start("tree", research.id);
  return { research_id: research.id, status: "running" as const, links: researchLinks(research.id) };
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

export async function getResearchView({ id, ...owner }: Owner & { id: string }): Promise<ResearchView> {
  const graph = await loadResearchGraph({ id, ...owner });
  if (!graph) throw new AppError("not_found:research", "Research not found");
  return toResearchView(graph);
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
    return { research_id: id, status: "running" as const, links: researchLinks(id) };
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
  await startWithinLimits({
    userId,
    start: async () => {
      if (!(await reopen(id))) throw new AppError("conflict:research", "This research was restarted already");
      await openRun({ kind: "tree", subjectId: id, userId, mode });
    },
  });
  void runRegistry.start("tree", id);
  return { research_id: id, status: "running" as const, links: researchLinks(id) };
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
  if (research.status === "running") await runRegistry.cancel("tree", id);
  await deleteResearch({ id, ...owner });
  await deleteRunsOf({ kind: "tree", subjectId: id });
}
