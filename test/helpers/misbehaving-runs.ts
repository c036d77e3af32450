// Every engine run end to end in this process against the loopback fakes, under one of the misbehaving
// model's modes (test/fakes/llm-misbehave.ts): a tree research (follow-up questions, the tree, the report
// and its verification), a Deep Research iteration with a CSV uploaded (so that an ANALYSIS task can
// run) and an answer. What a user would see of each run is gathered and searched for leaked reasoning,
// and the figures of issue 51 are measured. Used by test/integration/misbehaving-model.test.ts (which
// asserts the targets) and the bench's misbehave rows (bench/misbehave/, which reports the figures).
//
// The product's modules read the environment when first imported: start the harness before importing
// any of them, and only one harness per process.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { useTestDatabase, testingOnPostgres } from "../../lib/db/test-support";
import { REASONING_LEAKS, startFakes, UNINSTRUCTED_MARKER, type Fakes, type LlmLogEntry, type LlmOptions, type MisbehaveMode } from "../fakes";
import { salesCsv } from "../fixtures/datasets";
/** A request of the product's repair: the model asked again, its earlier reply in the conversation (as the fake tells a first attempt). */
const isRepair = (e: LlmLogEntry) => e.messages.some((m) => m.role === "assistant");

export type Engine = "tree" | "deep-research" | "answer";

export interface CitationAudit {
  /** The cited sentences of the text as written, and those a verdict of pass 1 judged unsupported. */
  writtenCited: number;
  judgedUnsupported: number;
  /** (sentence, URL) citations as written and in the stored text. */
  citationsWritten: number;
  citationsStored: number;
  /** Cited sentences of the text as written, not judged unsupported, that the stored text lost. */
  lost: string[];
  /** The verification's status, and its final claims: judged (supported, partial or unsupported), the other cited ones, uncited. */
  status: string | null;
  judged: number;
  unjudged: number;
  uncited: number;
  /** Cited sentences of the stored text that the verification view does not show, and view claims that are not in the stored text. */
  missingFromView: string[];
  notInStored: string[];
  /** Cited sentences of the stored text that cite an analysis query (https://analysis.quarry.invalid/ana-1-1/q1), and those of the view judged supported or partly. */
  queryCited: number;
  queryJudged: number;
  /** Cited sentences of the stored text, and the view's claims judged supported. */
  storedCited: number;
  finalSupported: number;
  /** The view's claims not judged supported: verdict, sentence, note. */
  notSupported: string[];
  /** Uncited sentences the view judged supported or partly by their paragraph's citation, and sentences flagged as facts without a citation. */
  coveredSupported: number;
  flaggedUncited: number;
  /** Table rows of the stored text that cite, and those of them the view judged (supported, partial or unsupported). */
  tableRowsCited: number;
  tableRowsJudged: number;
  /** Citations by number left in the stored text as written, not made links ("[2]", "[Source 2]", "[1–3]"), and lines of a model's own source list left in it. */
  unlinked: string[];
}

export interface EngineRun {
  engine: Engine;
  /** completed / done, or how it ended. */
  status: string;
  completed: boolean;
  error: string | null;
  ms: number;
  /** "where: what" for every leaked piece of reasoning found in what a user sees. */
  leaks: string[];
  /** Report (tree) or write-up (Deep Research) citations against their verification. */
  citations?: CitationAudit;
  /** Deep Research: datasets loaded (of the one uploaded); ANALYSIS tasks planned and run (completed with a successful query), discoveries and those with evidence. */
  datasetsLoaded?: number;
  analysisPlanned?: number;
  analysisRun?: number;
  analysisSkipped?: string[];
  /** Deep Research: the ANALYSIS tasks' queries that failed (their SQL and error). */
  failedQueries?: string[];
  discoveries?: number;
  discoveriesWithEvidence?: number;
  /** Answer: its references. */
  references?: number;
  /** Tree: the completed queries given no item from any of their pages (their text). */
  queriesWithoutItems?: string[];
  /** Why the report's or the write-up's draft started over, as its stream told the page (a fault of the first one). */
  restartNotes?: string[];
  /** What the user reads: the stored report (tree), the last assistant message (Deep Research), the answer. */
  text?: string | null;
  /** The report (tree) or the write-up (Deep Research) as Quarry received it: its verification's original. */
  written?: string;
  /** The tokens recorded for the run (the research's, the conversation's, the answer's). */
  tokens?: { prompt: number; completion: number };
}

