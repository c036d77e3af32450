// The answer CLI (scripts/ask-cli.ts, `npm run ask`) as a child process against the fakes.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { startFakes, type Fakes } from "../fakes";
import { migratedDatabase } from "../helpers/app-server";

const ROOT = path.resolve(import.meta.dirname, "../..");
let fakes: Fakes;
before(async () => {
  fakes = await startFakes({ search: { failingPageShare: 0 } });
});
after(() => fakes?.stop());

function ask(args: string[], stdin = "") {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    // Not spawnSync: it would block the fakes' event loop.
    {
      const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "ask-cli.ts"), ...args], {
        cwd: ROOT,
        env: { ...process.env, ...fakes.env, DATABASE_URL: `file:${migratedDatabase("ask-cli")}`, NODE_ENV: "production" },
      });
      child.stdin.end(stdin);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("exit", (status) => resolve({ status, stdout, stderr }));
    }
  });
}

test("prints each step and the answer with its references and token usage", async () => {
  const r = await ask(["How much storage did grid batteries add in 2024?", "--budget", "200000"]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /\[1\] SEARCH/);
  assert.match(r.stdout, /\[2\] VISIT/);
  assert.match(r.stdout, /think: /);
  assert.match(r.stdout, /\nANSWER\n/);
  assert.match(r.stdout, /\[1\] .+ — http:\/\/127\.0\.0\.1:\d+\/.+\n {4}".+"/);
  assert.match(r.stdout, /Tokens: \d+ of 200000 \(agent \d+, evaluate \d+\); 3 steps/);
});

test("bad arguments exit 2 naming the option", async () => {
  const r = await ask(["What?", "--budget", "0"]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--budget: budget must be a positive integer/);
});

test("without a question argument it reads the question from stdin", async () => {
  const r = await ask(["--budget", "200000"], "How much storage did grid batteries add in 2024?\n");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Question: How much storage did grid batteries add in 2024\?\n/);
  assert.match(r.stdout, /\nANSWER\n/);
});

test("no question at all exits 2 naming the question, not the API's field q", async () => {
  const r = await ask([], "  \n");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /the question: it must be a non-empty string/);
  assert.doesNotMatch(r.stderr, /\bq\b/);
});
