// A start's multipart body is read as a stream: files land in temporary files (returned as lazy Files),
// the text fields are checked as before, and a body whose files pass DEEP_RESEARCH_MAX_UPLOAD_BYTES is
// the 413 naming it, with nothing left on disk.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";

const uploads = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-start-read-"));
process.env.UPLOADS_DIR = uploads;
process.env.DEEP_RESEARCH_MAX_UPLOAD_BYTES = String(64 * 1024);
const { readStartRequest, sweepAbandonedUploads, ABANDONED_UPLOAD_MS } = await import("./deep-research-start");
const { AppError } = await import("../errors");

after(() => fs.rmSync(uploads, { recursive: true, force: true }));

const incoming = () => fs.readdirSync(path.join(uploads, ".incoming"));

function post(body: BodyInit, headers?: HeadersInit): Request {
  return new Request("http://localhost/api/deep-research/start", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

test("files are streamed to temporary files and handed on as Files; dispose removes them", async () => {
  const form = new FormData();
  form.set("message", "Analyse rainfall");
  form.set("researchMode", "steering");
  form.set("sources", JSON.stringify({ web: true, collections: [] }));
  form.append("files", new Blob(["year,mm\n2020,10\n"]), "rain.csv");
  form.append("files", new Blob(["a".repeat(40_000)]), "big.csv");
  form.append("files", new Blob(["x"]), "Année 2020.csv");
  form.append("files", new Blob(["x"]), ".");
  const { input, files, dispose } = await readStartRequest(post(form));
  assert.equal(input.message, "Analyse rainfall");
  assert.equal(input.researchMode, "steering");
  assert.deepEqual(input.sources, { web: true, collections: [] });
  assert.deepEqual(files.map((f) => [f.name, f.size]), [["rain.csv", 16], ["big.csv", 40_000], ["Année 2020.csv", 1], [".", 1]]);
  assert.equal(await files[0].text(), "year,mm\n2020,10\n");
  assert.equal(incoming().length, 1, "one temporary folder for the request");
  await dispose();
  assert.deepEqual(incoming(), []);
});

test("bad fields are the same 400s as before, and leave nothing behind", async () => {
  const form = new FormData();
  form.append("files", new Blob(["x"]), "a.csv");
  await assert.rejects(readStartRequest(post(form)), (e: unknown) => e instanceof AppError && e.field === "message");
  const bad = new FormData();
  bad.set("message", "m");
  bad.set("sources", "{not json");
  await assert.rejects(readStartRequest(post(bad)), (e: unknown) => e instanceof AppError && e.field === "sources");
  await assert.rejects(readStartRequest(post("--x\r\nnot a form", { "content-type": "multipart/form-data; boundary=x" })), (e: unknown) => e instanceof AppError && e.code === "bad_request:deep_research");
  assert.deepEqual(incoming(), []);
});

test("files past the limit are a 413 naming DEEP_RESEARCH_MAX_UPLOAD_BYTES as they stream (no declared length), nothing left", async () => {
  const form = new FormData();
  form.set("message", "m");
  form.append("files", new Blob(["a".repeat(40_000)]), "a.csv");
  form.append("files", new Blob(["b".repeat(40_000)]), "b.csv");
  // As a stream, so that no Content-Length is declared: the bytes are counted as they arrive.
  const encoded = new Response(form);
  const stream = encoded.body!;
  await assert.rejects(readStartRequest(post(stream, { "content-type": encoded.headers.get("content-type")! })), (e: unknown) =>
    e instanceof AppError && e.code === "payload_too_large:upload" && e.field === "files" && /DEEP_RESEARCH_MAX_UPLOAD_BYTES/.test(e.message));
  assert.deepEqual(incoming(), []);
});

test("the start-up sweep removes the temporary folders a stopped process left, not an upload under way", async () => {
  const base = path.join(uploads, ".incoming");
  fs.mkdirSync(path.join(base, "start-old"), { recursive: true });
  fs.writeFileSync(path.join(base, "start-old", "0000-aa"), "left by a crash");
  fs.mkdirSync(path.join(base, "start-new"), { recursive: true });
  fs.writeFileSync(path.join(base, "start-new", "0000-bb"), "being written");
  const past = new Date(Date.now() - ABANDONED_UPLOAD_MS - 60_000);
  fs.utimesSync(path.join(base, "start-old", "0000-aa"), past, past);
  fs.utimesSync(path.join(base, "start-old"), past, past);
  // An old folder whose file was written a moment ago is an upload still under way.
  fs.utimesSync(path.join(base, "start-new"), past, past);
  assert.equal(await sweepAbandonedUploads(), 1);
  assert.deepEqual(incoming(), ["start-new"]);
  fs.rmSync(path.join(base, "start-new"), { recursive: true });
});
