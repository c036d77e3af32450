// quick_answer: the answer agent (POST /api/v1/query, then its stream) in one call: the answer, the
// references with the quotes that support it, and the tokens it used. Progress: one notification per
// step of the agent. A cancel from the client cancels the run; a closed connection leaves it going.
import { z } from "zod";
import { queryRequestSchema } from "../../answer/schema";
import { cancelAnswer, getAnswer, startAnswer } from "../../answer/service";
import type { AnswerRunEvent } from "../../answer/events";
import { getEnv } from "../../env";
import { AppError } from "../../errors";
import type { ToolContext } from "../context";
import { followToEnd } from "../follow";
import { parseWith, sourcesOf, sourcesShape } from "../inputs";
import { toolError, toolResult } from "../results";
import { noteStarted } from "../started";

export function quickAnswerInput() {
  const env = getEnv();
  return {
    question: z.string().min(1).max(10_000).describe("The question, in full sentences; the more specific, the better the answer."),
    budget: z
      .number()
      .int()
      .positive()
      .max(env.ANSWER_MAX_BUDGET)
      .optional()
      .describe(`Token budget of the run (default ${env.ANSWER_DEFAULT_BUDGET}, at most ${env.ANSWER_MAX_BUDGET}). The agent answers once it is sure, usually well within it.`),
    ...sourcesShape,
  };
}

const reference = z.object({
  url: z.string(),
  title: z.string(),
  quote: z.string().describe("The words of the page that support the answer, as stored from the page."),
});

export const quickAnswerOutput = {
  requestId: z.string().describe("The answer run's id: GET /api/v1/answers/{requestId}, or get_report."),
  answer: z.string().describe("The answer, in Markdown."),
  references: z.array(reference),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number(), budget: z.number() }),
  steps: z.number().describe("Steps the agent took (search, read, reflect, answer)."),
};

type Args = { question: string; budget?: number; collections?: string[]; web?: boolean };

export async function quickAnswer(args: Args, ctx: ToolContext) {
  const input = parseWith(queryRequestSchema(), { q: args.question, budget: args.budget, sources: sourcesOf(args) }, "query", { q: "question", sources: "collections" });
  const { requestId, runId } = await startAnswer({ userId: ctx.userId, ...input });
  noteStarted("answer", runId);
  const end = await followToEnd<AnswerRunEvent>({
    kind: "answer",
    subjectId: runId,
    userId: ctx.userId,
    signal: ctx.signal,
    notFound: new AppError("not_found:answer", "Answer not found"),
    onEvent: (e) => {
      if (e.type !== "progress") return;
      const { step, actionState, tokenUsage } = e.data.trackers;
      return ctx.progress({ progress: step, message: `Step ${step}: ${actionState.action} (${tokenUsage} tokens)` });
    },
  });
  if (end === "aborted") {
    // The client's answer no longer goes anywhere; the run stops only on its cancel.
    if (ctx.cancelled()) await cancelAnswer({ requestId, userId: ctx.userId }).catch(() => undefined);
    return toolError(new AppError("conflict:answer", "The call was cancelled or its connection closed"));
  }
  const view = await getAnswer({ requestId, userId: ctx.userId });
  if (view.status !== "completed") {
    return toolError(new AppError("unavailable:answer", `The answer run ${view.status}: ${view.error ?? "no answer"} (request ${requestId})`));
  }
  const structured = {
    requestId,
    answer: view.answer ?? "",
    references: view.references.map((r) => ({ url: r.url, title: r.title, quote: r.exactQuote })),
    usage: { promptTokens: view.usage.promptTokens, completionTokens: view.usage.completionTokens, totalTokens: view.usage.totalTokens, budget: view.usage.budget },
    steps: view.steps?.length ?? 0,
  };
  const refs = structured.references.map((r, i) => `[${i + 1}] ${r.title} — ${r.url}\n    "${r.quote}"`).join("\n");
  return toolResult(structured, `${structured.answer}${refs ? `\n\nReferences:\n${refs}` : ""}\n\n(${structured.usage.totalTokens} tokens; request ${requestId})`);
}
