// The clarification agents: questions before a Deep Research conversation starts, then a plan
// (refined objective and initial tasks) from the answers, regenerated from feedback if asked. The
// datasets the user named are offered to the plan by handle (D1 …); they load only when the
// research starts, where an ANALYSIS task is matched to what loaded (lib/deep-research/task-datasets.ts).
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import { languageOf, languageRule, usersLanguage } from "../../ai/language";
import type { UsageSink } from "../../ai/usage";
import { datasetChoices, renderDatasetChoices, resolveDrafts, taskDraftSchema, type RawTaskDraft, type TaskDraftOut } from "./common";

const questionsSchema = z.object({
  questions: z.array(
    z.object({
      category: z.string().describe("What the question is about: scope, methodology, data, audience, …"),
      question: z.string().describe("One clarifying question"),
      priority: z.enum(["high", "medium", "low"]).describe("How much the answer changes the research"),
      context: z.string().optional().describe("Why it is asked"),
    }),
  ).describe("3 to 5 clarifying questions"),
  reasoning: z.string().describe("Why these questions"),
});

function planSchema(datasetHandles: string[]) {
  return z.object({
    objective: z.string().describe("The refined research objective"),
    initialTasks: z.array(taskDraftSchema(datasetHandles)).describe("The first level's tasks"),
  });
}

export type ClarificationQuestions = z.infer<typeof questionsSchema>;
export interface ClarificationPlan {
  objective: string;
  initialTasks: TaskDraftOut[];
}

export async function clarificationQuestions({ query, datasets, onUsage }: { query: string; datasets: string[]; onUsage?: UsageSink }): Promise<ClarificationQuestions> {
  const agent = "dr-clarifier";
  const system = `${agentHeader(agent)}
Before a long research project starts, ask the few questions whose answers would most change how it is done. ${languageRule(languageOf(query), "the user's query")}`;
  const out = await generateStructured({ agent, schema: questionsSchema, system, prompt: `${tag("query", query)}\n${tag("datasets", datasets.join("\n") || "(none)")}`, onUsage });
  return { ...out, questions: out.questions.filter((q) => q.question.trim()).slice(0, 5) };
}

export async function clarificationPlan({ query, qa, feedback, previousPlan, maxTasks, datasets = [], onUsage }: {
  query: string;
  /** The files the user named for the research (not loaded yet). */
  datasets?: string[];
  qa: { question: string; answer: string }[];
  feedback?: string;
  previousPlan?: ClarificationPlan;
  maxTasks: number;
  onUsage?: UsageSink;
}): Promise<ClarificationPlan> {
  const agent = "dr-plan-writer";
  const choices = datasetChoices(datasets.map((filename) => ({ filename })));
  const system = `${agentHeader(agent)}
Write the research plan: a refined objective and the first level's tasks (at most the given number). ${
    choices.length ? "An ANALYSIS task analyses datasets of <datasets>, given by their handles (D1 …)." : ""
  } ${feedback ? "Revise the previous plan as the feedback asks." : ""} ${languageRule(usersLanguage(query, ...qa.map((x) => x.answer), feedback), "the user's query")}`;
  const prompt = [
    tag("query", query),
    choices.length ? tag("datasets", renderDatasetChoices(choices)) : "",
    tag("answers", qa.map((x, i) => `Q${i + 1}: ${x.question}\nA${i + 1}: ${x.answer}`).join("\n\n")),
    tag("max_tasks", String(maxTasks)),
    previousPlan ? tag("previous_plan", JSON.stringify(previousPlan)) : "",
    feedback ? tag("feedback", feedback) : "",
  ].filter(Boolean).join("\n");
  const out = await generateStructured({ agent, schema: planSchema(choices.map((c) => c.handle)), system, prompt, onUsage });
  const drafts: RawTaskDraft[] = out.initialTasks;
  return { objective: out.objective.trim(), initialTasks: resolveDrafts(drafts, choices, maxTasks) };
}
