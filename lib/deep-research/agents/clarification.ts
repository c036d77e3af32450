// The clarification agents: questions before a Deep Research conversation starts, then a plan
// (refined objective and initial tasks) from the answers, regenerated from feedback if asked.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import type { UsageSink } from "../../ai/usage";
import { boundDrafts, taskDraft } from "./common";

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

const planSchema = z.object({
  objective: z.string().describe("The refined research objective"),
  initialTasks: z.array(taskDraft).describe("The first level's tasks"),
});

export type ClarificationQuestions = z.infer<typeof questionsSchema>;
export type ClarificationPlan = z.infer<typeof planSchema>;

export async function clarificationQuestions({ query, datasets, onUsage }: { query: string; datasets: string[]; onUsage?: UsageSink }): Promise<ClarificationQuestions> {
  const agent = "dr-clarifier";
  const system = `${agentHeader(agent)}
Before a long research project starts, ask the few questions whose answers would most change how it is done.`;
  const out = await generateStructured({ agent, schema: questionsSchema, system, prompt: `${tag("query", query)}\n${tag("datasets", datasets.join("\n") || "(none)")}`, onUsage });
  return { ...out, questions: out.questions.filter((q) => q.question.trim()).slice(0, 5) };
}

export async function clarificationPlan({ query, qa, feedback, previousPlan, maxTasks, onUsage }: {
  query: string;
  qa: { question: string; answer: string }[];
  feedback?: string;
  previousPlan?: ClarificationPlan;
  maxTasks: number;
  onUsage?: UsageSink;
}): Promise<ClarificationPlan> {
  const agent = "dr-plan-writer";
  const system = `${agentHeader(agent)}
Write the research plan: a refined objective and the first level's tasks (at most the given number). ${feedback ? "Revise the previous plan as the feedback asks." : ""}`;
  const prompt = [
    tag("query", query),
    tag("answers", qa.map((x, i) => `Q${i + 1}: ${x.question}\nA${i + 1}: ${x.answer}`).join("\n\n")),
    tag("max_tasks", String(maxTasks)),
    previousPlan ? tag("previous_plan", JSON.stringify(previousPlan)) : "",
    feedback ? tag("feedback", feedback) : "",
  ].filter(Boolean).join("\n");
  const out = await generateStructured({ agent, schema: planSchema, system, prompt, onUsage });
  return { objective: out.objective.trim(), initialTasks: boundDrafts(out.initialTasks, maxTasks) };
}
