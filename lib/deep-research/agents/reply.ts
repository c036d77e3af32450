// The reply agent: the assistant message of an iteration — what was done, the discoveries, the next steps.
// The final reply of a start (the write-up) is given the stored snippets and cites them by handle (S3), so
// that its sentences can be checked against the pages they came from (lib/deep-research/write-up.ts).
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import type { AgentCall } from "./common";

const schema = z.object({
  reply: z.string().describe("The message to the user in Markdown: what this iteration did, the discoveries with their evidence, and the next steps"),
});

export async function writeReply({ context, iteration, continuing, snippets, onUsage, signal }: AgentCall & { iteration: number; continuing: boolean; snippets?: string }): Promise<string> {
  const agent = "dr-reply";
  const cite = snippets === undefined
    ? ""
    : `\nThis is the research's write-up: state facts only from the snippets shown as <item id="…">, and cite each factual sentence
with the handles of its snippets in brackets right after it, e.g. "Prices fell 20% [S3]." Do not cite anything else.`;
  const system = `${agentHeader(agent)}
Write the assistant's message for this research iteration: summarise what was done, state the discoveries with their
evidence and confidence, and list the suggested next steps. ${continuing ? "Say that the research goes on with them." : "Ask the user how to proceed."}${cite}`;
  const prompt = [tag("iteration", String(iteration)), tag("continuing", String(continuing)), context, snippets === undefined ? "" : tag("snippets", snippets)].filter(Boolean).join("\n");
  return (await generateStructured({ agent, schema, system, prompt, onUsage, signal })).reply.trim();
}
