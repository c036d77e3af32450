// npm run research -- "<prompt>" --depth 2 --breadth 3 [--questions 3] [--answers '["…","…"]' | --answers "a|b|c"] [--out report.md]
// Runs a tree research in this process against the configured LLM and search, asking the follow-up
// questions in the terminal, printing progress, and writing the report to a file.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline/promises";
import { parseArgs } from "node:util";

function usage(message?: string): never {
  if (message) console.error(`error: ${message}\n`);
  console.error(`usage: npm run research -- "<prompt>" [--depth 2] [--breadth 3] [--questions 3] [--answers '["a","b","c"]' | --answers "a|b|c"] [--out report.md]`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    depth: { type: "string", default: "2" },
    breadth: { type: "string", default: "3" },
    questions: { type: "string", default: "3" },
    answers: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) usage();
const prompt = positionals.join(" ").trim();
if (!prompt) usage("a research prompt is required");

function parseAnswers(raw: string): string[] {
  if (raw.trim().startsWith("[")) {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) usage("--answers must be a JSON array or a |-separated list");
    return parsed.map(String);
  }
  return raw.split("|").map((s) => s.trim());
}

async function main() {
  // Create or migrate the database before anything opens it.
  execFileSync("npx", ["prisma", "migrate", "deploy"], { stdio: ["ignore", "ignore", "inherit"] });
  (await import("../lib/env")).dropBlankLlmVariables();
  const { questionsRequestSchema, startRequestSchema } = await import("../lib/research/schema");
  const { askFollowupQuestions, startResearch } = await import("../lib/research/service");
  const { eventBus } = await import("../lib/events/bus");
  const { runRegistry } = await import("../lib/runs/registry");
  const { getResearch } = await import("../lib/db/research");
  const { AppError } = await import("../lib/errors");

  try {
    const q = questionsRequestSchema().parse({ initial_prompt: prompt, num_questions: Number(values.questions) });
    console.log("Asking the prompt analyzer for follow-up questions…");
    const { research_id, followup_questions } = await askFollowupQuestions({ userId: null, input: q });

    let answers: string[];
    if (values.answers !== undefined) {
      answers = parseAnswers(values.answers);
    } else if (process.stdin.isTTY) {
      const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
      answers = [];
      for (const [i, question] of followup_questions.entries()) answers.push(await rl.question(`\n${i + 1}. ${question}\n> `));
      rl.close();
    } else {
      usage("stdin is not a terminal: pass the answers with --answers");
    }
    if (answers.length !== followup_questions.length) {
      usage(`${followup_questions.length} questions need ${followup_questions.length} answers, got ${answers.length}:\n${followup_questions.map((x, i) => `  ${i + 1}. ${x}`).join("\n")}`);
    }

    const input = startRequestSchema().parse({ research_id, followup_answers: answers, depth: Number(values.depth), breadth: Number(values.breadth) });
    const counts = { queries: 0, done: 0, failed: 0, pages: 0 };
    eventBus.subscribe(research_id, (e) => {
      if (e.type === "query.created") {
        counts.queries++;
        console.log(`  + [d${e.query.depth}] ${e.query.text}`);
      } else if (e.type === "query.status" && (e.query.status === "completed" || e.query.status === "failed")) {
        if (e.query.status === "completed") counts.done++;
        else counts.failed++;
        console.log(`  ${e.query.status === "completed" ? "✓" : "✗"} [d${e.query.depth}] ${e.query.text}${e.query.error_message ? ` — ${e.query.error_message}` : ""}  (${counts.done + counts.failed}/${counts.queries})`);
      } else if (e.type === "item.extracted") {
        counts.pages++;
      } else if (e.type === "report.delta" && e.seq % 50 === 0) {
        process.stdout.write(".");
      }
    });
    console.log(`\nResearch ${research_id}: depth ${input.depth}, breadth ${input.breadth}`);
    await startResearch({ userId: null, input });
    await runRegistry.start(research_id);

    const research = await getResearch({ id: research_id });
    if (!research) throw new Error("The research disappeared");
    const out = path.resolve(values.out ?? path.join("reports", `${research_id}.md`));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    if (research.status === "completed" && research.report) {
      fs.writeFileSync(out, research.report);
      console.log(`\nDone: ${counts.done} queries completed, ${counts.failed} failed, ${counts.pages} pages analysed, ${research.promptTokens + research.completionTokens} tokens.\nReport written to ${out}`);
      process.exit(0);
    }
    console.error(`\nThe research ${research.status}: ${research.error ?? "no report"}`);
    const { loadResearchGraph } = await import("../lib/db/research");
    const { renderErrorOutput } = await import("../lib/research/error-output");
    const graph = await loadResearchGraph({ id: research_id });
    if (graph) {
      const errorFile = out.replace(/\.md$/, "") + ".error-output.md";
      fs.writeFileSync(errorFile, renderErrorOutput(graph));
      console.error(`What was gathered is in ${errorFile}`);
    }
    process.exit(1);
  } catch (error) {
    if (error instanceof AppError) {
      console.error(`error: ${error.message}`);
      process.exit(1);
    }
    const { ZodError } = await import("zod");
    if (error instanceof ZodError) usage(error.issues[0]?.message);
    throw error;
  }
}

void main();
