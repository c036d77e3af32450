// The event sequence is durable: a client that reconnects after the server restarted gets a
// snapshot numbered after everything it saw, then only newer events — no gap, no repeat.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { createAndStart, waitForStatus } from "../helpers/research";
import { readUiStream, type UiPart } from "../helpers/ui-stream";

type Part = UiPart;

/** Reads a stream (a research's by default) until `enough(parts)` or its end. */
const readStream = (app: TestApp, id: string, enough: (parts: Part[]) => boolean, path = `/api/research/${id}/stream`) => readUiStream(app, path, { enough });

const seqs = (parts: Part[]) => parts.filter((p) => p.type.startsWith("data-") && p.type !== "data-snapshot").map((p) => p.data!.seq!);
const snapshotSeq = (parts: Part[]) => parts.find((p) => p.type === "data-snapshot")!.data!.seq!;

let fakes: Fakes;
let app: TestApp;
before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "event-seq", env: { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

test("sequence numbers go on after a restart: the reconnecting client sees no repeat", async () => {
  fakes.llm.configure({ latencyMs: 120 });
  const id = await createAndStart(app, { depth: 2, breadth: 3 });
  const first = await readStream(app, id, (parts) => seqs(parts).length >= 15);
  const seen = [snapshotSeq(first), ...seqs(first)];
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i] > seen[i - 1], `increasing: ${seen.join(",")}`);
  await waitFor(async () => ((await app.db.extractedItem.count({ where: { researchId: id } })) >= 2 ? true : undefined), 60_000, "findings");

  await app.kill();
  await app.restart();
  const second = await readStream(app, id, (parts) => parts.some((p) => p.type === "finish"));
  const snapshot = snapshotSeq(second);
  const lastSeen = Math.max(...seen);
  assert.ok(snapshot >= lastSeen, `the snapshot after the restart (${snapshot}) is numbered after what the client saw (${lastSeen})`);
  const live = seqs(second);
  assert.ok(live.length > 0, "live events after the restart");
  assert.ok(live[0] > snapshot && live.every((s, i) => i === 0 || s > live[i - 1]), `no repeat: ${live.slice(0, 20).join(",")}`);
  assert.ok(live.every((s) => s > lastSeen), "no number the client saw before comes again");
  assert.equal((await waitForStatus(app, id, ["completed", "failed"])).status, "completed");
});

test("the engine-neutral run stream: the engine's snapshot, then every envelope newer than it, to the run's last event", async () => {
  fakes.llm.configure({ latencyMs: 150 });
  const id = await createAndStart(app, { depth: 1, breadth: 2 });
  const run = await app.db.run.findUniqueOrThrow({ where: { kind_subjectId: { kind: "tree", subjectId: id } } });
  const view = (await (await app.fetch(`/api/runs/${run.id}`)).json()) as { kind: string; subject_id: string; links: { stream: string } };
  assert.equal(view.kind, "tree");
  assert.equal(view.subject_id, id);

  const parts = await readStream(app, id, (p) => p.some((x) => x.type === "finish"), view.links.stream);
  const snapshot = parts.find((p) => p.type === "data-snapshot")!.data as { seq: number; run: { id: string }; data: { research: { research_id: string } } };
  assert.equal(snapshot.run.id, run.id);
  assert.equal(snapshot.data.research.research_id, id, "the tree engine's snapshot");
  const events = parts.filter((p) => p.type === "data-event").map((p) => p.data as unknown as { runId: string; kind: string; subjectId: string; seq: number; type: string; data: { status?: string } });
  assert.ok(events.length > 0, "live events");
  for (const e of events) {
    assert.equal(e.runId, run.id);
    assert.equal(e.kind, "tree");
    assert.equal(e.subjectId, id);
  }
  const numbers = events.map((e) => e.seq);
  assert.ok(numbers[0] > snapshot.seq && numbers.every((s, i) => i === 0 || s > numbers[i - 1]), `increasing after the snapshot: ${numbers.join(",")}`);
  const last = events.at(-1)!;
  assert.equal(last.type, "run.status");
  assert.equal(last.data.status, "completed");
  assert.ok(parts.some((p) => p.type === "finish"), "the stream ends after the run's last event");
});
