// Re-run: a new research with the same prompt, questions, answers and sources as an existing one, at the
// same or another depth × breadth. The original is left as it is (a history of what was tried).
import { z } from "zod";
import { startWithinLimits } from "../runs/limits";
import { createResearch, getResearch, saveStartParameters } from "../db/research";
import { openRun } from "../db/runs";
import { assertResearchConfigured, getEnv } from "../env";
import { AppError } from "../errors";
import { runRegistry } from "../runs/engines";
import { parseStringArray } from "../explore/public-shape";
import { assertSourcesReadable, parseSources } from "../knowledge/sources";

export function rerunRequestSchema() {
  const env = getEnv();
  const int = (name: string, max: number) =>
    z
      .number({ error: `${name} must be a positive integer` })
      .int({ error: `${name} must be a positive integer` })
      .positive({ error: `${name} must be a positive integer` })
      .max(max, { error: `${name} cannot exceed ${max}` });
  return z.object({ depth: int("Depth", env.MAX_DEPTH).optional(), breadth: int("Breadth", env.MAX_BREADTH).optional() });
}

export type RerunRequest = z.infer<ReturnType<typeof rerunRequestSchema>>;

export async function rerunResearch({ id, userId, input }: { id: string; userId: string; input: RerunRequest }) {
  const source = await getResearch({ id, userId });
  if (!source) throw new AppError("not_found:research", "Research not found");
  if (source.status === "draft" || !source.depth || !source.breadth) {
    throw new AppError("conflict:research", "This research has not run yet: start it instead of re-running it");
  }
  // The same sources as the original (its collections, the web or both), still readable by the user.
  const sources = parseSources(source.sources);
  assertResearchConfigured({ llm: true, search: sources.web });
  await assertSourcesReadable(userId, sources);
  const depth = input.depth ?? source.depth;
  const breadth = input.breadth ?? source.breadth;
  // Counted against the user's concurrent runs like any start, under the same per-user lock.
  return startWithinLimits({
    userId,
    pool: "research",
    start: async () => {
      const draft = await createResearch({ userId, initialPrompt: source.initialPrompt, questions: parseStringArray(source.followupQuestions) });
      await saveStartParameters({ id: draft.id, answers: parseStringArray(source.followupAnswers), depth, breadth, sources: JSON.stringify(sources) });
      const run = await openRun({ kind: "tree", subjectId: draft.id, userId, mode: "tree" });
      void runRegistry.start("tree", draft.id);
      return { research_id: draft.id, run_id: run.id, status: "running" as const };
    },
  });
}
