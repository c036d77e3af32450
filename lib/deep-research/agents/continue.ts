// The continue agent: whether the loop should run another iteration on its own.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import type { AgentCall } from "./common";

const schema = z.object({
  shouldContinue: z.boolean().describe("True to run another iteration without waiting for the user"),
  confidence: z.enum(["high", "medium", "low"]).describe("How sure you are"),
  reasoning: z.string().describe("Why"),
  triggerReason: z.string().describe("What decided it, e.g. open questions remain, objective met, diminishing returns"),
});

export type ContinueDecision = z.infer<typeof schema>;

export async function decideContinue({ context, iteration, maxIterations, onUsage, signal }: AgentCall & { iteration: number; maxIterations: number }): Promise<ContinueDecision> {
  const agent = "dr-continue";
  const system = `${agentHeader(agent)}
Decide whether the research should go on to another iteration by itself, or stop and report to the user: stop when the
objective is met, the suggested next steps add little, or the user's input is needed.`;
  const prompt = [tag("iteration", String(iteration)), tag("max_iterations", String(maxIterations)), context].join("\n");
  return generateStructured({ agent, schema, system, prompt, onUsage, signal });
}
