// The reflection agent: updates the conversation's title, evolving and current objective, key
// insights and methodology (never the original objective).
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader } from "../../ai/prompts";
import type { AgentCall } from "./common";

const schema = z.object({
  conversationTitle: z.string().describe("A short title for the research conversation (at most 8 words)"),
  evolvingObjective: z.string().describe("How the objective has evolved in the light of what was learned"),
  currentObjective: z.string().describe("What the next level of research should focus on"),
  keyInsights: z.array(z.string()).describe("The new insights of this level, one sentence each"),
  methodology: z.string().describe("The methodology followed so far and any change to it"),
});

export type Reflection = z.infer<typeof schema>;

export async function reflect({ context, onUsage, signal }: AgentCall): Promise<Reflection> {
  const agent = "dr-reflection";
  const system = `${agentHeader(agent)}
Reflect on the level that just finished: what was learned, how the objective evolves, what to focus on next, and the method.
Write only the new key insights of this level; earlier ones are kept.`;
  const out = await generateStructured({ agent, schema, system, prompt: context, onUsage, signal });
  return { ...out, keyInsights: out.keyInsights.map((s) => s.trim()).filter(Boolean).slice(0, 10) };
}
