// All environment variables are read and validated here, once. Other modules call getEnv().
import os from "node:os";
import { z } from "zod";
import { AppError } from "./errors";

/** The embedded default: a SQLite file under data/ in the project directory (lib/db reads it from here). */
export const DEFAULT_DATABASE_URL = "file:./data/quarry.db";

/** A queue job's lock by default (see QUEUE_LOCK_MS below). */
export const QUEUE_LOCK_MS_DEFAULT = 5_000;
/** A worker's slots for parts of runs by default (see QUEUE_PART_CONCURRENCY below). */
export const QUEUE_PART_CONCURRENCY_DEFAULT = 16;

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int(`must be an integer`).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`).default(def);

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .default("0")
  .transform((v) => v === "1" || v === "true");

/** A price in US dollars (e.g. 0.40); unset or empty means none. */
const price = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? Number(v) : undefined))
  .pipe(z.number({ error: "must be a number of US dollars such as 0.40" }).min(0, "must be at least 0").optional());

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url({ protocol: /^https?$/, error: "must be a full http(s) URL such as http://localhost:11434/v1" }).optional());

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .trim()
    .default(DEFAULT_DATABASE_URL)
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), {
      message: "must be a SQLite file: URL such as file:./data/quarry.db, or a postgres:// URL",
    }),

  // PostgreSQL: the hottest statements are named, prepared once per connection (lib/db/direct.ts).
  // 0 sends them unnamed, for a pooler that cannot keep a session's prepared statements (PgBouncer in
  // transaction mode before 1.21, or without max_prepared_statements).
  DATABASE_NAMED_STATEMENTS: z.enum(["0", "1"]).default("1").transform((v) => v === "1"),

  // Queue mode: events across server processes, fleet-wide limits (and workers) through Redis
  REDIS_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .pipe(z.url({ protocol: /^rediss?$/, error: "must be a redis:// URL such as redis://127.0.0.1:6379" }).optional()),
  /** Prefix of every Redis key and channel: deployments (or test runs) sharing one Redis stay apart. */
  REDIS_KEY_PREFIX: z.string().trim().regex(/^[A-Za-z0-9_.:-]{1,64}$/, "must be 1-64 letters, digits, _ . : or -").default("quarry"),

  // LLM
  OPENAI_API_KEY: z.string().trim().optional().transform((v) => v || undefined),
  OPENAI_BASE_URL: optionalUrl,
  RESEARCH_MODEL: z.string().trim().min(1).default("gpt-4.1-mini"),
  // The ceiling of the adaptive LLM limit (lib/adaptive-limit.ts): 429s lower it, answers raise it back.
  // High by default: a (5, 5) tree has ~200 page analyses ready at once on its busiest level.
  LLM_CONCURRENCY: int(128, 1, 256),
  // How long one LLM call keeps retrying 429s, 5xx and network errors before it gives up.
  LLM_RETRY_BUDGET_MS: int(300_000, 0),
  // No successful LLM call for this long (with 3+ failures) means the provider is down: runs pause.
  LLM_OUTAGE_AFTER_MS: int(20_000, 0),
  // After a lost LLM call, planning a branch's queries is tried again after this, then 4× this.
  PLAN_RETRY_DELAY_MS: int(30_000, 0),
  LLM_TIMEOUT_MS: int(300_000, 1_000),
  LLM_REPAIR_ATTEMPTS: int(2, 0, 5),
  // The model's context window in tokens, where known (0: learned from the server's refusals of longer prompts).
  LLM_CONTEXT_TOKENS: int(0, 0),

  // Search
  SEARXNG_URL: optionalUrl,
  // The ceiling of the adaptive search limit, as LLM_CONCURRENCY's (at 4, a (5, 5) tree's searches
  // queued behind each other: 80 ms searches went 4 at a time for most of the run).
  SEARCH_CONCURRENCY: int(16, 1, 64),
  SEARCH_MAX_RESULTS: int(7, 1, 7),
  SEARCH_TIMEOUT_MS: int(15_000, 500),
  SEARCH_MAX_RETRIES: int(2, 0, 10),

  // Scraping
  SCRAPE_TIMEOUT_MS: int(15_000, 100),
  SCRAPE_MAX_BYTES: int(5 * 1024 * 1024, 1024),
  SCRAPE_MAX_REDIRECTS: int(5, 0, 20),
  // 16: a breadth-3 level's pages (up to 21) go out in one or two waves, not three (at most 16 × SCRAPE_MAX_BYTES in flight).
  SCRAPE_CONCURRENCY: int(16, 1, 128),
  SCRAPE_ALLOW_PRIVATE: flag,
  // Worker processes that turn fetched pages into text (HTML extraction, PDF parsing) off the event loop; 0: in process.
  // One core stays the event loop's: on 2 cores, 1 worker (2 starved the server and the browser
  // watching it: a 110-node research's longest main-thread task in the page went 199 → 248 ms).
  SCRAPE_WORKERS: int(Math.max(1, os.availableParallelism() - 1), 0, 32),
  // Each extraction worker process's OS memory limit, and each page's wall-clock limit in it
  // (lib/sandbox/pool.ts): a page past either kills its process and fails alone.
  SCRAPE_WORKER_MEMORY_MB: int(512, 128, 16_384),
  SCRAPE_EXTRACT_TIMEOUT_MS: int(30_000, 1_000, 600_000),
  SCRAPE_USER_AGENT: z
    .string()
    .default("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Quarry/0.1"),

  // Engine
  ANALYZE_CONCURRENCY_PER_QUERY: int(7, 1, 16),
  MAX_DEPTH: int(5, 1, 10),
  MAX_BREADTH: int(10, 1, 20),
  MAX_QUESTIONS: int(10, 1, 20),
  CONTEXT_TOKEN_BUDGET: int(6_000, 500),
  PAGE_TOKEN_BUDGET: int(6_000, 500),
  REPORT_TOKEN_BUDGET: int(60_000, 2_000),
  RESUME_ON_START: z.enum(["0", "1"]).default("1").transform((v) => v === "1"),
  // A live run renews its lease this often; a run whose lease is 3 beats old is taken over.
  RUN_HEARTBEAT_MS: int(10_000, 100),
  // A run's events reach the event log (other processes' streams) in batches this often. A process
  // that dies between storing a step and logging its event loses nothing: the process that takes the
  // run over logs what is stored and missing (lib/answer/engine.ts).
  EVENT_LOG_BATCH_MS: int(20, 1, 60_000),
  REPORTS_DIR: z.string().default("data/reports"),

  // Queue mode (lib/queue/): with REDIS_URL set, runs are BullMQ jobs (under REDIS_KEY_PREFIX) that
  // `npm run worker` processes execute; the web process only enqueues and serves. Unset: every run
  // executes in the web process.
  // With REDIS_URL, runs are queued for workers unless QUEUE_RUNS=0: then every web process executes
  // the runs it starts as without Redis, and Redis carries only the events and the shared limits.
  QUEUE_RUNS: z.enum(["0", "1"]).default("1").transform((v) => v === "1"),
  // A job's lock: renewed by its worker every half of it while the run executes, so it bounds how
  // long a dead worker's job waits before another worker takes it, not how long a run may take. The
  // workers look for such jobs every quarter of it: a killed worker's jobs run again elsewhere within
  // 1.25 × QUEUE_LOCK_MS (bench/README.md, "recovery").
  QUEUE_LOCK_MS: int(QUEUE_LOCK_MS_DEFAULT, 1_000),
  // How long a start waits for Redis to take its run's job (and, at a web process's start, for its
  // first connection): past it, or at once while Redis is known to be down, the start is a 503 with
  // Retry-After and stores nothing.
  QUEUE_ENQUEUE_TIMEOUT_MS: int(2_000, 100, 60_000),
  // Runs one worker process executes at once (they wait on the shared LLM/search/fetch limits anyway).
  QUEUE_WORKER_CONCURRENCY: int(4, 1, 100),
  // Parts of runs (a tree's query nodes, a Deep Research level's tasks) one worker process executes at
  // once, in slots of their own. A part waits on the shared LLM, search and fetch limits most of its
  // time, which bound what the fleet sends; with a run's slots a (5, 5) tree's 30-query levels queued
  // behind 8 slots on 2 workers (bench/README.md, "Queue mode").
  QUEUE_PART_CONCURRENCY: int(QUEUE_PART_CONCURRENCY_DEFAULT, 1, 500),
  // A node job that finds a page being fetched by another worker is woken when that fetch ends (Redis
  // pub/sub); it also looks at the page this often, for a lost message or a dead worker's claim.
  PAGE_CLAIM_POLL_MS: int(300, 10, 60_000),

  // Answer agent: the largest token budget a request may ask for, the budget when none is given,
  // the step cap, and (optional) an embedding model id for near-duplicate sub-questions.
  ANSWER_MAX_BUDGET: int(1_000_000, 1_000),
  ANSWER_DEFAULT_BUDGET: int(500_000, 1_000),
  ANSWER_MAX_STEPS: int(30, 1, 500),
  // A /v1 answer run whose clients all went away keeps going this long, for a retry to join it,
  // before it is cancelled (lib/answer/followers.ts).
  ANSWER_DISCONNECT_GRACE_MS: int(60_000, 0, 3_600_000),
  // How long a run's stream token (EventSource from another origin: ?token= on /api/v1/stream/:id) is accepted.
  ANSWER_STREAM_TOKEN_SECONDS: int(3_600, 60, 86_400),
  EMBEDDING_MODEL: z.string().trim().optional().transform((v) => v || undefined),
  // Deep Research: iterations per start in semi-autonomous mode (fully-autonomous stops at 20), tasks
  // per level, the tree a literature task explores, and SearXNG categories for its searches.
  MAX_AUTO_ITERATIONS: int(5, 1, 20),
  MAX_TASKS_PER_ITERATION: int(3, 1, 10),
  LITERATURE_TREE_DEPTH: int(2, 1, 5),
  LITERATURE_TREE_BREADTH: int(3, 1, 10),
  LITERATURE_SEARXNG_CATEGORIES: z.string().trim().default("general,science"),
  LITERATURE_ANALYZE_CONCURRENCY: int(2, 1, 16),
  // Datasets uploaded with a start: the size of one start's files (413 above), the files and total
  // size a conversation may hold across its starts (400 above), and where they are kept. A start's
  // files are streamed to disk as they arrive (lib/api/deep-research-start.ts), so one of
  // DATASET_MAX_BYTES can be uploaded: the upload limit defaults to it (at most 2 GiB).
  DEEP_RESEARCH_MAX_UPLOAD_BYTES: int(200 * 1024 * 1024, 1024, 2 * 1024 * 1024 * 1024),
  DATASET_MAX_FILES: int(20, 1, 1_000),
  DATASET_MAX_TOTAL_BYTES: int(500 * 1024 * 1024, 1024),
  UPLOADS_DIR: z.string().default("data/uploads"),
  // Datasets and analysis (lib/datasets): the largest file loaded into DuckDB (a bigger one is refused
  // with its name), the SQL-run-read iterations of one ANALYSIS task, and the sandbox's limits on each
  // query: its time (the query is interrupted), the rows kept of its result, DuckDB's memory and threads.
  DATASET_MAX_BYTES: int(200 * 1024 * 1024, 1),
  ANALYSIS_MAX_STEPS: int(6, 1, 20),
  ANALYSIS_QUERY_TIMEOUT_MS: int(5_000, 100, 120_000),
  ANALYSIS_MAX_ROWS: int(200, 1, 10_000),
  ANALYSIS_MEMORY_LIMIT_MB: int(512, 64),
  ANALYSIS_THREADS: int(1, 1, 16),

  // Knowledge base (issue 22): a folder indexed at start-up (and when its files change) as a shared
  // read-only collection; the largest document accepted (one file per upload request; at most 8 MiB,
  // as API_MAX_BODY_BYTES, since Next's proxy keeps only the first 10 MiB of a body); the most pages
  // or sections a document may have.
  KNOWLEDGE_DOCS_PATH: z.string().trim().optional().transform((v) => v || undefined),
  KNOWLEDGE_MAX_FILE_BYTES: int(8 * 1024 * 1024, 1024, 8 * 1024 * 1024),
  KNOWLEDGE_MAX_PAGES: int(2_000, 1, 100_000),
  // Bounds on reading one document (issue 52: a 300 KB DOCX inflating to 300 MB held the server for
  // 963 s): the bytes a DOCX's parts may inflate to together, the ratio one part may inflate by (past
  // its first MiB), the passages (chunks) a document may make, and the time reading it may take.
  KNOWLEDGE_MAX_INFLATED_BYTES: int(32 * 1024 * 1024, 1024 * 1024, 1024 * 1024 * 1024),
  KNOWLEDGE_MAX_INFLATE_RATIO: int(100, 2, 10_000),
  KNOWLEDGE_MAX_CHUNKS: int(20_000, 1, 1_000_000),
  KNOWLEDGE_PARSE_TIMEOUT_MS: int(60_000, 1_000, 3_600_000),
  // Documents are parsed in worker processes (lib/sandbox/pool.ts): this many at once, each process
  // under this OS memory limit; a document past it (or past KNOWLEDGE_PARSE_TIMEOUT_MS) kills its
  // process and fails alone.
  KNOWLEDGE_PARSE_WORKERS: int(1, 1, 16),
  KNOWLEDGE_PARSE_MEMORY_MB: int(512, 128, 16_384),
  // PostgreSQL only: "auto" ranks chunk vectors with pgvector when the server has the extension
  // (enabled at first use; a side table beside the migrations), else in process; "off" always in process.
  KNOWLEDGE_PGVECTOR: z.enum(["auto", "off"]).default("auto"),

  // The wizard's estimate (lib/estimate-ranges.ts): typical figures of one LLM call, used to turn the
  // tree's call counts into time and token ranges. Measure them on your model and set them here.
  ESTIMATE_PROMPT_TOKENS_PER_CALL: int(3_000, 1),
  ESTIMATE_COMPLETION_TOKENS_PER_CALL: int(400, 1),
  ESTIMATE_REPORT_COMPLETION_TOKENS: int(3_000, 1),
  ESTIMATE_SECONDS_PER_CALL: int(6, 1),
  ESTIMATE_REPORT_SECONDS: int(60, 1),
  // The model's price in US dollars per million prompt / completion tokens: with both set, the wizard
  // shows a cost range. Never required.
  LLM_PRICE_INPUT_PER_MTOK: price,
  LLM_PRICE_OUTPUT_PER_MTOK: price,

  // Accounts and API access
  // Signs session cookies, API tokens (through a derived key) and nothing else. Required in production;
  // `npm start` generates AUTH_SECRET_FILE on first start when it is not set (lib/auth/secret.ts).
  AUTH_SECRET: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .pipe(z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -base64 33`)").optional()),
  AUTH_SECRET_FILE: z.string().trim().min(1).default("data/auth-secret"),
  AUTH_ALLOW_SIGNUP: z
    .enum(["0", "1", "true", "false", ""])
    .default("1")
    .transform((v) => v !== "0" && v !== "false"),
  // Behind a reverse proxy that sets X-Forwarded-Host/-For: trust them (the CSRF check's host, the
  // sign-up limiter's client address). Off by default: without a proxy any client can send them.
  TRUST_PROXY: z
    .enum(["0", "1", "true", "false", ""])
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  API_TOKEN_DEFAULT_DAYS: int(90, 1, 3650),
  API_TOKEN_MAX_DAYS: int(365, 1, 3650),
  RATE_LIMIT_STARTS_PER_HOUR: int(30, 1, 100_000),
  MAX_CONCURRENT_RUNS_PER_USER: int(3, 1, 1_000),
  // Planning calls (follow-up questions, clarification questions and plans): each is one or two LLM
  // calls and starts no run, so they have their own limits, in flight and per hour.
  MAX_CONCURRENT_PLANNING_CALLS_PER_USER: int(3, 1, 1_000),
  RATE_LIMIT_PLANNING_CALLS_PER_HOUR: int(60, 1, 100_000),
  // A chat client's plain calls (model quarry-chat, and a chat UI's titles, tags and follow-ups sent
  // to quarry-answer): one LLM call each, no run; a chat UI sends several per message.
  MAX_CONCURRENT_CHAT_CALLS_PER_USER: int(4, 1, 1_000),
  RATE_LIMIT_CHAT_CALLS_PER_HOUR: int(600, 1, 100_000),
  // A user's own knowledge-base work outside runs: collection searches that embed their query (with
  // EMBEDDING_MODEL), and document uploads and re-indexes (parsing, and embedding with EMBEDDING_MODEL),
  // in flight and per hour.
  MAX_CONCURRENT_KNOWLEDGE_SEARCHES_PER_USER: int(4, 1, 1_000),
  RATE_LIMIT_KNOWLEDGE_SEARCHES_PER_HOUR: int(600, 1, 100_000),
  MAX_CONCURRENT_UPLOADS_PER_USER: int(2, 1, 1_000),
  RATE_LIMIT_UPLOADS_PER_HOUR: int(300, 1, 100_000),

  // HTTP API: largest JSON body accepted (413 above). At most 8 MiB: Next's proxy keeps only the
  // first 10 MiB of a body, so a larger cap could not be enforced.
  API_MAX_BODY_BYTES: int(1024 * 1024, 1024, 8 * 1024 * 1024),
  // The time a request's body may take to arrive, from its headers (408 and the connection closed
  // after it): a body sent a few bytes at a time holds a connection and Next's buffer of it. A body
  // still arriving then goes on as long as it keeps coming at API_BODY_MIN_BYTES_PER_SECOND on average
  // (a 200 MB dataset over a slow link), and nothing stalls for API_BODY_TIMEOUT_MS.
  API_BODY_TIMEOUT_MS: int(30_000, 100, 300_000),
  API_BODY_MIN_BYTES_PER_SECOND: int(64 * 1024, 1, 1024 * 1024 * 1024),

  // Exports: LaTeX paper compiles at once in this process (each runs LuaLaTeX or pdflatex three
  // times and bibtex; more wait), and the exports one share link may download per hour (signed out).
  EXPORT_COMPILE_CONCURRENCY: int(2, 1, 64),
  RATE_LIMIT_SHARE_EXPORTS_PER_HOUR: int(60, 1, 100_000),
});

