// The reply agent: the assistant message of an iteration — what was done, the discoveries, the next steps.
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import type { AgentCall } from "./common";

const schema = z.object({
  reply: z.string().describe("The message to the user in Markdown: what this iteration did, the discoveries with their evidence, and the next steps"),
});

export async function writeReply({ context, iteration, continuing, onUsage, signal }: AgentCall & { iteration: number; continuing: boolean }): Promise<string> {
  const agent = "dr-reply";
  const system = `${agentHeader(agent)}
Write the assistant's message for this research iteration: summarise what was done, state the discoveries with their
evidence and confidence, and list the suggested next steps. ${continuing ? "Say that the research goes on with them." : "Ask the user how to proceed."}`;
  const prompt = [tag("iteration", String(iteration)), tag("continuing", String(continuing)), context].join("\n");
  return (await generateStructured({ agent, schema, system, prompt, onUsage, signal })).reply.trim();
}
