// The research CLI (scripts/research-cli.ts, `npm run research`) run as a child process against the
// loopback fakes, each run on its own freshly migrated SQLite database.
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { FABRICATED_URL, startFakes, type Fakes } from "../fakes";
import { migratedDatabase } from "../helpers/app-server";
import { createTestUser } from "../helpers/auth";
import { citedUrls } from "../helpers/research";
import { createPrismaClient } from "@/lib/db/create-client";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI = path.join(ROOT, "scripts", "research-cli.ts");
const OUT_DIR = path.join(ROOT, "data", "test", `cli-${process.pid}`);
// Generous: each run starts the CLI from sources (tsx) on a fresh database, and a full test run's other
// parts load the machine beside it (a start alone has taken over 30 s there).
const RUN_TIMEOUT_MS = 180_000;

type Db = ReturnType<typeof createPrismaClient>;

interface CliRun {
  child: ChildProcess;
  /** Everything printed so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process exits; kills it (and fails) after RUN_TIMEOUT_MS. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

let fakes: Fakes;
const clients: Db[] = [];

/** A fresh migrated database for one CLI run, and a client to inspect it. */
function freshDatabase(name: string): { url: string; db: Db } {
  const url = `file:${migratedDatabase(name)}`;
  const db = createPrismaClient(url);
  clients.push(db);
  return { url, db };
}

function cliEnv(databaseUrl: string, overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...fakes.env,
    DATABASE_URL: databaseUrl,
    SCRAPE_TIMEOUT_MS: "1500",
    REPORTS_DIR: path.join(OUT_DIR, "reports"),
    ...overrides,
  };
  for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete env[k];
  return env;
}

