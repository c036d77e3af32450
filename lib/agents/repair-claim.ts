// The Claim Repairer Agent: a sentence its sources do not support is rewritten to say only what the
// sources state, or removed. The rewrite is verified again like any other sentence.
import { z } from "zod";
import { generateStructured } from "../ai/call";
import { agentHeader, tag, trimToTokens } from "../ai/prompts";
import type { UsageSink } from "../ai/usage";
import type { WaitOptions } from "../concurrency";

const schema = z.object({
  action: z.enum(["rewrite", "remove"]).describe("rewrite: the sources support a corrected version of the sentence; remove: they do not support anything like it"),
  sentence: z.string().describe("For rewrite: the corrected sentence, stating only what the sources say, without citations or links; empty for remove"),
});

export type Repair = { action: "remove" } | { action: "rewrite"; sentence: string };

export async function repairClaim({
  question,
  sentence,
  context,
  sources,
  sourceBudgetTokens,
  onUsage,
  signal,
  schedule,
}: {
  /** The question the report answers, for context: the sentences are read in its light, and two reports on different questions never send one identical request. */
  question: string;
  sentence: string;
  /** Why the sentence was found unsupported. */
  context: string | null;
  sources: { url: string; title: string | null; text: string }[];
  sourceBudgetTokens: number;
  onUsage?: UsageSink;
  signal?: AbortSignal;
  schedule?: WaitOptions;
}): Promise<Repair> {
  const agent = "claim-repairer";
  const system = `${agentHeader(agent)}
A sentence of a research report cites the sources below, but they do not support it. If the sources state a
corrected, narrower version of the claim, rewrite the sentence to say exactly that (same language, one sentence,
no citations, no links). If they say nothing like it, remove the sentence. Never add anything the sources do not state.`;
  const perSource = Math.max(500, Math.floor(sourceBudgetTokens / Math.max(1, sources.length)));
  const prompt = [
    tag("question", question),
    tag("sentence", sentence),
    context ? tag("verifier_note", context) : "",
    ...sources.map((s) => tag("source", trimToTokens(s.text, perSource), { url: s.url, title: s.title ?? "" })),
  ]
    .filter(Boolean)
    .join("\n");
  const result = await generateStructured({ agent, schema, system, prompt, onUsage, signal, schedule });
  const text = result.sentence.trim();
  // A "rewrite" with no words left is a removal.
  return result.action === "rewrite" && /\p{L}{3}/u.test(text) ? { action: "rewrite", sentence: text } : { action: "remove" };
}
