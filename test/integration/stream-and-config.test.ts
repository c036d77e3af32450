// The progress stream (snapshot first, then live events, nothing twice) and the behaviour of an
// app started with no LLM or search configured.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { signInSession } from "../helpers/auth";
import { createAndStart, waitForStatus } from "../helpers/research";
import { readUiStream } from "../helpers/ui-stream";

/** Reads a research's stream to its end. */
const readStream = (app: TestApp, id: string) => readUiStream(app, `/api/research/${id}/stream`, { timeoutMs: 60_000 });

describe("stream", () => {
  let fakes: Fakes;
  let app: TestApp;
  before(async () => {
    fakes = await startFakes();
    app = await TestApp.start({ name: "stream", env: fakes.env });
  });
  after(async () => {
    await app?.stop();
    await fakes?.stop();
  });

  test("a client that connects mid-run gets the snapshot, then only newer events, until the end", async () => {
    fakes.llm.configure({ latencyMs: 80 });
    const id = await createAndStart(app, { depth: 2, breadth: 2 });
    // Mid-run: once the root queries exist. Their children come after a search, an analysis and a
    // planning call, so the second level's events are live (a fixed wait raced a faster server).
    await waitFor(async () => ((await app.db.serpQuery.count({ where: { researchId: id } })) > 0 ? true : undefined), 30_000, "the root queries");
    const parts = (await readStream(app, id)).filter((p) => p.type.startsWith("data-"));
    assert.equal(parts[0].type, "data-snapshot");
    const snapshot = parts[0].data as unknown as { seq: number; research: { status: string; serp_queries: unknown[] } };
    assert.equal(snapshot.research.status, "running");
    const live = parts.slice(1);
    assert.ok(live.length > 10, `only ${live.length} live parts`);
    const seqs = live.map((p) => p.data!.seq!);
    assert.ok(seqs.every((s, i) => s > snapshot.seq && (i === 0 || s > seqs[i - 1])), "live parts are newer than the snapshot and strictly ordered");
    for (const type of ["data-query", "data-website", "data-report-delta", "data-report", "data-run"]) {
      assert.ok(live.some((p) => p.type === type), `saw ${type}`);
    }
    const last = live.at(-1)!;
    assert.equal(last.type, "data-run");
    assert.equal(last.data!.status, "completed");
    const view = await waitForStatus(app, id, ["completed"]);
    const report = live.find((p) => p.type === "data-report")!;
    assert.equal(report.data!.markdown, view.report);
  });

  test("a live run's stream is never compressed, so each event goes out as it happens; an ended run's may be", async () => {
    const id = await createAndStart(app, { depth: 1, breadth: 1 });
    // Browsers and fetch accept gzip; a gzip encoder holds events back until more data comes.
    const open = (path: string) => app.fetch(path, { headers: { "accept-encoding": "gzip, deflate, br" } });
    const res = await open(`/api/research/${id}/stream`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-encoding"), null);
    assert.match(res.headers.get("cache-control") ?? "", /no-transform/);
    await res.body?.cancel();
    await waitForStatus(app, id, ["completed"]);
    // Ended, the stream is one snapshot: every run stream (the engine-neutral one too) lets it be compressed.
    const run = await app.db.run.findUniqueOrThrow({ where: { kind_subjectId: { kind: "tree", subjectId: id } } });
    for (const path of [`/api/research/${id}/stream`, `/api/runs/${run.id}/stream`]) {
      const ended = await open(path);
      assert.equal(ended.status, 200, path);
      assert.doesNotMatch(ended.headers.get("cache-control") ?? "", /no-transform/, path);
      assert.equal(ended.headers.get("content-encoding"), "gzip", path);
      assert.match(await ended.text(), /data-snapshot/, path);
    }
  });

  test("a client that connects while the report is being written gets the draft so far in its snapshot", async () => {
    // The report streams slowly: its first words after 3 s, the rest over the next 3 s.
    fakes.llm.configure({ latencyMs: 0, latencyRules: [{ match: "Quarry's report-writer agent", latencyMs: 6_000 }] });
    try {
      const id = await createAndStart(app, { depth: 1, breadth: 1 });
      let draft: string | null = null;
      for (;;) {
        const isSnapshot = (p: { type: string }) => p.type === "data-snapshot";
        const parts = await readUiStream(app, `/api/research/${id}/stream`, { enough: (got) => got.some(isSnapshot), timeoutMs: 30_000 });
        const snapshot = parts.find(isSnapshot)!.data as unknown as { research: { status: string }; report_draft: string | null };
        if (snapshot.report_draft) {
          draft = snapshot.report_draft;
          break;
        }
        if (snapshot.research.status !== "running") break;
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.ok(draft, "a snapshot taken while the report was written carried its draft");
      const view = await waitForStatus(app, id, ["completed"]);
      assert.ok(view.report!.startsWith(draft.slice(0, 15)), `the draft is the start of the report: ${draft.slice(0, 80)}`);
    } finally {
      fakes.llm.configure({ latencyRules: [] });
    }
  });

  test("a client that connects after the end gets the final snapshot and the stream closes", async () => {
    const id = await createAndStart(app, { depth: 1, breadth: 1 });
    await waitForStatus(app, id, ["completed"]);
    const parts = (await readStream(app, id)).filter((p) => p.type.startsWith("data-"));
    assert.equal(parts.length, 1);
    const research = (parts[0].data as unknown as { research: { status: string; report: string; successful_scraped_websites: { item_count: number; items: unknown; content?: string }[] } }).research;
    assert.equal(research.status, "completed");
    assert.ok(research.report.length > 0);
    // The items' text waits until a view needs it (GET /api/research/:id); their count is here.
    const sites = research.successful_scraped_websites;
    assert.ok(sites.some((w) => w.item_count > 0));
    assert.ok(sites.every((w) => w.items === null && w.content === undefined));
  });
  test("an LLM server that cuts long prompts (Ollama's num_ctx) is named to signed-in users, until a longer prompt is counted whole", async () => {
    const notice = /data-testid="llm-context-notice"/;
    const cookie = await signInSession(app.url, app.user.email, app.user.password);
    const home = async () => (await fetch(`${app.url}/`, { headers: { cookie } })).text();
    assert.doesNotMatch(await home(), notice);
    // A 9,600-character prompt (about 2,400 tokens) counted as 1,000: cut.
    const long = `How do heat pumps perform in cold climates? ${"Consider insulation, defrost cycles and grid load. ".repeat(190)}`.slice(0, 9_600);
    fakes.llm.configure({ contextWindow: 1_000 });
    try {
      assert.equal((await app.postJson("/api/research/questions", { initial_prompt: long, num_questions: 2 })).status, 200);
    } finally {
      fakes.llm.configure({ contextWindow: 0 });
    }
    const page = await home();
    assert.match(page, notice);
    assert.match(page, /counted 1,000 tokens for a prompt of about 2,\d{3}/);
    assert.match(page, /OLLAMA_CONTEXT_LENGTH/);
    assert.match(app.logs(), /the LLM server counted 1000 prompt tokens/);
    assert.doesNotMatch(await (await fetch(`${app.url}/sign-in`)).text(), notice, "a visitor sees nothing of it");
    // The same prompt counted whole: the server's context was made larger.
    assert.equal((await app.postJson("/api/research/questions", { initial_prompt: long, num_questions: 2 })).status, 200);
    assert.doesNotMatch(await home(), notice);
  });
});

describe("no LLM or search configured", () => {
  let app: TestApp;
  before(async () => {
    app = await TestApp.start({ name: "noconfig", env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", SEARXNG_URL: "not a url" } });
  });
  after(async () => app?.stop());

  test("the app starts, reports what to set, and research requests fail at once naming the variable", async () => {
    const status = (await (await app.fetch("/api/config/status")).json()) as { problems: { variable: string; message: string }[] };
    const variables = status.problems.map((p) => p.variable).sort();
    assert.deepEqual(variables, ["OPENAI_API_KEY", "SEARXNG_URL"]);
    assert.match(status.problems.find((p) => p.variable === "OPENAI_API_KEY")!.message, /OPENAI_BASE_URL/);
    assert.match(app.logs(), /SEARXNG_URL must be a full http\(s\) URL/, "the malformed URL is reported at start-up");

    const started = Date.now();
    const res = await app.postJson("/api/research/questions", { initial_prompt: "Anything", num_questions: 2 });
    assert.equal(res.status, 503);
    const body = (await res.json()) as { error: string; code: string };
    assert.equal(body.code, "unavailable:config");
    assert.match(body.error, /OPENAI_API_KEY/);
    assert.match(body.error, /SEARXNG_URL/);
    assert.ok(Date.now() - started < 2000, "fails at once");
    assert.ok(!JSON.stringify(body).includes("not a url"), "no configuration values are echoed");

    const page = await app.fetch("/", { redirect: "manual" });
    assert.ok(page.status < 500, `pages still work (${page.status})`);
  });

  test("the banner names the variables to a signed-in user, and shows a visitor nothing of the configuration", async () => {
    const banner = /data-testid="config-banner"/;
    const anonymous = await (await fetch(`${app.url}/sign-in`)).text();
    assert.doesNotMatch(anonymous, banner);
    assert.doesNotMatch(anonymous, /OPENAI_API_KEY|SEARXNG_URL/);
    const cookie = await signInSession(app.url, app.user.email, app.user.password);
    const signedIn = await (await fetch(`${app.url}/`, { headers: { cookie } })).text();
    assert.match(signedIn, banner);
    assert.match(signedIn, /OPENAI_API_KEY/);
  });
});