export interface ModeRun {
  mode: MisbehaveMode | null;
  runs: EngineRun[];
  /** Leaked reasoning anywhere in the database ("table.column"), new since the mode before. */
  storedLeaks: string[];
  /** Stored reports and assistant messages with a code fence or the fake's chat around it (what wrapped a reply, kept; the scenario's replies have no code). */
  fencedReplies: string[];
  llmCalls: number;
  /** Replies the mode changed (a mode that changed none tested nothing). */
  misbehaved: number;
  /** Requests that asked the model again for a reply it could not read (lib/ai/call.ts's repair). */
  repairs: number;
  /** The agent of each repair request and the start of what it said was wrong. */
  repairedAgents: string[];
  /** The scenario's text replies the mode cut at the output limit (first attempts), by agent. */
  cutReplies: { agent: string; intended: string }[];
  /** The prompt tokens of every request, as the fake counted them (sent or not). */
  promptTokens: number;
  ms: number;
}

export interface HarnessOptions {
  /** The tree research's size (default 1 × 2). */
  depth?: number;
  breadth?: number;
  /** Which engines to run (default all three). */
  engines?: Engine[];
  /** The fake LLM's options for every run, beside the mode (a context limit, say). */
  llm?: Partial<LlmOptions>;
}

const TREE_PROMPT = "How do heat pumps perform in cold climates?";
const DR_MESSAGE = "Regional sales of anvils, bolts and crates #analysis #tasks-2";
const ANSWER_QUESTION = "How much storage did grid batteries add in 2024?";

/** Occurrences of leaked reasoning in a text: "<think", "</think>", the planted marker (case-insensitive). */
export function leaksIn(text: string | null | undefined): string[] {
  if (!text) return [];
  const lower = text.toLowerCase();
  return REASONING_LEAKS.filter((leak) => lower.includes(leak.toLowerCase()));
}

/** The modes each run against a server (a model name) of its own: see run(). */
const OWN_SERVER_MODES = new Set<MisbehaveMode>(["silent-cut", "half-open", "ignores-format"]);

