// The hypothesis agent: the current best hypothesis, with its rationale and the tasks it rests on
// (offered by their ids, lit-2-1, and resolved: only tasks that exist count as evidence).
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader } from "../../ai/prompts";
import { handleField, resolveAll } from "./choices";
import type { AgentCall } from "./common";

function hypothesisSchema(taskIds: string[]) {
  return z.object({
    hypothesis: z.string().describe("One testable statement that best explains what the research has found so far"),
    rationale: z.string().describe("Why the evidence supports it, and what would refute it"),
    evidenceTaskIds: z.array(handleField(taskIds, "A task's id")).describe("Ids of the tasks (e.g. lit-2-1) whose findings it rests on"),
  });
}

export type Hypothesis = z.infer<ReturnType<typeof hypothesisSchema>>;

export async function formHypothesis({ context, knownTaskIds, onUsage, signal }: AgentCall & { knownTaskIds: string[] }): Promise<Hypothesis> {
  const agent = "dr-hypothesis";
  const system = `${agentHeader(agent)}
From the research state and the latest level's task results, state the current hypothesis, its rationale, and cite the task ids it rests on.`;
  const out = await generateStructured({ agent, schema: hypothesisSchema(knownTaskIds), system, prompt: context, onUsage, signal });
  // Only tasks that exist count as evidence; a lone task is not taken for any value.
  const tasks = knownTaskIds.map((id) => ({ handle: id, value: id }));
  return { ...out, evidenceTaskIds: resolveAll(out.evidenceTaskIds, tasks).resolved.map((c) => c.value) };
}
