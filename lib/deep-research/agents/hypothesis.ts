// The hypothesis agent: the current best hypothesis, with its rationale and the tasks it rests on.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader } from "../../ai/prompts";
import type { AgentCall } from "./common";

const schema = z.object({
  hypothesis: z.string().describe("One testable statement that best explains what the research has found so far"),
  rationale: z.string().describe("Why the evidence supports it, and what would refute it"),
  evidenceTaskIds: z.array(z.string()).describe("Ids of the tasks (e.g. lit-2-1) whose findings it rests on"),
});

export type Hypothesis = z.infer<typeof schema>;

export async function formHypothesis({ context, knownTaskIds, onUsage, signal }: AgentCall & { knownTaskIds: string[] }): Promise<Hypothesis> {
  const agent = "dr-hypothesis";
  const system = `${agentHeader(agent)}
From the research state and the latest level's task results, state the current hypothesis, its rationale, and cite the task ids it rests on.`;
  const out = await generateStructured({ agent, schema, system, prompt: context, onUsage, signal });
  // Only real task ids count as evidence.
  return { ...out, evidenceTaskIds: out.evidenceTaskIds.filter((id) => knownTaskIds.includes(id)) };
}
