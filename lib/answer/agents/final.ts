// The final answer in the client's terms: when a client asks for a length limit (max_tokens), a
// format (response_format) or sampling settings (temperature, top_p, seed, penalties; stop goes
// along), the research's answer is written once more under them, from the answer and its quotes,
// in one call. Without them the research's answer goes out as it is and this agent is not called.
import type { ReplyFormat } from "../../ai/call";
import { generateChat } from "../../ai/call";
import { agentHeader, tag } from "../../ai/prompts";
import { languageOf, languageRule } from "../../ai/language";
import type { UsageSink } from "../../ai/usage";
import type { Reference } from "../types";

export async function writeFinalAnswer({
  question,
  answer,
  references,
  maxTokens,
  format,
  temperature,
  topP,
  stop,
  seed,
  frequencyPenalty,
  presencePenalty,
  budget,
  onUsage,
  signal,
}: {
  question: string;
  answer: string;
  references: Reference[];
  maxTokens?: number;
  format?: ReplyFormat;
  temperature?: number;
  topP?: number;
  stop?: string[];
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  budget: (text: string) => number;
  onUsage?: UsageSink;
  signal?: AbortSignal;
}): Promise<{ answer: string; finishReason: "stop" | "length" }> {
  const agent = "answer-final";
  const shape =
    format?.type === "json_schema"
      ? `Reply with one JSON object matching this JSON Schema, filled from the answer:\n${JSON.stringify(format.schema)}`
      : format?.type === "json_object"
        ? "Reply with one JSON object holding the answer."
        : "Reply with the answer's text only.";
  const length = maxTokens ? ` Keep it within ${maxTokens} tokens (about ${Math.max(1, Math.floor(maxTokens * 0.75))} words): say the essential first.` : "";
  const system = `${agentHeader(agent)}
Restate the researched answer to the question for the reader, keeping its facts and nothing more. ${languageRule(languageOf(question), "the question", "the answer")} ${shape}${length}`;
  const prompt = [tag("question", question), tag("answer", answer), references.length ? tag("quotes", references.map((r) => `- ${r.exactQuote} (${r.url})`).join("\n")) : ""].filter(Boolean).join("\n");
  const cap = budget(`${system}\n${prompt}`);
  const r = await generateChat({
    messages: [
      { role: "system", content: system },
      { role: "user", content: prompt },
    ],
    format,
    maxOutputTokens: maxTokens ? Math.min(maxTokens, cap) : cap,
    temperature,
    topP,
    stopSequences: stop,
    seed,
    frequencyPenalty,
    presencePenalty,
    onUsage,
    signal,
  });
  return { answer: format ? r.text.trim() : r.text.trim() || answer, finishReason: r.finishReason };
}
