// Starts the production build (`next start`) as a child process with its own database (SQLite, or
// PostgreSQL when TEST_DATABASE=postgres or `database: "postgres"`), for integration tests and the benchmark.
// `kill()` simulates a crash (SIGKILL); `restart()` starts a new process on the same database.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createPrismaClient } from "@/lib/db/create-client";
import { createPostgresTestDatabase, testingOnPostgres } from "@/lib/db/test-support";
import { nextStartCommand } from "../../scripts/next-server.mjs";
import { createTestUser, TEST_AUTH_SECRET, type TestUser } from "./auth";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TEST_DATA = path.join(ROOT, "data", "test");
const MIGRATIONS = path.join(ROOT, "prisma", "migrations");

/** The template is named after the migrations it holds, so that a new migration makes a new one. */
function templatePath(): string {
  const hash = createHash("sha256");
  for (const dir of fs.readdirSync(MIGRATIONS).sort()) {
    const sql = path.join(MIGRATIONS, dir, "migration.sql");
    if (fs.existsSync(sql)) hash.update(dir).update(fs.readFileSync(sql));
  }
  return path.join(TEST_DATA, `template-${hash.digest("hex").slice(0, 12)}.db`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * A migrated empty database file under data/test/ (the template is migrated once per test process
 * and copied for each caller). Used for each TestApp, and by tests that run other processes (the CLI).
 */
export function migratedDatabase(name: string): string {
  fs.mkdirSync(TEST_DATA, { recursive: true });
  const TEMPLATE = templatePath();
  if (!fs.existsSync(TEMPLATE)) {
    const tmp = `${TEMPLATE}.${process.pid}.tmp`;
    execFileSync("npx", ["prisma", "migrate", "deploy"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: `file:${tmp}` }, stdio: "pipe" });
    fs.renameSync(tmp, TEMPLATE);
  }
  const file = path.join(TEST_DATA, `${name}-${process.pid}-${Date.now()}.db`);
  fs.copyFileSync(TEMPLATE, file);
  return file;
}

export type TestDatabaseKind = "sqlite" | "postgres";

/**
 * A fresh migrated database for one TestApp: a SQLite file (see migratedDatabase), or with
 * TEST_DATABASE=postgres (or `database: "postgres"`) a new PostgreSQL database, which `drop` removes.
 */
async function testDatabase(
  name: string,
  database: TestDatabaseKind = testingOnPostgres() ? "postgres" : "sqlite",
): Promise<{ url: string; reportsDir: string; drop: () => Promise<void> }> {
  if (database === "postgres") {
    const { url, drop } = await createPostgresTestDatabase();
    const reportsDir = path.join(TEST_DATA, `reports-${name}-${new URL(url).pathname.slice(1)}`);
    return { url, reportsDir, drop };
  }
  const file = migratedDatabase(name);
  return { url: `file:${file}`, reportsDir: path.join(path.dirname(file), `reports-${path.basename(file, ".db")}`), drop: async () => {} };
}

export interface AppOptions {
  env: Record<string, string>;
  name?: string;
  /** Extra arguments for the server's node process (the benchmark's --cpu-prof). */
  nodeArgs?: string[];
  /** The database to create for this app; default PostgreSQL when TEST_DATABASE=postgres, else SQLite. */
  database?: TestDatabaseKind;
}

export class TestApp {
  readonly db: ReturnType<typeof createPrismaClient>;
  private child?: ChildProcess;
  private output = "";
  url = "";

  private constructor(
    readonly databaseUrl: string,
    /** Where the server writes reports and error-output.md (REPORTS_DIR). */
    readonly reportsDir: string,
    private readonly dropDatabase: () => Promise<void>,
    private readonly env: Record<string, string>,
    private readonly nodeArgs: string[] = [],
  ) {
    this.db = createPrismaClient(databaseUrl);
  }

  static async start(options: AppOptions): Promise<TestApp> {
    const { url, reportsDir, drop } = await testDatabase(options.name ?? "app", options.database);
    const app = new TestApp(url, reportsDir, drop, {
      REPORTS_DIR: reportsDir,
      AUTH_SECRET: TEST_AUTH_SECRET,
      ...options.env,
    }, options.nodeArgs);
    // Every request of app.fetch/app.postJson is made as this user, with an API token.
    app.user = await createTestUser(app.db, { email: "owner@test.local" });
    app.headers.authorization = `Bearer ${app.user.token}`;
    await app.launch();
    return app;
  }

  /**
   * A second server process on the same database as `other` (same user and token): two processes
   * sharing one database, as a deployment with several servers runs.
   */
  static async alongside(other: TestApp, options: AppOptions): Promise<TestApp> {
    // The first app owns (and drops) the database.
    const app = new TestApp(other.databaseUrl, other.reportsDir, async () => {}, { ...other.env, ...options.env }, options.nodeArgs);
    app.user = other.user;
    app.headers = { ...other.headers };
    await app.launch();
    return app;
  }

  /** The user app.fetch authenticates as (see test/helpers/auth.ts for more users and sessions). */
  user!: TestUser;

  /** Extra headers every request of this app's `fetch` sends (authentication is added here). */
  headers: Record<string, string> = {};

  fetch(pathname: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    for (const [k, v] of Object.entries(this.headers)) if (!headers.has(k)) headers.set(k, v);
    return fetch(`${this.url}${pathname}`, { ...init, headers });
  }

  postJson(pathname: string, body: unknown, init: RequestInit = {}): Promise<Response> {
    return this.fetch(pathname, {
      ...init,
      method: "POST",
      headers: { "content-type": "application/json", ...(init.headers as Record<string, string> | undefined) },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  /** The environment the server runs with (its database and options), for other processes on the same installation (queue workers). */
  get serverEnv(): Record<string, string> {
    return { NODE_ENV: "production", DATABASE_URL: this.databaseUrl, ...this.env };
  }

  /** The server process (for the benchmark's CPU and memory sampling). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  logs(): string {
    return this.output;
  }

  private async launch(): Promise<void> {
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    // Queue mode only when a test asks for it (a REDIS_URL in the shell would leave every run queued with no worker).
    const env = { ...process.env, NODE_ENV: "production" as const, DATABASE_URL: this.databaseUrl, REDIS_URL: "", ...this.env };
    const start = nextStartCommand({ port, host: "127.0.0.1", nodeArgs: this.nodeArgs, env });
    this.child = spawn(start.command, start.args, {
      cwd: ROOT,
      env: start.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child.stdout?.on("data", (d) => (this.output += d));
    this.child.stderr?.on("data", (d) => {
      this.output += d;
      // Under npm test each file's output is kept and printed whole when it fails: the servers' errors
      // (a 500's cause, say) are then in the failure's log, not lost with the process.
      if (process.env.TEST_ECHO_SERVER_STDERR === "1") process.stderr.write(`[server ${this.url}] ${d}`);
    });
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`next start exited (${this.child.exitCode}):\n${this.output}`);
      try {
        const res = await fetch(`${this.url}/api/config/status`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`next start did not answer within 60 s:\n${this.output}`);
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

  /** Stops the server; `graceful` sends SIGTERM first (lets --cpu-prof write its profile), SIGKILL after 10 s. */
  async stop({ graceful = false } = {}): Promise<void> {
    const child = this.child;
    if (graceful && child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    await this.kill();
    await this.db.$disconnect();
    await this.dropDatabase();
  }
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
