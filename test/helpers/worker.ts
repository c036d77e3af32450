// Queue workers (`npm run worker`) as child processes beside a TestApp, on its database and Redis
// (queue mode: REDIS_URL and REDIS_KEY_PREFIX in the app's env). `kill()` simulates a crash (SIGKILL).
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { TestApp } from "./app-server";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Redis for queue-mode tests: TEST_REDIS_URL, by default the local server CI provides. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

export class TestWorker {
  private child?: ChildProcess;
  private output = "";

  private constructor(
    private readonly env: Record<string, string>,
    readonly name: string,
  ) {}

  /** Starts a worker process for `app`'s installation and waits until it takes jobs. */
  static async start(app: TestApp, name: string, env: Record<string, string> = {}): Promise<TestWorker> {
    const worker = new TestWorker({ ...app.serverEnv, ...env }, name);
    await worker.launch();
    return worker;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  logs(): string {
    return this.output;
  }

  /** The jobs this worker executed (claimed the run of and ran), by job id, from its log. */
  executed(): string[] {
    return [...this.output.matchAll(/job (\S+) \(\S+ \S+\) executed here/g)].map((m) => m[1]);
  }

  private async launch(): Promise<void> {
    this.output = "";
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "worker.ts")], {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    child.stdout?.on("data", (d) => (this.output += d));
    child.stderr?.on("data", (d) => (this.output += d));
    const deadline = Date.now() + 60_000;
    while (!/is taking jobs/.test(this.output)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`worker ${this.name} exited (${child.exitCode}):\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`worker ${this.name} did not start within 60 s:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Simulates a crash: SIGKILL, no cleanup. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.launch();
  }

  async stop(): Promise<void> {
    await this.kill();
  }
}