export async function startMisbehaveHarness(options: HarnessOptions = {}) {
  const { depth = 1, breadth = 2, engines = ["tree", "deep-research", "answer"] } = options;
  await useTestDatabase();
  const fakes: Fakes = await startFakes({ search: { failingPageShare: 0 } });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-misbehave-"));
  Object.assign(process.env, fakes.env, {
    // A failed call is lost at once and lost planning tried again soon: a mode that breaks a call fails fast.
    LLM_RETRY_BUDGET_MS: "0",
    PLAN_RETRY_DELAY_MS: "100",
    SCRAPE_TIMEOUT_MS: "3000",
    LITERATURE_TREE_DEPTH: "1",
    LITERATURE_TREE_BREADTH: "1",
    ANALYSIS_MAX_STEPS: "3",
    ANALYSIS_QUERY_TIMEOUT_MS: "3000",
    UPLOADS_DIR: path.join(dataDir, "uploads"),
    REPORTS_DIR: path.join(dataDir, "reports"),
    RATE_LIMIT_STARTS_PER_HOUR: "100000",
    RATE_LIMIT_PLANNING_CALLS_PER_HOUR: "100000",
    MAX_CONCURRENT_RUNS_PER_USER: "100",
    EMBEDDING_MODEL: "",
  });
  const { db } = await import("../../lib/db/client");
  const { runRegistry } = await import("../../lib/runs/engines");
  const research = await import("../../lib/research/service");
  const { researchExport } = await import("../../lib/research/export-view");
  const dr = await import("../../lib/deep-research/service");
  const { conversationExport } = await import("../../lib/deep-research/export-view");
  const answers = await import("../../lib/answer/service");
  const { markdownExport } = await import("../../lib/exports/markdown");
  const { verificationOfResearch, verificationOfConversation } = await import("../../lib/db/verifications");
  const { eventBus } = await import("../../lib/events/bus");
  /** The notes a run's stream gives with a draft that starts over (report.delta, reply-delta), from now on. */
  const restartNotesOf = (kind: "tree" | "deep-research", subjectId: string) => {
    const notes: string[] = [];
    const stop = eventBus.subscribe({ kind, subjectId }, (e) => {
      const note = (e.data as { note?: unknown } | null)?.note;
      if ((e.type === "report.delta" || e.type === "reply-delta") && typeof note === "string") notes.push(note);
    });
    return { notes, stop };
  };
  const { claimsOf, reportBody } = await import("../../lib/verification/claims");
  const { parseAnalysisSourceUrl } = await import("../../lib/exports/query-links");
  const isQueryTarget = (url: string) => parseAnalysisSourceUrl(url) !== null;
  const { toVerificationView } = await import("../../lib/verification/view");
  const user = await db.user.create({ data: { email: `misbehave-${process.pid}@example.com`, passwordHash: "x" } });
  const userId = user.id;

  type VerificationRow = NonNullable<Awaited<ReturnType<typeof verificationOfResearch>>>;
  const key = (text: string, urls: readonly string[]) => `${text}\u0000${urls.join(" ")}`;

  /** The stored text's citations against the text as written and the verification's verdicts (issue 51's "degrade, never destroy"). */
  function auditCitations(stored: string, row: VerificationRow | null): CitationAudit {
    const cited = (markdown: string) => claimsOf(reportBody(markdown).body).filter((c) => c.urls.length > 0);
    const storedCited = cited(stored);
    const written = row ? cited(row.original) : storedCited;
    const pass1 = new Map((row?.verdicts ?? []).filter((v) => v.pass === 1).map((v) => [key(v.sentence, JSON.parse(v.urls) as string[]), v.verdict]));
    const storedKeys = new Set(storedCited.map((c) => key(c.text, c.urls)));
    const unsupported = written.filter((c) => pass1.get(key(c.text, c.urls)) === "unsupported");
    const view = row ? toVerificationView(row) : null;
    const viewCited = (view?.claims ?? []).filter((c) => c.cited_urls.length > 0);
    const viewKeys = new Set(viewCited.map((c) => key(c.sentence, c.cited_urls)));
    const judged = (view?.claims ?? []).filter((c) => ["supported", "partial", "unsupported"].includes(c.verdict)).length;
    // Uncited claims not judged by a paragraph's citation (those are counted as judged).
    const uncited = (view?.claims ?? []).filter((c) => c.cited_urls.length === 0 && !["supported", "partial", "unsupported"].includes(c.verdict)).length;
    return {
      writtenCited: written.length,
      judgedUnsupported: unsupported.length,
      citationsWritten: written.reduce((n, c) => n + c.urls.length, 0),
      citationsStored: storedCited.reduce((n, c) => n + c.urls.length, 0),
      lost: written.filter((c) => !unsupported.includes(c) && !storedKeys.has(key(c.text, c.urls))).map((c) => c.text),
      status: row?.status ?? null,
      judged,
      unjudged: (view?.claims.length ?? 0) - judged - uncited,
      uncited,
      storedCited: storedCited.length,
      finalSupported: (view?.claims ?? []).filter((c) => c.verdict === "supported").length,
      notSupported: (view?.claims ?? []).filter((c) => c.verdict !== "supported").map((c) => `${c.verdict}: ${c.sentence.slice(0, 100)} (${c.note ?? ""})`),
      coveredSupported: (view?.claims ?? []).filter((c) => c.cited_urls.length === 0 && ["supported", "partial"].includes(c.verdict)).length,
      flaggedUncited: (view?.claims ?? []).filter((c) => c.verdict === "uncited").length,
      tableRowsCited: storedCited.filter((c) => c.row).length,
      tableRowsJudged: storedCited.filter((c) => c.row && (view?.claims ?? []).some((v) => v.sentence === c.text && ["supported", "partial", "unsupported"].includes(v.verdict))).length,
      queryCited: storedCited.filter((c) => c.urls.some(isQueryTarget)).length,
      queryJudged: (view?.claims ?? []).filter((c) => c.cited_urls.some(isQueryTarget) && ["supported", "partial"].includes(c.verdict)).length,
      missingFromView: view ? storedCited.filter((c) => !viewKeys.has(key(c.text, c.urls))).map((c) => c.text) : [],
      notInStored: view ? viewCited.filter((c) => !storedKeys.has(key(c.sentence, c.cited_urls))).map((c) => c.sentence) : [],
      unlinked: [
        ...[...reportBody(stored).body.matchAll(/\[(?:source\s*)?\d+(?:\s*[-–,]\s*\d+)*\](?![(:])/gi)].map((m) => m[0]),
        ...reportBody(stored).body.split("\n").filter((line) => /^\s*(?:\*\*|#+\s*)?references\b/i.test(line)),
      ],
    };
  }

  const leaksOf = (texts: Record<string, string | null | undefined>) =>
    Object.entries(texts).flatMap(([where, text]) => leaksIn(text).map((leak) => `${where}: ${leak}`));

  async function timed(engine: Engine, body: (run: EngineRun) => Promise<void>): Promise<EngineRun> {
    const run: EngineRun = { engine, status: "not run", completed: false, error: null, ms: 0, leaks: [] };
    const t0 = performance.now();
    try {
      await body(run);
    } catch (error) {
      run.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      run.status = "threw";
    }
    run.ms = Math.round(performance.now() - t0);
    return run;
  }

  const runTree = () =>
    timed("tree", async (run) => {
      // The follow-up questions first (the prompt analyzer), then the tree, its report and the verification.
      const draft = await research.draftWithQuestions({ userId, input: { initial_prompt: TREE_PROMPT, num_questions: 2 } });
      const started = await research.launchResearch({ userId, input: { research_id: draft.research_id, followup_answers: draft.followup_questions.map(() => "Europe, the last five years."), depth, breadth } });
      const restarts = restartNotesOf("tree", started.research_id);
      await runRegistry.start("tree", started.research_id).finally(restarts.stop);
      run.restartNotes = restarts.notes;
      const row = await db.research.findUniqueOrThrow({ where: { id: started.research_id } });
      run.status = row.status;
      run.completed = row.status === "completed";
      run.error = row.error;
      run.tokens = { prompt: row.promptTokens, completion: row.completionTokens };
      run.text = row.report;
      const view = await research.getResearchView({ id: row.id, userId });
      const exported = await researchExport({ id: row.id, userId });
      run.leaks = leaksOf({
        "follow-up questions": draft.followup_questions.join("\n"),
        report: row.report,
        "research view": JSON.stringify(view),
        "markdown export": exported ? markdownExport(exported.doc) : null,
        "verification view": JSON.stringify(exported?.verification ?? null),
      });
      const queries = await db.serpQuery.findMany({ where: { researchId: row.id, status: "completed" }, select: { text: true, queryPages: { select: { _count: { select: { items: true } } } } } });
      run.queriesWithoutItems = queries.filter((q) => q.queryPages.every((p) => p._count.items === 0)).map((q) => q.text);
      const verification = await verificationOfResearch({ researchId: row.id });
      run.written = verification?.original;
      if (row.report) run.citations = auditCitations(row.report, verification);
    });

  const runDeepResearch = () =>
    timed("deep-research", async (run) => {
      const reply = await dr.startDeepResearch({ userId, input: { message: DR_MESSAGE, researchMode: "steering" }, files: [new File([salesCsv()], "sales.csv", { type: "text/csv" })] });
      const { conversationId, messageId } = reply.body;
      const restarts = restartNotesOf("deep-research", conversationId);
      await runRegistry.start("deep-research", conversationId).finally(restarts.stop);
      run.restartNotes = restarts.notes;
      const status = await dr.deepResearchStatus({ messageId, userId });
      run.status = status.status;
      run.completed = status.status === "completed";
      run.error = status.status === "failed" ? status.error : null;
      const view = await dr.getConversationView({ id: conversationId, userId });
      const conversation = await db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
      run.tokens = { prompt: conversation.promptTokens, completion: conversation.completionTokens };
      const exported = await conversationExport({ id: conversationId, userId });
      run.leaks = leaksOf({
        status: JSON.stringify(status),
        "conversation view": JSON.stringify(view),
        "markdown export": exported ? markdownExport(exported.doc) : null,
      });
      run.datasetsLoaded = (view.state.uploadedDatasets as { status?: string }[]).filter((d) => d.status === "loaded").length;
      const analysis = view.plan.filter((t) => t.type === "ANALYSIS");
      const ran = (t: (typeof analysis)[number]) => t.status === "completed" && ((t.artifacts as { queries?: { ok: boolean }[] }).queries ?? []).some((q) => q.ok);
      run.analysisPlanned = analysis.length;
      run.analysisRun = analysis.filter(ran).length;
      run.failedQueries = analysis.flatMap((t) => ((t.artifacts as { queries?: { ok: boolean; sql: string; error: string | null }[] }).queries ?? []).filter((q) => !q.ok).map((q) => `${q.sql}: ${q.error}`));
      run.analysisSkipped = analysis.filter((t) => !ran(t)).map((t) => `${t.id} ${t.status}${t.error ? `: ${t.error}` : ""} (datasets ${JSON.stringify(t.datasetFilenames)})`);
      run.discoveries = view.discoveries.length;
      run.discoveriesWithEvidence = view.discoveries.filter((d) => d.linkedEvidence).length;
      const last = [...view.messages].reverse().find((m) => m.role === "assistant");
      run.text = last?.content ?? null;
      const verification = await verificationOfConversation({ conversationId });
      if (last && verification?.messageId === last.id) {
        run.citations = auditCitations(last.content, verification);
        run.written = verification.original;
      }
    });

  const runAnswer = () =>
    timed("answer", async (run) => {
      // With sampling settings, as chat clients send them: the answer is written once more in their terms.
      const started = await answers.startAnswer({ userId, q: ANSWER_QUESTION, options: { temperature: 0.3, topP: 0.9, presencePenalty: 0.1 } });
      await runRegistry.start("answer", started.runId);
      const view = await answers.getAnswer({ requestId: started.requestId, userId });
      run.status = view.status;
      run.completed = view.status === "completed";
      run.error = view.error ?? null;
      run.references = view.references?.length ?? 0;
      run.text = view.answer ?? null;
      run.tokens = view.usage && { prompt: view.usage.promptTokens, completion: view.usage.completionTokens };
      run.leaks = leaksOf({ answer: view.answer, "answer view": JSON.stringify(view) });
    });

  const seenStored = new Set<string>();

  /** Every text column of every table (SQLite) searched for leaked reasoning; new hits only. */
  async function storedLeaks(): Promise<string[]> {
    if (testingOnPostgres()) return [];
    const tables = await db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'`);
    const out: string[] = [];
    for (const { name } of tables) {
      const columns = await db.$queryRawUnsafe<{ name: string; type: string }[]>(`PRAGMA table_info("${name}")`);
      for (const column of columns.filter((c) => /TEXT|CHAR|CLOB|^$/i.test(c.type))) {
        // The event log keeps a streamed reply's voided start (a prompt cut without a word) before the
        // delta that restarts it: replayed, a client drops it there; every view is checked for it.
        const leaks = name === "RunEvent" ? REASONING_LEAKS.filter((leak) => leak !== UNINSTRUCTED_MARKER) : REASONING_LEAKS;
        const conditions = leaks.map((leak) => `lower("${column.name}") LIKE '%${leak.toLowerCase()}%'`).join(" OR ");
        const [{ n }] = await db.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT count(*) AS n FROM "${name}" WHERE ${conditions}`);
        const hit = `${name}.${column.name}`;
        const label = `${hit} (${Number(n)} rows)`;
        if (Number(n) > 0 && !seenStored.has(label)) {
          seenStored.add(label);
          out.push(label);
        }
      }
    }
    return out;
  }

  /** Reports and assistant messages stored with what wrapped them. */
  async function fencedReplies(): Promise<string[]> {
    const fenced = (text: string | null) => Boolean(text && (/^\s*(```|~~~)/m.test(text) || /^(Sure! Here is|Let me know)/m.test(text)));
    const reports = await db.research.findMany({ select: { id: true, report: true } });
    const messages = await db.conversationMessage.findMany({ where: { role: "assistant" }, select: { id: true, content: true } });
    return [...reports.filter((r) => fenced(r.report)).map((r) => `research ${r.id}`), ...messages.filter((m) => fenced(m.content)).map((m) => `message ${m.id}`)];
  }

  return {
    fakes,
    /** One mode's runs, engine after engine (null: the well-behaved scenario fake). */
    async run(mode: MisbehaveMode | null): Promise<ModeRun> {
      fakes.reset();
      fakes.llm.configure({ ...options.llm, misbehave: mode });
      // A failed call is lost at once (LLM_RETRY_BUDGET_MS 0), but where the mode is a failure the product retries.
      process.env.LLM_RETRY_BUDGET_MS = mode === "error-in-200" ? "60000" : "0";
      // A server of its own (the product remembers each server's habits by its address and model): what it
      // learned of an earlier mode's — streams sent without stream_options, so without their usage — is not
      // this one's, whose cuts only the usage shows; and what it learns of this one (its window, its replies
      // in the reasoning field) is not the next one's.
      process.env.RESEARCH_MODEL = mode && OWN_SERVER_MODES.has(mode) ? `${fakes.env.RESEARCH_MODEL}-${mode}` : fakes.env.RESEARCH_MODEL;
      (await import("../../lib/env")).resetEnvCache();
      const t0 = performance.now();
      const runs: EngineRun[] = [];
      if (engines.includes("tree")) runs.push(await runTree());
      if (engines.includes("deep-research")) runs.push(await runDeepResearch());
      if (engines.includes("answer")) runs.push(await runAnswer());
      return { mode, runs, storedLeaks: await storedLeaks(), fencedReplies: await fencedReplies(), llmCalls: fakes.llm.log.length, misbehaved: fakes.llm.log.filter((e) => e.misbehaved).length, repairs: fakes.llm.log.filter(isRepair).length, repairedAgents: fakes.llm.log.filter(isRepair).map((e) => `${e.agent}: ${e.messages.at(-1)?.content?.toString().slice(0, 300)}`), promptTokens: fakes.llm.log.reduce((n, e) => n + e.promptTokens, 0), cutReplies: fakes.llm.log.filter((e) => (mode === "cut-off" || mode === "error-in-200") && e.misbehaved && e.intended !== undefined && !isRepair(e)).map((e) => ({ agent: e.agent, intended: e.intended! })), ms: Math.round(performance.now() - t0) };
    },
    async stop(): Promise<void> {
      await db.$disconnect();
      await fakes.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type MisbehaveHarness = Awaited<ReturnType<typeof startMisbehaveHarness>>;
