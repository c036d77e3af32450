// The Uncited Claim Finder Agent: of a report's sentences that cite nothing, which state facts that
// would need a source (figures, dates, events, findings), as opposed to framing, transitions,
// opinions marked as such, or statements about the report itself.
import { z } from "zod";
import { generateStructured } from "../ai/call";
import { agentHeader, tag } from "../ai/prompts";
import type { UsageSink } from "../ai/usage";
import type { WaitOptions } from "../concurrency";

const schema = z.object({
  factual: z.array(z.number().int().describe("The id of a sentence that states a fact needing a source")).describe("Ids of the sentences that state facts; empty when none do"),
});

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
  const system = `${agentHeader(agent)}
The sentences below come from a research report on the question given and cite no source. List the ids of those that state a fact
about the world that a reader would need a source for: a figure, a date, an event, a measured effect, a finding,
a claim about what someone said or did. Do not list framing ("This report covers…"), transitions, questions,
recommendations, or statements that the evidence is missing or uncertain.`;
  const prompt = tag("question", question) + "\n" + tag("sentences", sentences.map((s) => tag("sentence", s.text, { id: String(s.id) })).join("\n"));
  const result = await generateStructured({ agent, schema, system, prompt, onUsage, signal, schedule });
  const ids = new Set(sentences.map((s) => s.id));
  return new Set(result.factual.filter((id) => ids.has(id)));
}