export type Env = z.infer<typeof schema>;

export interface ConfigProblem {
  variable: string;
  message: string;
}

let cached: { env: Env; problems: ConfigProblem[] } | undefined;

function issuesToProblems(error: z.ZodError): ConfigProblem[] {
  return error.issues.map((issue) => ({
    variable: String(issue.path[0] ?? "environment"),
    message: `${String(issue.path[0])} ${issue.message}`,
  }));
}

/**
 * Parses the environment. A malformed optional service URL (LLM, search) is reported but does not
 * stop the app: it is dropped, and the research requests that need it fail with a message naming it.
 * Any other invalid value throws, naming the variable.
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): { env: Env; problems: ConfigProblem[] } {
  const soft = new Set(["OPENAI_BASE_URL", "SEARXNG_URL"]);
  const input: Record<string, string | undefined> = { ...source };
  const problems: ConfigProblem[] = [];
  const first = schema.safeParse(input);
  if (first.success) return { env: first.data, problems };
  for (const p of issuesToProblems(first.error)) {
    if (!soft.has(p.variable)) {
      throw new Error(`Invalid configuration: ${p.message}`);
    }
    problems.push({ variable: p.variable, message: p.message });
    delete input[p.variable];
  }
  return { env: schema.parse(input), problems };
}

export function getEnv(): Env {
  cached ??= loadEnv();
  return cached.env;
}

/** Test hook: re-read process.env on next access. */
export function resetEnvCache(): void {
  cached = undefined;
}

