// The reply agent: the assistant message of an iteration — what was done, the discoveries, the next steps.
// The final reply of a start (the write-up) is given the stored snippets and cites them by handle (S3), so
// that its sentences can be checked against the pages they came from (lib/deep-research/write-up.ts).
// Markdown, streamed: the conversation page shows it as it is written, and the write-up's parts are
// checked while the rest is written.
import { streamPlainText, type StreamHandlers } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import type { AgentCall } from "./common";

/** What the write-up's writer is told when its write-up cited no snippet: it writes it again. */
export const NO_SNIPPETS_CITED =
  "The write-up you wrote cites none of the snippets. Write it again, citing each factual sentence with the handles of its snippets in brackets right after it, e.g. [S3].";

export async function writeReply({ context, iteration, continuing, snippets, problem, onDelta, onRestart, onUsage, signal }: AgentCall & StreamHandlers & { iteration: number; continuing: boolean; snippets?: string; problem?: string }): Promise<string> {
  const agent = "dr-reply";
  const cite = snippets === undefined
    ? ""
    : `\nThis is the research's write-up: state facts only from the snippets shown as <item id="…">, and cite each factual sentence
with the handles of its snippets in brackets right after it, e.g. "Prices fell 20% [S3]." Do not cite anything else.`;
  const system = `${agentHeader(agent)}
Write the assistant's message for this research iteration, in Markdown (answer with the message only): summarise what
was done, state the discoveries with their evidence and confidence, and list the suggested next steps. ${continuing ? "Say that the research goes on with them." : "Ask the user how to proceed."}${cite}`;
  const prompt = [tag("iteration", String(iteration)), tag("continuing", String(continuing)), context, snippets === undefined ? "" : tag("snippets", snippets), problem ? tag("problem", problem) : ""].filter(Boolean).join("\n");
  return (await streamPlainText({ agent, system, prompt, onDelta, onRestart, onUsage, signal })).trim();
}
