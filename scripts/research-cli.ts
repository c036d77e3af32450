// npm run research -- "<prompt>" --depth 2 --breadth 3 [--answers '["…","…"]'] [--email you@example.com] [--out report.md]
// Runs a tree research in this process against the configured LLM and search, asking the follow-up
// questions on stdin (one answer per line) unless --answers gives them, printing progress, and
// writing the report to a file (and its citation verification beside it). Exit codes: 0 done, 1 failed, 2 bad arguments, 130 interrupted.
import fs from "node:fs";
import { accountFor, CliError, migrateDatabase, runMain, sourcesFromOptions } from "./cli-support";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import { assertResearchConfigured, dropBlankLlmVariables, getEnv } from "../lib/env";
import { questionsRequestSchema, startRequestSchema, type StartRequest } from "../lib/research/schema";
import { parseStringArray } from "../lib/explore/public-shape";
import { treeTopic, type TreeRunEvent } from "../lib/explore/events";
import { verificationSummary } from "../lib/verification/summary";
import { toVerificationView } from "../lib/verification/view";

const USAGE = `usage: npm run research -- "<prompt>" [options]

Runs a tree research, asks the follow-up questions, prints progress and writes the report.

options:
  --depth <n>       levels of the query tree (default 2)
  --breadth <n>     queries on the first level (default 3)
  --questions <n>   follow-up questions to ask for (default 3)
  --answers <list>  the answers, as a JSON array '["a","b"]' or "a|b"; without it the questions
                    are asked on stdin, one answer per line
  --email <email>   file the research under this existing account (default: the only
                    account, when there is exactly one; otherwise no account)
  --out <file>      where to write the report (default reports/<research id>.md)
  --collections <ids> also search these collections (comma-separated ids)
  --no-web          search the collections only (no SearXNG needed)
  -h, --help        show this help`;

const badArgs = (message: string) => new CliError(`${message}\n(npm run research -- --help lists the options)`, 2);

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        depth: { type: "string", default: "2" },
        breadth: { type: "string", default: "3" },
        questions: { type: "string", default: "3" },
        answers: { type: "string" },
        email: { type: "string" },
        out: { type: "string" },
        collections: { type: "string" },
        "no-web": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    // parseArgs's own messages name the option (unknown option, missing or dash-leading value).
    throw badArgs((error as Error).message);
  }
}

function positiveInt(option: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isInteger(value) || value < 1) throw badArgs(`${option} must be a positive integer, got "${raw}"`);
  if (value > max) throw badArgs(`${option} cannot exceed ${max}, got ${value}`);
  return value;
}

function parseAnswers(raw: string): string[] {
  if (!raw.trim().startsWith("[")) return raw.split("|").map((s) => s.trim());
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw badArgs(`--answers is not valid JSON (${(error as Error).message}); pass a JSON array of strings or a |-separated list`);
  }
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === "string")) throw badArgs("--answers must be a JSON array of strings or a |-separated list");
  return parsed;
}

/** Asks each question on stdout and reads one line of stdin per answer (a terminal or a pipe). */
async function askOnStdin(questions: string[]): Promise<string[]> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
  rl.on("SIGINT", () => {
    console.error("\nInterrupted.");
    process.exit(130);
  });
  const lines = rl[Symbol.asyncIterator](); // buffers lines that arrive before they are asked for
  console.log(`\nPlease answer ${questions.length} follow-up questions, one line each:`);
  const answers: string[] = [];
  for (const [i, question] of questions.entries()) {
    console.log(`\n${i + 1}. ${question}`);
    rl.setPrompt("> ");
    rl.prompt();
    const line = await lines.next();
    if (line.done) {
      throw new CliError(`stdin ended after ${answers.length} of ${questions.length} answers: answer every question, or pass them with --answers`);
    }
    const answer = String(line.value).trim();
    // A terminal shows what was typed; piped answers are echoed so the transcript reads as a dialogue.
    if (!process.stdin.isTTY) process.stdout.write(`${answer}\n`);
    answers.push(answer);
  }
  rl.close();
  return answers;
}