/** Everything a user must fix before research can run, each naming its variable. */
export function configProblems(): ConfigProblem[] {
  cached ??= loadEnv();
  const { env, problems } = cached;
  const out = [...problems];
  if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL && !problems.some((p) => p.variable === "OPENAI_BASE_URL")) {
    out.push({
      variable: "OPENAI_API_KEY",
      message: "No LLM is configured: set OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama (http://localhost:11434/v1).",
    });
  }
  if (!env.SEARXNG_URL && !problems.some((p) => p.variable === "SEARXNG_URL")) {
    out.push({
      variable: "SEARXNG_URL",
      message: "No search engine is configured: set SEARXNG_URL to a SearXNG instance with the JSON format enabled (e.g. http://localhost:8080).",
    });
  }
  return out;
}

/** Throws a 503 naming the variable when the LLM or search is not configured. */
export function assertResearchConfigured(needs: { llm?: boolean; search?: boolean } = { llm: true, search: true }): void {
  const problems = configProblems().filter((p) =>
    (needs.llm && (p.variable === "OPENAI_API_KEY" || p.variable === "OPENAI_BASE_URL")) ||
    (needs.search && p.variable === "SEARXNG_URL"),
  );
  if (problems.length > 0) {
    throw new AppError("unavailable:config", problems.map((p) => p.message).join(" "));
  }
}

/**
 * Removes blank LLM variables from process.env. @ai-sdk/openai builds a default provider when its
 * module loads and throws on an empty OPENAI_BASE_URL, which would stop the server from starting;
 * a blank value means "not set" here. Call before anything imports the AI SDK.
 */
export function dropBlankLlmVariables(env: Record<string, string | undefined> = process.env): void {
  for (const name of ["OPENAI_BASE_URL", "OPENAI_API_KEY"]) {
    if (env[name] !== undefined && env[name]!.trim() === "") delete env[name];
  }
}