function runCli(args: string[], env: NodeJS.ProcessEnv, { stdin = "ignore" }: { stdin?: "ignore" | "pipe" } = {}): CliRun {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], { cwd: ROOT, env, stdio: [stdin, "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exit = new Promise<Awaited<CliRun["exit"]>>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the CLI did not exit within ${RUN_TIMEOUT_MS} ms\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
    }, RUN_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

async function waitForOutput(run: CliRun, pattern: RegExp, what: string, timeoutMs = 120_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = run.stdout().match(pattern);
    if (match) return match;
    if (run.child.exitCode !== null || Date.now() > deadline) {
      assert.fail(`waiting for ${what}: the CLI ${run.child.exitCode !== null ? `exited (${run.child.exitCode})` : "timed out"}\n--- stdout\n${run.stdout()}\n--- stderr\n${run.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

function assertNoStackTrace(stderr: string): void {
  assert.doesNotMatch(stderr, /^\s+at .+[(:]\d+/m, `stack trace printed:\n${stderr}`);
  assert.doesNotMatch(stderr, /node:internal|\.ts:\d+:\d+/, `stack trace printed:\n${stderr}`);
}

function researchId(stdout: string): string {
  const id = /^Research (\S+): depth/m.exec(stdout)?.[1];
  assert.ok(id, `no "Research <id>" line in:\n${stdout}`);
  return id;
}

before(async () => {
  fakes = await startFakes({ llm: { latencyMs: 10 }, search: { latencyMs: 5 }, web: { latencyMs: 5 } });
  fs.rmSync(OUT_DIR, { recursive: true, force: true });
  fs.mkdirSync(OUT_DIR, { recursive: true });
});
after(async () => {
  await Promise.all(clients.map((c) => c.$disconnect()));
  await fakes?.stop();
});
beforeEach(() => fakes.reset());

describe("research CLI", () => {
  test("scripted: --answers, depth 2 × breadth 2, writes a cited Markdown report and prints progress", async () => {
    fakes.llm.configure({ hallucinateCitation: true });
    const { url, db } = freshDatabase("cli-scripted");
    const out = path.join(OUT_DIR, "scripted", "report.md");
    const answers = ["Europe since 2020", "Energy analysts, fairly technical"];
    const result = await runCli(
      ["Grid-scale battery storage economics", "--questions", "2", "--answers", JSON.stringify(answers), "--depth", "2", "--breadth", "2", "--out", out],
      cliEnv(url),
    ).exit;
    assert.equal(result.code, 0, `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);

    // Progress: every query is announced when created and when finished, then the outcome.
    const created = result.stdout.match(/^ {2}\+ \[d(\d)\] .+$/gm) ?? [];
    const finished = result.stdout.match(/^ {2}✓ \[d\d\] .+\(\d+\/\d+ queries · \d+ pages analysed · \d+ findings\)$/gm) ?? [];
    assert.equal(created.length, 4, result.stdout);
    assert.equal(finished.length, 4, result.stdout);
    const done = result.stdout.match(/Done: 4 queries completed, 0 failed; 4\/4 queries · (\d+) pages analysed · (\d+) findings/);
    assert.ok(done, result.stdout);
    assert.ok(Number(done[1]) > 0 && Number(done[2]) > 0, "pages and findings are counted");
    assert.match(result.stdout, /^Writing the report \(4\/4 queries · \d+ pages analysed · \d+ findings\)…$/m, "the report line is a whole line");
    assert.ok(result.stdout.includes(`Report written to ${out}`), result.stdout);
    // The citation check is printed and written beside the report, as the API gives it.
    const rate = /^Citations verified: support rate (\d+)% — (\d+) supported, \d+ partly supported, \d+ unsupported, \d+ uncited of (\d+) claims\.$/m.exec(result.stdout);
    assert.ok(rate, result.stdout);
    assert.equal(Number(rate[1]), Math.round((100 * Number(rate[2])) / Number(rate[3])));
    const verification = JSON.parse(fs.readFileSync(out.replace(/\.md$/, ".verification.json"), "utf8")) as { status: string; counts: { claims: number } };
    assert.equal(verification.status, "done");
    assert.equal(verification.counts.claims, Number(rate[3]));

    // The tree in the database.
    const id = researchId(result.stdout);
    const research = await db.research.findUniqueOrThrow({ where: { id } });
    assert.equal(research.status, "completed");
    assert.equal(research.depth, 2);
    assert.equal(research.breadth, 2);
    assert.deepEqual(JSON.parse(research.followupAnswers), answers);
    assert.equal(research.userId, null);
    const queries = await db.serpQuery.findMany({ where: { researchId: id } });
    assert.deepEqual([1, 2].map((d) => queries.filter((q) => q.depth === d).length), [2, 2]);
    assert.ok(queries.every((q) => q.status === "completed"), queries.map((q) => `${q.text}: ${q.status}`).join(", "));

    // The report file: the research's Markdown report, citing only pages that were analysed.
    const report = fs.readFileSync(out, "utf8");
    assert.equal(report, research.report);
    assert.match(report, /^# .+/m);
    assert.match(report, /^## .+/m);
    const analysed = new Set(
      (await db.queryPage.findMany({ where: { status: "analyzed", query: { researchId: id } }, include: { page: true } })).map((qp) => qp.page.url),
    );
    const cited = citedUrls(report);
    assert.ok(cited.length >= 2, `the report cites ${cited.length} sources`);
    for (const u of cited) assert.ok(analysed.has(u), `the report cites ${u}, which was not analysed`);
    assert.ok(fakes.llm.log.some((e) => e.agent === "report-writer" && String(e.reply).includes(FABRICATED_URL)), "the fake did cite a fabricated URL");
    assert.ok(!report.includes(FABRICATED_URL), "the fabricated citation is not in the report file");
  });

  test("a relative --out is written where the user ran `npm run` (INIT_CWD), not in the package root", async () => {
    const { url } = freshDatabase("cli-relative-out");
    const userDir = path.join(OUT_DIR, "user-cwd");
    fs.mkdirSync(userDir, { recursive: true });
    const result = await runCli(
      ["Heat pumps in cold climates", "--questions", "1", "--answers", '["Nordic countries"]', "--depth", "1", "--breadth", "1", "--out", "mine.md"],
      { ...cliEnv(url), INIT_CWD: userDir },
    ).exit;
    assert.equal(result.code, 0, result.stderr);
    assert.ok(fs.existsSync(path.join(userDir, "mine.md")), result.stdout);
    assert.ok(!fs.existsSync(path.join(ROOT, "mine.md")), "nothing written to the package root");
  });

  test("interactive: asks each follow-up question on stdin and saves the answers", async () => {
    const { url, db } = freshDatabase("cli-interactive");
    const out = path.join(OUT_DIR, "interactive.md");
    const run = runCli(["Heat pumps in cold climates", "--questions", "2", "--depth", "1", "--breadth", "2", "--out", out], cliEnv(url), { stdin: "pipe" });
    const answers = ["Nordic countries, last five years", "Homeowners deciding on a retrofit"];
    const asked: string[] = [];
    for (const [i, answer] of answers.entries()) {
      // Answer only once the question and its prompt are on screen.
      const match = await waitForOutput(run, new RegExp(`^${i + 1}\\. (.+)\\n> `, "m"), `question ${i + 1}`);
      asked.push(match[1]);
      assert.doesNotMatch(run.stdout(), new RegExp(`^${i + 2}\\. `, "m"), "the next question waits for this answer");
      run.child.stdin!.write(`${answer}\n`);
    }
    const result = await run.exit;
    assert.equal(result.code, 0, `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
    assert.ok(fs.existsSync(out), "the report was written");

    for (const answer of answers) assert.ok(result.stdout.includes(`> ${answer}\n`), `the piped answer is echoed: ${answer}`);
    const research = await db.research.findUniqueOrThrow({ where: { id: researchId(result.stdout) } });
    assert.equal(research.status, "completed");
    assert.deepEqual(JSON.parse(research.followupQuestions), asked, "the questions shown are the research's questions");
    assert.deepEqual(JSON.parse(research.followupAnswers), answers);
    const queryPrompts = fakes.llm.log.filter((e) => e.agent !== "prompt-analyzer").map((e) => JSON.stringify(e.messages));
    assert.ok(answers.every((a) => queryPrompts.some((p) => p.includes(a))), "the answers reach the research agents");
  });

  test("interactive: stdin closing before every question is answered fails clearly and leaves no draft", async () => {
    const { url, db } = freshDatabase("cli-eof");
    const run = runCli(["Heat pumps in cold climates", "--questions", "2", "--depth", "1", "--breadth", "1"], cliEnv(url), { stdin: "pipe" });
    await waitForOutput(run, /^1\. .+\n> /m, "question 1");
    run.child.stdin!.end("Only one answer\n");
    const result = await run.exit;
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /stdin ended after 1 of 2 answers/);
    assertNoStackTrace(result.stderr);
    assert.equal(await db.research.count(), 0);
  });

  describe("bad input fails at once with a clear message and no stack trace", () => {
    const cases: { name: string; args: string[]; code: number; message: RegExp; llmCalls?: boolean }[] = [
      { name: "missing prompt", args: ["--depth", "2"], code: 2, message: /a research prompt is required/ },
      { name: "blank prompt", args: ["   "], code: 2, message: /a research prompt is required/ },
      { name: "--depth 0", args: ["Grid batteries", "--depth", "0", "--answers", "a|b|c"], code: 2, message: /--depth must be a positive integer, got "0"/ },
      { name: "--depth=-1", args: ["Grid batteries", "--depth=-1"], code: 2, message: /--depth must be a positive integer, got "-1"/ },
      { name: "--depth -1", args: ["Grid batteries", "--depth", "-1"], code: 2, message: /--depth/ },
      { name: "--breadth abc", args: ["Grid batteries", "--breadth", "abc"], code: 2, message: /--breadth must be a positive integer, got "abc"/ },
      { name: "--depth above MAX_DEPTH", args: ["Grid batteries", "--depth", "50"], code: 2, message: /--depth cannot exceed 5/ },
      { name: "unknown option", args: ["Grid batteries", "--deep", "2"], code: 2, message: /Unknown option '--deep'/ },
      { name: "--answers not JSON", args: ["Grid batteries", "--answers", "[\"a\","], code: 2, message: /--answers is not valid JSON/ },
      {
        name: "wrong number of --answers",
        args: ["Grid batteries", "--questions", "3", "--answers", '["only one","and two"]'],
        code: 2,
        message: /--answers gives 2 answer\(s\) for 3 question\(s\)/,
        llmCalls: true,
      },
    ];
    for (const c of cases) {
      test(c.name, async () => {
        const { url, db } = freshDatabase("cli-bad");
        const result = await runCli(c.args, cliEnv(url)).exit;
        assert.equal(result.code, c.code, `exit ${result.code}\n--- stderr\n${result.stderr}`);
        assert.match(result.stderr, c.message);
        assert.match(result.stderr, /^error: /m);
        assertNoStackTrace(result.stderr);
        assert.equal(fakes.llm.log.length > 0, c.llmCalls ?? false, "LLM calls");
        assert.equal(await db.research.count(), 0, "no research is left behind");
      });
    }

    test("no LLM configured: names OPENAI_API_KEY / OPENAI_BASE_URL before any work", async () => {
      const { url } = freshDatabase("cli-nollm");
      const started = Date.now();
      const result = await runCli(["Grid batteries", "--answers", "a|b|c"], cliEnv(url, { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined })).exit;
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /^error: .*(OPENAI_API_KEY|OPENAI_BASE_URL)/m);
      assertNoStackTrace(result.stderr);
      assert.doesNotMatch(result.stdout, /Asking the prompt analyzer/);
      assert.ok(Date.now() - started < 15_000, "fails at once");
    });

    test("--help prints the usage on stdout and exits 0", async () => {
      const result = await runCli(["--help"], cliEnv("file:/nonexistent/never-opened.db")).exit;
      assert.equal(result.code, 0);
      assert.match(result.stdout, /^usage: npm run research -- "<prompt>"/m);
      for (const option of ["--depth", "--breadth", "--questions", "--answers", "--email", "--out"]) assert.ok(result.stdout.includes(option), option);
      assert.equal(result.stderr, "");
    });
  });

  describe("--email", () => {
    test("files the research under that account", async () => {
      const { url, db } = freshDatabase("cli-email");
      const user = await createTestUser(db, { email: "researcher@test.local" });
      const out = path.join(OUT_DIR, "email.md");
      const result = await runCli(
        ["Grid batteries", "--email", "Researcher@Test.local", "--questions", "1", "--answers", "Europe", "--depth", "1", "--breadth", "1", "--out", out],
        cliEnv(url),
      ).exit;
      assert.equal(result.code, 0, result.stderr);
      const research = await db.research.findUniqueOrThrow({ where: { id: researchId(result.stdout) } });
      assert.equal(research.userId, user.id);
      assert.equal(research.status, "completed");
    });

    test("without --email, the only account gets the research; settings come from .env", async () => {
      const { url, db } = freshDatabase("cli-sole-user");
      const user = await createTestUser(db, { email: "only@test.local" });
      const envFile = path.join(OUT_DIR, "sole-user.env");
      fs.mkdirSync(OUT_DIR, { recursive: true });
      fs.writeFileSync(envFile, `# as an installation's .env\nDATABASE_URL=${url}\n`);
      const result = await runCli(
        ["Grid batteries", "--questions", "1", "--answers", "Europe", "--depth", "1", "--breadth", "1", "--out", path.join(OUT_DIR, "sole.md")],
        cliEnv(url, { DATABASE_URL: undefined, QUARRY_ENV_FILE: envFile }),
      ).exit;
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Filed under only@test\.local \(the only account\)/);
      const research = await db.research.findUniqueOrThrow({ where: { id: researchId(result.stdout) } });
      assert.equal(research.userId, user.id, "the research is in that account's History");
    });

    test("an unknown email fails before any LLM call", async () => {
      const { url, db } = freshDatabase("cli-email-unknown");
      const result = await runCli(["Grid batteries", "--email", "nobody@test.local", "--answers", "a|b|c"], cliEnv(url)).exit;
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /^error: no account with the email nobody@test\.local/m);
      assertNoStackTrace(result.stderr);
      assert.equal(fakes.llm.log.length, 0);
      assert.equal(await db.research.count(), 0);
    });
  });

  test("--collections with --no-web searches only that collection of the account, and never the web", async () => {
    const { url, db } = freshDatabase("cli-collections");
    const user = await createTestUser(db, { email: "kb@test.local" });
    // Rows as an upload writes them (the migration's triggers fill the full-text index).
    const collection = await db.collection.create({ data: { userId: user.id, name: "Battery notes" } });
    const text = "Grid batteries in Europe added twelve gigawatts of storage capacity in 2024, the field notes say.";
    const document = await db.knowledgeDocument.create({
      data: { collectionId: collection.id, name: "notes.md", format: "markdown", bytes: text.length, sha256: "0".repeat(64), content: Buffer.from(text), status: "ready", chunkCount: 1 },
    });
    await db.knowledgeChunk.create({ data: { documentId: document.id, collectionId: collection.id, ordinal: 0, section: "Notes", text } });
    const out = path.join(OUT_DIR, "collections.md");
    const result = await runCli(
      ["Grid batteries", "--email", "kb@test.local", "--collections", collection.id, "--no-web", "--questions", "1", "--answers", "Europe", "--depth", "1", "--breadth", "1", "--out", out],
      cliEnv(url),
    ).exit;
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    const research = await db.research.findUniqueOrThrow({ where: { id: researchId(result.stdout) } });
    assert.equal(research.status, "completed");
    const pages = await db.page.findMany({ where: { researchId: research.id }, select: { url: true } });
    assert.ok(pages.length >= 1, "the collection's passage was read");
    for (const p of pages) assert.ok(p.url.startsWith(`https://knowledge.quarry.invalid/${collection.id}/${document.id}?`), p.url);
    assert.equal(fakes.search.log.length, 0, "the web was never searched");
    assert.match(fs.readFileSync(out, "utf8"), /notes\.md/, "the report cites the document");
  });

  test("Ctrl-C during the run cancels the research and exits 130", async () => {
    fakes.llm.configure({ latencyMs: 300 });
    const { url, db } = freshDatabase("cli-sigint");
    const out = path.join(OUT_DIR, "sigint.md");
    const run = runCli(["Grid batteries", "--questions", "1", "--answers", "Europe", "--depth", "3", "--breadth", "3", "--out", out], cliEnv(url));
    await waitForOutput(run, /^ {2}\+ \[d1\] /m, "the first query");
    run.child.kill("SIGINT");
    const result = await run.exit;
    assert.equal(result.code, 130, `exit ${result.code} ${result.signal}\n${result.stderr}`);
    assert.match(result.stderr, /Cancelling/);
    assertNoStackTrace(result.stderr);
    assert.ok(!fs.existsSync(out), "no report for a cancelled research");
    const research = await db.research.findUniqueOrThrow({ where: { id: researchId(result.stdout) } });
    assert.equal(research.status, "cancelled");
  });
});