async function main(): Promise<number> {
  const { values, positionals } = parseCommandLine();
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const prompt = positionals.join(" ").trim();
  if (!prompt) throw badArgs("a research prompt is required");

  // Everything that can be checked without the LLM is checked before the first call.
  dropBlankLlmVariables(); // before anything imports the AI SDK
  const env = getEnv();
  const depth = positiveInt("--depth", values.depth!, env.MAX_DEPTH);
  const breadth = positiveInt("--breadth", values.breadth!, env.MAX_BREADTH);
  const numQuestions = positiveInt("--questions", values.questions!, env.MAX_QUESTIONS);
  const givenAnswers = values.answers === undefined ? undefined : parseAnswers(values.answers);
  // `npm run` starts in the package root; INIT_CWD is the folder the user ran it from.
  const out = values.out ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out) : undefined;
  if (out) {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.accessSync(path.dirname(out), fs.constants.W_OK);
  }
  const questionsInput = questionsRequestSchema().safeParse({ initial_prompt: prompt, num_questions: numQuestions });
  if (!questionsInput.success) throw badArgs(questionsInput.error.issues[0].message);
  const sources = sourcesFromOptions(values.collections, values["no-web"]);
  assertResearchConfigured({ llm: true, search: sources?.web ?? true });

  migrateDatabase(env.DATABASE_URL);
  // The page extraction workers start now, beside the rest, not inside the first pages' SCRAPE_TIMEOUT_MS
  // (their start takes seconds on a busy machine, and its first pages timed out).
  void (await import("../lib/scrape/extract-pool")).warmExtractPool();
  const { draftWithQuestions, launchResearch } = await import("../lib/research/service");
  const { eventBus } = await import("../lib/events/bus");
  const { runRegistry } = await import("../lib/runs/engines");
  const { deleteResearch, getResearch, loadResearchGraph } = await import("../lib/db/research");
  const { renderErrorOutput } = await import("../lib/research/error-output");
  const { verificationOfResearch } = await import("../lib/db/verifications");

  const userId = await accountFor(values.email, "sign up in the web app, or run npm run token -- create --email <email> --name cli --password '…'");

  console.log("Asking the prompt analyzer for follow-up questions…");
  const { research_id, followup_questions } = await draftWithQuestions({ userId, input: questionsInput.data });
  let input: StartRequest;
  try {
    const answers = givenAnswers ?? (await askOnStdin(followup_questions));
    if (answers.length !== followup_questions.length) {
      const list = followup_questions.map((q, i) => `  ${i + 1}. ${q}`).join("\n");
      throw new CliError(`--answers gives ${answers.length} answer(s) for ${followup_questions.length} question(s):\n${list}`, 2);
    }
    const parsed = startRequestSchema().safeParse({ research_id, followup_answers: answers, depth, breadth, sources });
    if (!parsed.success) throw badArgs(parsed.error.issues[0].message);
    input = parsed.data;
  } catch (error) {
    await deleteResearch({ id: research_id }); // no draft left behind
    throw error;
  }

  const counts = { queries: 0, done: 0, failed: 0, reportDeltas: 0, paused: false };
  // Per query and page, its latest view: pages analysed and findings are counted from them.
  const websites = new Map<string, { status: string; items: number }>();
  const progress = () => {
    const views = [...websites.values()];
    const analysed = views.filter((w) => w.status === "analyzed").length;
    const findings = views.reduce((n, w) => n + w.items, 0);
    return `${counts.done + counts.failed}/${counts.queries} queries · ${analysed} pages analysed · ${findings} findings`;
  };
  eventBus.subscribe(treeTopic(research_id), (event) => {
    const e = event as TreeRunEvent;
    if (e.type === "query.created") {
      counts.queries++;
      console.log(`  + [d${e.data.depth}] ${e.data.text}`);
    } else if (e.type === "query.status" && (e.data.status === "completed" || e.data.status === "failed")) {
      if (e.data.status === "completed") counts.done++;
      else counts.failed++;
      const error = e.data.error_message ? ` — ${e.data.error_message}` : "";
      console.log(`  ${e.data.status === "completed" ? "✓" : "✗"} [d${e.data.depth}] ${e.data.text}${error}  (${progress()})`);
    } else if (e.type === "page.status" || e.type === "item.extracted") {
      websites.set(e.data.id, { status: e.data.status, items: e.data.items.length });
    } else if (e.type === "run.status" && e.data.status === "running" && Boolean(e.data.paused) !== counts.paused) {
      // The LLM provider went down (the run waits and goes on by itself) or came back.
      counts.paused = Boolean(e.data.paused);
      if (e.data.paused) console.log(`  ⏸ ${e.data.paused.reason} — the research goes on by itself when it answers again (Ctrl-C to cancel)`);
      else console.log("  ▶ The LLM provider answers again; the research goes on");
    } else if (e.type === "report.delta") {
      // Whole lines only: a log line printed meanwhile never lands inside a progress line.
      if (counts.reportDeltas++ === 0) console.log(`Writing the report (${progress()})…`);
    }
  });
  console.log(`\nResearch ${research_id}: depth ${depth}, breadth ${breadth}`);
  // Ctrl-C cancels the run (instead of leaving it "running" for the server to resume); twice quits.
  let cancelling: Promise<boolean> | undefined;
  const interrupt = () => {
    console.error("\nCancelling the research… (Ctrl-C again to quit at once)");
    cancelling = runRegistry.cancel("tree", research_id);
    process.once("SIGINT", () => process.exit(130));
  };
  process.once("SIGINT", interrupt);
  process.once("SIGTERM", interrupt);
  await launchResearch({ userId, input });
  await runRegistry.start("tree", research_id); // the run launchResearch began; resolves when it ends
  if (cancelling) {
    await cancelling;
    console.error(`The research ${research_id} was cancelled.`);
    return 130;
  }

  const research = await getResearch({ id: research_id });
  if (!research) throw new CliError(`the research ${research_id} disappeared from the database`);
  const file = out ?? path.resolve("reports", `${research_id}.md`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (research.status === "completed" && research.report) {
    fs.writeFileSync(file, research.report);
    const tokens = research.promptTokens + research.completionTokens;
    console.log(`\nDone: ${counts.done} queries completed, ${counts.failed} failed; ${progress()}; ${tokens} tokens.\nReport written to ${file}`);
    // The citation check, as GET /api/research/:id/verification gives it, beside the report.
    const verification = await verificationOfResearch({ researchId: research_id });
    if (verification) {
      const view = toVerificationView(verification);
      for (const line of verificationSummary(view)) console.log(line);
      const verificationFile = `${file.replace(/\.md$/, "")}.verification.json`;
      fs.writeFileSync(verificationFile, `${JSON.stringify(view, null, 2)}\n`);
      console.log(`Verification written to ${verificationFile}`);
    }
    for (const warning of parseStringArray(research.warnings)) console.log(`Warning: ${warning}`);
    return 0;
  }
  console.error(`\nThe research ${research.status}: ${research.error ?? "no report"}`);
  const graph = await loadResearchGraph({ id: research_id });
  if (graph) {
    const errorFile = file.replace(/\.md$/, "") + ".error-output.md";
    fs.writeFileSync(errorFile, renderErrorOutput(graph));
    console.error(`What was gathered is in ${errorFile}`);
  }
  return 1;
}

runMain(main);
