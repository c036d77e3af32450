// The chat clients' row (issue 55): every captured request body of a chat client
// (test/fixtures/chat-clients/) decided as the product decides it — its structure and the clients' known
// templates first, else one classification call through the real LLM path to the fake LLM — with what
// each decision cost: the classification calls' tokens per request, and any misjudgement. In a child
// process: the product's modules read their environment (the fake LLM) when first imported.
import { fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loaderArgs } from "../child-loader";

export interface ChatClientsBenchResult {
  requests: number;
  clients: number;
  /** Settled by their structure or a known template: no call. */
  structural: number;
  classified: number;
  /** Decided otherwise than the fixture says (housekeeping researched, or a question not researched). */
  wrong: string[];
  /** The classification calls' tokens (prompt + completion): mean and max per classified request. */
  meanTokens: number;
  maxTokens: number;
}

const CHILD_FLAG = "--chat-clients-child";
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test/fixtures/chat-clients");

async function runInProcess(): Promise<ChatClientsBenchResult> {
  const { startFakes } = await import("../../test/fakes");
  const fakes = await startFakes();
  Object.assign(process.env, fakes.env, { NODE_ENV: "test" });
  try {
    const { chatRequestSchema } = await import("../../lib/answer/openai");
    const { decideTask } = await import("../../lib/answer/task");
    const { classifyRequest } = await import("../../lib/answer/agents/classifier");
    const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith(".json"));
    const out: ChatClientsBenchResult = { requests: 0, clients: files.length, structural: 0, classified: 0, wrong: [], meanTokens: 0, maxTokens: 0 };
    const spent: number[] = [];
    for (const file of files) {
      const { client, fixtures } = JSON.parse(fs.readFileSync(path.join(FIXTURES, file), "utf8")) as { client: string; fixtures: { name: string; expect: string; body: unknown }[] };
      for (const f of fixtures) {
        out.requests++;
        let tokens = 0;
        const decision = await decideTask(chatRequestSchema.parse(f.body), async (outline) => {
          const usage = { promptTokens: 0, completionTokens: 0, calls: 0 };
          const kind = await classifyRequest({ outline, onUsage: (t) => void ((usage.promptTokens += t.promptTokens), (usage.completionTokens += t.completionTokens), (usage.calls += t.calls)) });
          tokens = usage.promptTokens + usage.completionTokens;
          return { kind, usage };
        });
        if (decision.by === "classifier" || decision.by === "classifier-failed") {
          out.classified++;
          spent.push(tokens);
        } else out.structural++;
        if (decision.kind !== f.expect) out.wrong.push(`${client}: ${f.name} → ${decision.kind}`);
      }
    }
    out.meanTokens = spent.length ? Math.round(spent.reduce((a, b) => a + b, 0) / spent.length) : 0;
    out.maxTokens = Math.max(0, ...spent);
    return out;
  } finally {
    await fakes.stop();
  }
}


export function runChatClientsBench({ log = console.error }: { log?: (line: string) => void } = {}): Promise<ChatClientsBenchResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], { execArgv: loaderArgs(), env: { ...process.env, NODE_ENV: "test" }, stdio: ["ignore", 2, "inherit", "ipc"] });
    let result: ChatClientsBenchResult | undefined;
    let failure: string | undefined;
    child.on("message", (msg: { result?: ChatClientsBenchResult; error?: string }) => ((result = msg.result), (failure = msg.error)));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (!result) return reject(new Error(`the chat-clients child failed (exit ${code})${failure ? `: ${failure}` : ""}`));
      log(`chat clients: ${result.requests} requests from ${result.clients} clients, ${result.structural} settled by structure, ${result.classified} classified (${result.meanTokens} tokens on average, at most ${result.maxTokens}), ${result.wrong.length} misjudged`);
      resolve(result);
    });
  });
}

export function formatChatClientsMarkdown(r: ChatClientsBenchResult): string {
  return [
    "## Chat clients: housekeeping or question (issue 55)",
    "",
    `${r.requests} captured request bodies of ${r.clients} clients (test/fixtures/chat-clients/), decided as the product decides: structure and known templates first, else one classification call (the fake LLM counts a token per 4 characters).`,
    "",
    "| requests | settled by structure | classified | classifier tokens per classified request (mean / max) | misjudged |",
    "|---|---|---|---|---|",
    `| ${r.requests} | ${r.structural} | ${r.classified} | ${r.meanTokens} / ${r.maxTokens} | ${r.wrong.length}${r.wrong.length ? `: ${r.wrong.join("; ")}` : " ✓"} |`,
    "",
  ].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes(CHILD_FLAG)) {
  runInProcess()
    .then((result) => ({ result }))
    .catch((error: unknown) => ({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }))
    .then((msg) => process.send?.(msg, () => process.exit(0)));
}
