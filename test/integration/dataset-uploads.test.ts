// Datasets attached to a Deep Research start: every bad upload is a 400 naming the file before
// anything is stored or claimed (so it costs the user no running slot), files are stored under names
// of their own (two of one name are both kept), and lists do not carry the datasets' metadata.
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startFakes, type Fakes } from "../fakes";
import { TestApp, waitFor } from "../helpers/app-server";
import { createTestUser } from "../helpers/auth";
import { conversation, pollUntilDone, type StartReply } from "../helpers/deep-research";

let fakes: Fakes;
let app: TestApp;
const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-uploads-"));

const ENV = {
  LITERATURE_TREE_DEPTH: "1", LITERATURE_TREE_BREADTH: "2", SCRAPE_TIMEOUT_MS: "2000",
  UPLOADS_DIR: uploadsDir, DATASET_MAX_FILES: "3", DATASET_MAX_TOTAL_BYTES: "4096", MAX_CONCURRENT_RUNS_PER_USER: "2",
};

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "dataset-uploads", env: { ...fakes.env, ...ENV } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
  fs.rmSync(uploadsDir, { recursive: true, force: true });
});
beforeEach(() => fakes.reset());

function form(fields: Record<string, string>, files: [name: string, content: string][]): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  for (const [name, content] of files) f.append("files", new Blob([content]), name);
  return f;
}

async function start(token: string, body: FormData): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await app.fetch("/api/deep-research/start", { method: "POST", body, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Waits for a start of another user than the app's to end. */
async function waitUntilDone(token: string, pollUrl: string): Promise<void> {
  await waitFor(async () => {
    const res = await app.fetch(pollUrl, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    return ((await res.json()) as { status: string }).status === "processing" ? undefined : true;
  }, 180_000, `the end of ${pollUrl}`);
}

test("each bad upload is a 400 naming the file; none leaves a conversation claimed, and the user can start afterwards", async () => {
  const user = await createTestUser(app.db);
  const msg = { message: "Analyse rainfall", researchMode: "steering" };
  const cases: [label: string, files: [string, string][], mentions: RegExp][] = [
    ["a file named .", [[".", "a"]], /"\."/],
    ["a file named ..", [["..", "a"]], /"\.\."/],
    ["the same name twice", [["rain.csv", "a"], ["rain.csv", "b"]], /rain\.csv/],
    ["names the same once sanitised", [["rain:2020.csv", "a"], ["rain_2020.csv", "b"]], /rain:2020\.csv.*rain_2020\.csv/],
    ["more files than DATASET_MAX_FILES", [["a.csv", "1"], ["b.csv", "1"], ["c.csv", "1"], ["d.csv", "1"]], /at most 3 datasets/],
    ["more bytes than DATASET_MAX_TOTAL_BYTES", [["a.csv", "x".repeat(3000)], ["b.csv", "y".repeat(3000)]], /DATASET_MAX_TOTAL_BYTES/],
  ];
  for (const [label, files, mentions] of cases) {
    const { status, json } = await start(user.token, form(msg, files));
    assert.equal(status, 400, `${label}: ${JSON.stringify(json)}`);
    assert.equal(json.field, "files", label);
    assert.match(String(json.code), /^bad_request:/, label);
    assert.match(String(json.error), mentions, label);
    assert.equal(await app.db.conversation.count({ where: { userId: user.id } }), 0, `${label}: no conversation stored`);
  }
  assert.deepEqual(fs.readdirSync(uploadsDir).filter((d) => fs.readdirSync(path.join(uploadsDir, d)).length > 0), [], "no file stored");

  // A bad upload to an existing conversation leaves it as it was: not claimed, its datasets unchanged.
  const first = await start(user.token, form(msg, [["rain.csv", "year,mm\n2020,800\n"]]));
  assert.equal(first.status, 200, JSON.stringify(first.json));
  const { conversationId, pollUrl } = first.json as unknown as StartReply;
  await waitUntilDone(user.token, pollUrl);
  const again = await start(user.token, form({ ...msg, conversationId }, [["..", "a"]]));
  assert.equal(again.status, 400, JSON.stringify(again.json));
  const tooMany = await start(user.token, form({ ...msg, conversationId }, [["a.csv", "1"], ["b.csv", "1"], ["c.csv", "1"]]));
  assert.equal(tooMany.status, 400, JSON.stringify(tooMany.json));
  assert.match(String(tooMany.json.error), /holds 1 already/);
  const row = await app.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
  assert.equal(row.active, false, "the conversation is not claimed");
  assert.equal(await app.db.conversationMessage.count({ where: { conversationId, role: "user" } }), 1, "no start message stored");

  // Nothing counts against the running limit (2): two starts at once are both accepted.
  const starts = await Promise.all([0, 1].map((i) => start(user.token, form({ message: `Grid storage ${i}`, researchMode: "steering" }, [[`d${i}.csv`, "a,b\n1,2\n"]]))));
  for (const s of starts) assert.equal(s.status, 200, JSON.stringify(s.json));
  for (const s of starts) await waitUntilDone(user.token, (s.json as unknown as StartReply).pollUrl);
});

test("two files of one name, on two starts of a conversation, are both stored and listed", async () => {
  const first = await start(app.user.token, form({ message: "Rainfall by year", researchMode: "steering" }, [["rain.csv", "year,mm\n2020,800\n"]]));
  assert.equal(first.status, 200, JSON.stringify(first.json));
  const { conversationId, pollUrl } = first.json as unknown as StartReply;
  await pollUntilDone(app, pollUrl);
  const second = await start(app.user.token, form({ message: "Now with 2021", researchMode: "steering", conversationId }, [["rain.csv", "year,mm\n2021,760\n"]]));
  assert.equal(second.status, 200, JSON.stringify(second.json));
  await pollUntilDone(app, (second.json as unknown as StartReply).pollUrl);

  const c = await conversation(app, conversationId);
  const datasets = (c.state as unknown as { uploadedDatasets: { filename: string; size: number; preview: string }[] }).uploadedDatasets;
  assert.deepEqual(datasets.map((d) => [d.filename, d.preview]), [["rain.csv", "year,mm\n2020,800\n"], ["rain.csv", "year,mm\n2021,760\n"]]);
  // The uploads, not the DuckDB database the run loads them into (.datasets.duckdb).
  const onDisk = fs.readdirSync(path.join(uploadsDir, conversationId)).filter((f) => !f.startsWith(".")).map((f) => fs.readFileSync(path.join(uploadsDir, conversationId, f), "utf8")).sort();
  assert.deepEqual(onDisk, ["year,mm\n2020,800\n", "year,mm\n2021,760\n"], "both files on disk");

});

test("the conversation list does not carry dataset metadata (a conversation's view does)", async () => {
  const started = await start(app.user.token, form({ message: "Rainfall by month", researchMode: "steering" }, [["months.csv", "month,mm\n1,80\n"]]));
  assert.equal(started.status, 200, JSON.stringify(started.json));
  const { conversationId, pollUrl } = started.json as unknown as StartReply;
  await pollUntilDone(app, pollUrl);
  const c = await conversation(app, conversationId);
  assert.equal((c.state as unknown as { uploadedDatasets: unknown[] }).uploadedDatasets.length, 1);
  const res = await app.fetch("/api/deep-research/conversations?limit=50");
  assert.equal(res.status, 200);
  const list = (await res.json()) as { conversations: Record<string, unknown>[] };
  const listed = list.conversations.find((x) => x.id === conversationId);
  assert.ok(listed, "the conversation is listed");
  assert.ok(list.conversations.every((x) => !("uploadedDatasets" in x)), JSON.stringify(listed));
});
