// Issue 52: nothing a user uploads or a model writes takes the server down. Three hostile inputs go in
// at once — a DOCX whose document.xml inflates to 300 MB, an HTML file of 100,000 nested divs, and a
// Deep Research ANALYSIS query building a 600 MB string — while a tree research runs. Each fails with
// an error naming the limit that stopped it; the work happens in worker processes (lib/sandbox/pool.ts),
// so the server's RSS stays within 600 MB of idle, its other requests keep answering, and the running
// research's stream keeps flowing (each part's delay from its emission, p95 < 200 ms).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { startFakes, type Fakes } from "../fakes";
import { buildDocxBomb } from "../fakes/docx";
import { TestApp } from "../helpers/app-server";
import { conversation, pollUntilDone } from "../helpers/deep-research";
import { createAndStart, waitForStatus } from "../helpers/research";
import { salesCsv } from "../fixtures/datasets";

const MiB = 1024 * 1024;
let fakes: Fakes;
let app: TestApp;

before(async () => {
  // A slow model keeps the research running while the hostile inputs are worked on.
  fakes = await startFakes({ llm: { latencyMs: 120 } });
  app = await TestApp.start({
    name: "hostile-inputs",
    env: {
      ...fakes.env,
      // The nested HTML takes ~10 s to parse on this machine: past a 3 s limit it fails naming it.
      KNOWLEDGE_PARSE_TIMEOUT_MS: "3000",
      LITERATURE_TREE_DEPTH: "1",
      LITERATURE_TREE_BREADTH: "1",
    },
  });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

/** The server process's resident memory, from /proc (bytes). */
function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) * 1024;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

function upload(collectionId: string, name: string, bytes: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  return app.fetch(`/api/collections/${collectionId}/documents`, { method: "POST", body: form });
}

/** Reads a research's stream to its end: each part's delay from the runner's emission (`at`) to here. */
async function followStream(id: string): Promise<number[]> {
  const res = await app.fetch(`/api/research/${id}/stream`);
  assert.equal(res.status, 200);
  const delays: number[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const arrived = performance.timeOrigin + performance.now();
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line.startsWith("data:") || line === "data: [DONE]") continue;
      const part = JSON.parse(line.slice(5)) as { data?: { at?: number } };
      if (typeof part.data?.at === "number") delays.push(arrived - part.data.at);
    }
  }
  return delays;
}

async function analysisWithHugeString() {
  const form = new FormData();
  form.set("message", "Regional sales #analysis #tasks-1 #analysis-huge-string");
  form.set("researchMode", "steering");
  form.append("files", new Blob([salesCsv()]), "sales.csv");
  const res = await app.fetch("/api/deep-research/start", { method: "POST", body: form });
  const start = await res.json();
  assert.equal(res.status, 200, JSON.stringify(start));
  const done = (await pollUntilDone(app, start.pollUrl)).at(-1)!;
  assert.equal(done.status, "completed", JSON.stringify(done));
  const c = await conversation(app, start.conversationId);
  const task = (c.plan as unknown as { type: string; status: string; artifacts: { queries: { sql: string; ok: boolean; error: string | null }[] } }[]).find((t) => t.type === "ANALYSIS")!;
  return task;
}

