// npm run ask -- "<question>" [--budget N] [--max-bad-attempt N] [--email you@example.com]
// Without a question argument it reads the question from stdin (echo "…" | npm run ask), or asks for it
// on a terminal.
// Runs the answer agent in this process against the configured LLM and search, printing each step
// (action, think, queries or URLs) and the final answer with its references and token usage.
// Exit codes: 0 answered, 1 failed, 2 bad arguments, 130 interrupted.
import { createInterface } from "node:readline/promises";
import { text as readAll } from "node:stream/consumers";
import { parseArgs } from "node:util";
import { accountFor, CliError, migrateDatabase, runMain, sourcesFromOptions } from "./cli-support";
import { assertResearchConfigured, dropBlankLlmVariables, getEnv } from "../lib/env";
import { queryRequestSchema } from "../lib/answer/schema";
import type { AnswerRunEvent } from "../lib/answer/events";

const USAGE = `usage: npm run ask -- "<question>" [options]
       echo "<question>" | npm run ask -- [options]
       npm run ask            (asks for the question)

Asks the answer agent a question; prints its steps, then the answer with references and token usage.

options:
  --budget <n>            token budget (default ANSWER_DEFAULT_BUDGET, at most ANSWER_MAX_BUDGET)
  --max-bad-attempt <n>   rejected answers allowed before beast mode (1–10, default 3)
  --email <email>         file the answer under this existing account (default: the only
                          account, when there is exactly one; otherwise no account)
  --collections <ids>     also search these collections (comma-separated ids)
  --no-web                search the collections only (no SearXNG needed)
  -h, --help              show this help`;


function parseCommandLine() {
  try {
    return parseArgs({ allowPositionals: true, options: { budget: { type: "string" }, "max-bad-attempt": { type: "string" }, email: { type: "string" }, collections: { type: "string" }, "no-web": { type: "boolean" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n(npm run ask -- --help lists the options)`, 2);
  }
}

const num = (raw: string | undefined) => (raw === undefined ? undefined : /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN);

function printStep(e: AnswerRunEvent): void {
  if (e.type !== "progress") return;
  const { step, actionState: a, tokenUsage, badAttempts } = e.data.trackers;
  const detail = a.searchQuery?.join(" | ") ?? a.URLTargets?.join(" ") ?? a.questionsToAnswer?.join(" | ") ?? a.answer?.slice(0, 200) ?? "";
  console.log(`\n[${step}] ${a.action.toUpperCase()}  (${tokenUsage} tokens${badAttempts ? `, ${badAttempts} rejected` : ""})\n    think: ${a.think}\n    ${detail}`);
}

/** The question: the arguments, else stdin when it is piped, else asked for on the terminal. */
async function readQuestion(positionals: string[]): Promise<string> {
  if (positionals.length > 0) return positionals.join(" ");
  if (!process.stdin.isTTY) return readAll(process.stdin);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question("Question: ");
  } finally {
    rl.close();
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseCommandLine();
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  dropBlankLlmVariables();
  const env = getEnv();
  const sources = sourcesFromOptions(values.collections, values["no-web"]);
  const question = await readQuestion(positionals);
  const parsed = queryRequestSchema().safeParse({ q: question, budget: num(values.budget), maxBadAttempt: num(values["max-bad-attempt"]), sources });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const option = { q: "the question", budget: "--budget", maxBadAttempt: "--max-bad-attempt" }[String(issue.path[0])] ?? String(issue.path[0]);
    // The API's field is `q`; here it is the question.
    const message = issue.path[0] === "q" ? `${issue.message.replace(/^q /, "it ")} (give it as an argument, on stdin, or when asked)` : issue.message;
    throw new CliError(`${option}: ${message}`, 2);
  }
  assertResearchConfigured({ llm: true, search: sources?.web ?? true });
  migrateDatabase(env.DATABASE_URL);
  // The page extraction workers start now, beside the rest, not inside the first pages' SCRAPE_TIMEOUT_MS
  // (their start takes seconds on a busy machine, and its first pages timed out).
  void (await import("../lib/scrape/extract-pool")).warmExtractPool();
  const { startAnswer, getAnswer } = await import("../lib/answer/service");
  const { eventBus } = await import("../lib/events/bus");
  const { runRegistry } = await import("../lib/runs/engines");
  const { answerTopic } = await import("../lib/answer/events");

  const userId = await accountFor(values.email, "sign up in the web app first");
  const { requestId, runId } = await startAnswer({ userId, ...parsed.data });
  console.log(`Question: ${parsed.data.q}\nRequest ${requestId}`);
  eventBus.subscribe(answerTopic(runId), (e) => printStep(e as AnswerRunEvent));
  let cancelled = false;
  process.once("SIGINT", () => {
    cancelled = true;
    console.error("\nCancelling… (Ctrl-C again to quit at once)");
    void runRegistry.cancel("answer", runId);
    process.once("SIGINT", () => process.exit(130));
  });
  await runRegistry.start("answer", runId); // the run startAnswer began; resolves when it ends
  if (cancelled) return 130;
  const view = await getAnswer({ requestId, userId });
  if (view.status !== "completed") {
    console.error(`\nThe answer run ${view.status}: ${view.error ?? "no answer"}`);
    return 1;
  }
  console.log(`\nANSWER\n${view.answer}\n`);
  view.references.forEach((r, i) => console.log(`[${i + 1}] ${r.title} — ${r.url}\n    "${r.exactQuote}"`));
  const u = view.usage;
  const parts = Object.entries(u.byPurpose).filter(([, v]) => v.calls > 0).map(([k, v]) => `${k} ${v.promptTokens + v.completionTokens}`);
  console.log(`\nTokens: ${u.totalTokens} of ${u.budget} (${parts.join(", ")}); ${view.steps?.length ?? 0} steps; read ${view.readURLs.length} of ${view.visitedURLs.length} pages visited.`);
  return 0;
}

runMain(main);
