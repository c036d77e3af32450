// The answer evaluator: is an answer to the original question definitive, fresh enough (when the
// question is time-sensitive), plural enough (when it asks for N items) and complete (when it names
// several aspects)? Attribution is not asked of it: that is checked in code (lib/answer/attribution.ts).
import { z } from "zod";
import { generateStructured } from "../../ai/call";
import { agentHeader, tag, today } from "../../ai/prompts";
import type { UsageSink } from "../../ai/usage";

const verdict = (what: string) =>
  z.object({
    applies: z.boolean().describe(`Whether the question calls for this check: ${what}`),
    pass: z.boolean().describe("Whether the answer passes (true when the check does not apply)"),
    reason: z.string().describe("Why, in one sentence"),
  });

const schema = z.object({
  definitive: verdict("always true: every answer must be definitive, without hedging or 'I don't know'"),
  freshness: verdict("the question is time-sensitive (latest, current, prices, versions…)"),
  plurality: verdict("the question asks for a number of items, and the answer must give that many"),
  completeness: verdict("the question names several aspects, and the answer must cover each"),
  lesson: z.string().describe("If it fails: what the next attempt must do differently, concretely"),
});

export type Evaluation = { pass: boolean; failed: string[]; lesson: string };

export async function evaluateAnswer({
  question,
  context = "",
  answer,
  references,
  budget,
  onUsage,
  signal,
}: {
  question: string;
  /** The conversation before the question: a follow-up ("and in 2023?") is judged in it. */
  context?: string;
  answer: string;
  references: { url: string; exactQuote: string }[];
  budget?: (text: string) => number;
  onUsage?: UsageSink;
  signal?: AbortSignal;
}): Promise<Evaluation> {
  const agent = "answer-evaluator";
  const system = `${agentHeader(agent)}
Today is ${today()}. You review an answer to a question, strictly. Decide which checks apply, and whether the answer passes each.${context ? " The question continues the conversation given: read it in that conversation." : ""}`;
  const prompt = [context ? tag("conversation", context) : "", tag("question", question), tag("answer", answer), tag("references", references.map((r) => `- ${r.url}: "${r.exactQuote}"`).join("\n") || "(none)")].filter(Boolean).join("\n");
  const r = await generateStructured({ agent, schema, system, prompt, budget, onUsage, signal });
  // Definitive always applies, whatever the model says about it.
  const checks = { definitive: { ...r.definitive, applies: true }, freshness: r.freshness, plurality: r.plurality, completeness: r.completeness };
  const failed = Object.entries(checks)
    .filter(([, v]) => v.applies && !v.pass)
    .map(([name, v]) => `${name}: ${v.reason}`);
  return { pass: failed.length === 0, failed, lesson: failed.length ? `${failed.join("; ")}. ${r.lesson}`.trim() : "" };
}
