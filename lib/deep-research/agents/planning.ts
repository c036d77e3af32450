// The planning agent: a level's tasks ("initial" mode), or the suggested next steps once a level is
// done ("next" mode: an empty list means the objective is met).
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag, today } from "../../ai/prompts";
import { boundDrafts, taskDraft, type AgentCall, type TaskDraftOut } from "./common";

const planSchema = z.object({
  tasks: z.array(taskDraft).describe("The tasks of the next research level, run in parallel"),
});

const nextSchema = z.object({
  suggestedNextSteps: z.array(taskDraft).describe("The tasks worth doing next; empty when the objective is met"),
});

export async function planTasks({ context, maxTasks, userMessage, mode, onUsage, signal }: AgentCall & {
  maxTasks: number;
  /** The latest user message: it steers the plan. */
  userMessage?: string;
  mode: "initial" | "next";
}): Promise<TaskDraftOut[]> {
  const agent = "dr-planner";
  const next = mode === "next";
  const system = `${agentHeader(agent)}
Today is ${today()}. You plan an iterative, hypothesis-driven research project like a scientist. ${
    next
      ? "The level just finished. Propose the tasks that would move the objective forward most, building on the discoveries and closing open questions. Propose nothing (an empty list) when the objective is met."
      : "Decide the tasks of the next level from the objective, what is known so far, the user's latest message and the previous suggestions (follow those only where the user agreed with them)."
  }
Use LITERATURE tasks to search published sources, ANALYSIS tasks only for uploaded datasets that loaded (listed in
<datasets> with a table), naming the files each one analyses in datasetFilenames. At most the given number of tasks.`;
  const prompt = [tag("mode", mode), tag("max_tasks", String(maxTasks)), userMessage ? tag("user_message", userMessage) : "", context].filter(Boolean).join("\n");
  if (next) {
    const out = await generateStructured({ agent, schema: nextSchema, system, prompt, onUsage, signal });
    return boundDrafts(out.suggestedNextSteps, maxTasks);
  }
  const out = await generateStructured({ agent, schema: planSchema, system, prompt, onUsage, signal });
  return boundDrafts(out.tasks, maxTasks);
}
