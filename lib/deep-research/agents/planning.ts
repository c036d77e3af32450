// The planning agent: a level's tasks ("initial" mode), or the suggested next steps once a level is
// done ("next" mode: an empty list means the objective is met). The loaded datasets are offered by
// handle (D1: expr.csv …), so an ANALYSIS task names one the model cannot miss (agents/common.ts).
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag, today } from "../../ai/prompts";
import { handles } from "../../ai/resolve";
import { datasetChoices, renderDatasetChoices, resolveDrafts, taskDraftSchema, type AgentCall, type PlannedDataset, type RawTaskDraft, type TaskDraftOut } from "./common";

/** The schemas of a call: the drafts offer the handles of the datasets loaded now (made once per count, as lib/ai converts each schema once). */
const schemasByCount = new Map<number, ReturnType<typeof makeSchemas>>();

function makeSchemas(count: number) {
  const draft = taskDraftSchema(handles("D", count));
  return {
    plan: z.object({ tasks: z.array(draft).describe("The tasks of the next research level, run in parallel") }),
    next: z.object({ suggestedNextSteps: z.array(draft).describe("The tasks worth doing next; empty when the objective is met") }),
  };
}

function schemas(count: number) {
  let s = schemasByCount.get(count);
  if (!s) schemasByCount.set(count, (s = makeSchemas(count)));
  return s;
}

export async function planTasks({ context, maxTasks, userMessage, mode, datasets = [], onUsage, signal }: AgentCall & {
  maxTasks: number;
  /** The latest user message: it steers the plan. */
  userMessage?: string;
  mode: "initial" | "next";
  /** The datasets that loaded: ANALYSIS tasks choose among them. */
  datasets?: PlannedDataset[];
}): Promise<TaskDraftOut[]> {
  const agent = "dr-planner";
  const next = mode === "next";
  const choices = datasetChoices(datasets);
  const system = `${agentHeader(agent)}
Today is ${today()}. You plan an iterative, hypothesis-driven research project like a scientist. ${
    next
      ? "The level just finished. Propose the tasks that would move the objective forward most, building on the discoveries and closing open questions. Propose nothing (an empty list) when the objective is met."
      : "Decide the tasks of the next level from the objective, what is known so far, the user's latest message and the previous suggestions (follow those only where the user agreed with them)."
  }
${
    choices.length
      ? "Use LITERATURE tasks to search published sources, and ANALYSIS tasks to analyse the loaded datasets, listed in\n<loaded_datasets> by handle: give each ANALYSIS task the handles of the datasets it analyses (D1, D2 …)."
      : "Use LITERATURE tasks to search published sources. No dataset is loaded, so plan no ANALYSIS task."
  } At most the given number of tasks.`;
  const prompt = [
    tag("mode", mode),
    tag("max_tasks", String(maxTasks)),
    choices.length ? tag("loaded_datasets", renderDatasetChoices(choices)) : "",
    userMessage ? tag("user_message", userMessage) : "",
    context,
  ].filter(Boolean).join("\n");
  const schema = schemas(choices.length);
  // The drafts' type is the schema's own; read as the shape both variants share.
  const drafts: RawTaskDraft[] = next
    ? (await generateStructured({ agent, schema: schema.next, system, prompt, onUsage, signal })).suggestedNextSteps
    : (await generateStructured({ agent, schema: schema.plan, system, prompt, onUsage, signal })).tasks;
  return resolveDrafts(drafts, choices, maxTasks);
}
