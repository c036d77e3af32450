// The Uncited Claim Finder Agent: of a report's sentences that cite nothing, which state facts that
// would need a source (figures, dates, events, findings), as opposed to framing, transitions,
// opinions marked as such, or statements about the report itself. The sentences are offered as
// short handles (C1 … Cn, an enum of the call's own), resolved by lib/ai/resolve.ts.
import { z } from "zod";
import { generateStructured } from "../ai/call";
import { agentHeader, tag } from "../ai/prompts";
import { choicesOf, resolveChoice } from "../ai/resolve";
import type { UsageSink } from "../ai/usage";
import type { WaitOptions } from "../concurrency";

/** The ids (of those given) of sentences that state facts without a citation. */
export async function findUncitedClaims({
  question,
  sentences,
  onUsage,
  signal,
  schedule,
}: {
  /** The question the report answers, for context: the sentences are read in its light, and two reports on different questions never send one identical request. */
  question: string;
  sentences: { id: number; text: string }[];
  onUsage?: UsageSink;
  signal?: AbortSignal;
  schedule?: WaitOptions;
}): Promise<Set<number>> {
  if (sentences.length === 0) return new Set();
  const agent = "uncited-claim-finder";
  const choices = choicesOf("C", sentences, (s) => [s.text]);
  // Not the lone candidate whatever is said: with one sentence, an empty-looking value must not flag it.
  const resolve = (value: unknown) => resolveChoice(value, choices, { only: false })?.handle ?? value;
  const schema = z.object({
    factual: z
      .array(z.preprocess(resolve, z.enum(choices.map((c) => c.handle) as [string, ...string[]])).describe("The id of a sentence that states a fact needing a source"))
      .describe("Ids of the sentences that state facts; empty when none do"),
  });
  const system = `${agentHeader(agent)}
The sentences below come from a research report on the question given and cite no source. List the ids (C1, C2, …) of those that state a fact
about the world that a reader would need a source for: a figure, a date, an event, a measured effect, a finding,
a claim about what someone said or did. Do not list framing ("This report covers…"), transitions, questions,
recommendations, or statements that the evidence is missing or uncertain.`;
  const prompt = tag("question", question) + "\n" + tag("sentences", choices.map((c) => tag("sentence", c.value.text, { id: c.handle })).join("\n"));
  const result = await generateStructured({ agent, schema, system, prompt, onUsage, signal, schedule });
  return new Set(result.factual.map((id) => resolveChoice(id, choices, { only: false })?.value.id).filter((id): id is number => id !== undefined));
}
