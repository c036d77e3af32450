// Retrieval from the world state: what one step needs — the objectives, the recent levels, the
// discoveries and insights still standing, open questions — never the whole history. The bounds
// below are counts; renderWorldView then holds the result to CONTEXT_TOKEN_BUDGET.
import { getConversation, recentMessages } from "../db/conversations";
import { discoveriesOf } from "../db/discoveries";
import { recentTasks } from "../db/research-tasks";
import { parseJson } from "../db/json";
import { datasetEntries } from "../db/datasets";
import type { WorldView } from "./render";

/** Levels of task results shown to an agent: the current one and the one before. */
const RECENT_LEVELS = 2;
const MAX_DISCOVERIES = 12;
const MAX_INSIGHTS = 8;

export async function retrieveWorldView(conversationId: string, level: number): Promise<WorldView> {
  const c = await getConversation({ id: conversationId });
  if (!c) throw new Error(`No conversation ${conversationId}`);
  const [tasks, discoveries, messages] = await Promise.all([
    recentTasks(conversationId, level, RECENT_LEVELS),
    discoveriesOf(conversationId),
    recentMessages(conversationId, 4),
  ]);
  const hypothesis = parseJson<{ hypothesis: string; rationale: string } | null>(c.currentHypothesis, null);
  // Standing discoveries first (newest first), then the rest, up to the bound.
  const ranked = [...discoveries].sort((a, b) => Number(a.status === "retired") - Number(b.status === "retired") || b.updatedAt.getTime() - a.updatedAt.getTime());
  return {
    objective: c.objective,
    currentObjective: c.currentObjective,
    evolvingObjective: c.evolvingObjective,
    hypothesis: hypothesis ? `${hypothesis.hypothesis}\nRationale: ${hypothesis.rationale}` : null,
    userMessage: [...messages].reverse().find((m) => m.role === "user")?.content ?? null,
    tasks: tasks.reverse().map((t) => ({ key: t.taskKey, level: t.level, type: t.type, status: t.status, objective: t.objective, output: t.output, error: t.error })),
    discoveries: ranked.slice(0, MAX_DISCOVERIES).map((d) => ({ key: d.key, claim: d.claim, confidence: d.confidence, status: d.status })),
    keyInsights: parseJson<string[]>(c.keyInsights, []).slice(-MAX_INSIGHTS),
    openQuestions: parseJson<{ objective: string }[]>(c.suggestedNextSteps, []).map((s) => s.objective),
    datasets: datasetEntries(c.uploadedDatasets),
    methodology: c.methodology,
    level,
  };
}
