import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { StructuredOutputError } from "../../ai/errors";
import { agentHeader, tag, today } from "../../ai/prompts";
import { languageOf, languageRule } from "../../ai/language";
import type { UsageSink } from "../../ai/usage";

const schema = z.object({
  questions: z.array(z.string().describe("One clarifying question, answerable in a sentence")).describe("The follow-up questions"),
});

/** The Prompt Analyzer Agent: exactly `count` follow-up questions tailored to the prompt. */
export async function generateFollowupQuestions({
  prompt,
  count,
  onUsage,
  signal,
}: {
  prompt: string;
  count: number;
  onUsage?: UsageSink;
  signal?: AbortSignal;
}): Promise<string[]> {
  const agent = "prompt-analyzer";
  const system = `${agentHeader(agent)}
Today is ${today()}. A researcher wants a cited research report. Before researching, ask follow-up questions that
clarify scope, audience, time frame, geography, depth and what a useful answer looks like — only what would
change how the research is done. Each question must be specific to this prompt, short and self-contained.
Write exactly the number of questions asked for. ${languageRule(languageOf(prompt), "the researcher's prompt")}`;
  const user = `${tag("prompt", prompt)}\n${tag("count", String(count))}`;

  const questions: string[] = [];
  // Enforce the count: keep the first `count` distinct questions; ask again for any shortfall.
  for (let round = 0; round < 3 && questions.length < count; round++) {
    const missing = count - questions.length;
    const already = questions.length ? `\n${tag("already_asked", questions.join("\n"))}\nWrite ${missing} different questions.` : "";
    const result = await generateStructured({
      agent,
      schema,
      system,
      prompt: user.replace(`<count>\n${count}\n</count>`, `<count>\n${missing}\n</count>`) + already,
      onUsage,
      signal,
    });
    for (const q of result.questions.map((s) => s.trim()).filter(Boolean)) {
      if (questions.length < count && !questions.some((e) => e.toLowerCase() === q.toLowerCase())) questions.push(q);
    }
  }
  if (questions.length < count) {
    throw new StructuredOutputError(agent, `wrote ${questions.length} of ${count} questions`);
  }
  return questions;
}