test("a DOCX bomb, 100,000 nested divs and a 600 MB string each fail naming their limit; the server's memory and its running research are not touched", async () => {
  const pid = app.pid!;
  const created = await app.postJson("/api/collections", { name: "Hostile" });
  assert.equal(created.status, 201, await created.clone().text());
  const collectionId = ((await created.json()) as { collection: { id: string } }).collection.id;
  // Warm: the worker processes started, the routes loaded; and the same research without hostile
  // inputs, for this machine's own stream latency (a loaded machine's p95 can pass 200 ms unaided).
  assert.equal((await upload(collectionId, "warm.md", new TextEncoder().encode("# Warm\n\nA first document."))).status, 201);
  const baselineId = await createAndStart(app, { depth: 2, breadth: 2 });
  const baseline = (await followStream(baselineId)).sort((a, b) => a - b);
  await waitForStatus(app, baselineId, ["completed"]);
  const baselineP95 = quantile(baseline, 0.95);
  await new Promise((r) => setTimeout(r, 500));
  const idle = rssOf(pid);

  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
  // Another user's view of the server meanwhile: a cheap request every 100 ms, each timed.
  const pings: number[] = [];
  const slow: string[] = [];
  let pinging = true;
  const t0 = performance.now();
  const pinger = (async () => {
    while (pinging) {
      const t = performance.now();
      const res = await app.fetch("/api/config/status");
      await res.arrayBuffer();
      pings.push(performance.now() - t);
      if (performance.now() - t > 200) slow.push(`${((t - t0) / 1000).toFixed(1)}s:${(performance.now() - t).toFixed(0)}ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  try {
    const researchId = await createAndStart(app, { depth: 2, breadth: 2 });
    const stream = followStream(researchId);

    const bomb = buildDocxBomb({ inflatedBytes: 300 * MiB });
    const nested = new TextEncoder().encode(`<html><body>${"<div>".repeat(100_000)}deep text${"</div>".repeat(100_000)}</body></html>`);
    const [bombRes, nestedRes, analysis] = await Promise.all([upload(collectionId, "bomb.docx", bomb), upload(collectionId, "nested.html", nested), analysisWithHugeString()]);

    assert.equal(bombRes.status, 413, await bombRes.clone().text());
    assert.match(((await bombRes.json()) as { error: string }).error, /"bomb\.docx": .*\(KNOWLEDGE_MAX_INFLATE_RATIO\)/);
    assert.equal(nestedRes.status, 413, await nestedRes.clone().text());
    assert.match(((await nestedRes.json()) as { error: string }).error, /"nested\.html": reading the document took longer than 3000 ms, the limit \(KNOWLEDGE_PARSE_TIMEOUT_MS\)/);
    const huge = analysis.artifacts.queries.find((q) => q.sql.includes("repeat('x', 600000000)"));
    assert.ok(huge, JSON.stringify(analysis.artifacts.queries));
    assert.equal(huge.ok, false);
    assert.match(huge.error ?? "", /ANALYSIS_MEMORY_LIMIT_MB/);
    assert.ok(analysis.artifacts.queries.some((q) => q.ok), "the agent went on after the refused query");

    const delays = (await stream).sort((a, b) => a - b);
    const view = await waitForStatus(app, researchId, ["completed"]);
    assert.equal(view.status, "completed");
    assert.ok(delays.length > 20, `${delays.length} stream parts`);
    const p95 = quantile(delays, 0.95);
    console.log(`[hostile-inputs] research stream: ${delays.length} parts, p50 ${quantile(delays, 0.5).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${delays.at(-1)!.toFixed(0)} ms (alone: p95 ${baselineP95.toFixed(0)} ms)`);
    // The target is 200 ms; on a machine whose own p95 is already near it, twice that.
    const bound = Math.max(200, 2 * baselineP95);
    assert.ok(p95 < bound, `the research's stream parts arrived within ${p95.toFixed(0)} ms of their emission at p95 (of ${delays.length}; bound ${bound.toFixed(0)} ms)`);
  } finally {
    clearInterval(sampler);
    pinging = false;
    await pinger;
  }
  const grown = (peak - idle) / MiB;
  assert.ok(grown < 600, `the server's RSS grew by ${grown.toFixed(0)} MB over idle (${(idle / MiB).toFixed(0)} MB)`);
  const sorted = pings.sort((a, b) => a - b);
  console.log(`[hostile-inputs] RSS idle ${(idle / MiB).toFixed(0)} MB, peak +${grown.toFixed(0)} MB; other requests p50 ${quantile(sorted, 0.5).toFixed(0)} ms, p95 ${quantile(sorted, 0.95).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (${pings.length}); slow: ${slow.join(" ")}`);
  // In process, the nested HTML alone held the event loop for ~10 s and the bomb for minutes.
  assert.ok(sorted.at(-1)! < 3_000, `the server answered every other request within ${sorted.at(-1)!.toFixed(0)} ms`);

  // The server goes on: a good document is indexed and found.
  const good = await upload(collectionId, "after.md", new TextEncoder().encode("# After\n\nKestrels hover over the verge."));
  assert.equal(good.status, 201, await good.clone().text());
});
