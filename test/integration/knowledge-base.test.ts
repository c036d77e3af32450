// The knowledge base through the real HTTP API: collections created, renamed, re-indexed, deleted;
// documents uploaded (multipart) and searched with their page or section; corrupt, encrypted and
// oversized uploads refused with an error naming the file (a file read but not indexed kept as a failed
// document until removed); another user gets 404 everywhere; and
// KNOWLEDGE_DOCS_PATH indexed at start as the shared collection, a changed file re-indexed.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPdfPages } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { createTestUser, type TestUser } from "../helpers/auth";

const MAX_FILE = 64 * 1024;
let app: TestApp;
let bob: TestUser;
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-kb-shared-"));

before(async () => {
  fs.writeFileSync(path.join(folder, "handbook.md"), "# Handbook\n\n## Leave\n\nStaff get thirty-one days of paid leave.");
  app = await TestApp.start({ name: "knowledge-base", env: { KNOWLEDGE_DOCS_PATH: folder, KNOWLEDGE_MAX_FILE_BYTES: String(MAX_FILE) } });
  bob = await createTestUser(app.db, { email: "bob@test.local" });
});
after(async () => {
  await app?.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

function upload(collectionId: string, name: string, bytes: Uint8Array, token?: string): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  const headers = token ? { authorization: `Bearer ${token}` } : undefined;
  return app.fetch(`/api/collections/${collectionId}/documents`, { method: "POST", body: form, headers });
}

type Hit = { documentId: string; documentName: string; page: number | null; section: string | null; text: string };
async function search(collectionId: string, q: string): Promise<Hit[]> {
  const res = await app.fetch(`/api/collections/${collectionId}/search?q=${encodeURIComponent(q)}`);
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { results: Hit[] }).results;
}

const pdf = buildPdfPages({
  title: "Moss survey",
  pages: [["The survey covered twelve sites in the northern valley."], ["At site nine the moss glowed faintly blue under ultraviolet light."]],
});

let collectionId = "";
let documentId = "";

test("create, upload, search (with the page), rename, re-index, open, delete", async () => {
  const created = await app.postJson("/api/collections", { name: "Field work" });
  assert.equal(created.status, 201, await created.clone().text());
  collectionId = ((await created.json()) as { collection: { id: string } }).collection.id;

  const res = await upload(collectionId, "../../moss.pdf", pdf);
  assert.equal(res.status, 201, await res.clone().text());
  const { document } = (await res.json()) as { document: { id: string; name: string; status: string; pageCount: number } };
  documentId = document.id;
  assert.deepEqual([document.name, document.status, document.pageCount], ["moss.pdf", "ready", 2], "the name carries no path");
  assert.equal((await upload(collectionId, "notes.md", new TextEncoder().encode("# Notes\n\n## Site nine\n\nRevisit in spring."))).status, 201);

  const hits = await search(collectionId, "blue glowing moss under ultraviolet");
  assert.equal(hits[0].documentName, "moss.pdf");
  assert.equal(hits[0].page, 2);
  assert.match(hits[0].text, /moss glowed faintly blue/);
  assert.deepEqual((await search(collectionId, "spring")).map((h) => [h.documentName, h.section]), [["notes.md", "Notes › Site nine"]]);

  const renamed = await app.fetch(`/api/collections/${collectionId}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Fieldwork 2026" }) });
  assert.equal(((await renamed.json()) as { collection: { name: string } }).collection.name, "Fieldwork 2026");
  const reindexed = await app.fetch(`/api/collections/${collectionId}/reindex`, { method: "POST" });
  assert.equal(reindexed.status, 200);
  assert.deepEqual(((await reindexed.json()) as { documents: { status: string }[] }).documents.map((d) => d.status), ["ready", "ready"]);
  assert.equal((await search(collectionId, "ultraviolet")).length, 1, "re-indexed once");

  const opened = (await (await app.fetch(`/api/collections/${collectionId}/documents/${documentId}`)).json()) as { document: { chunks: { page: number; text: string }[] } };
  assert.ok(opened.document.chunks.some((c) => c.page === 2 && c.text.includes("ultraviolet")));
  const file = await app.fetch(`/api/collections/${collectionId}/documents/${documentId}/file`);
  assert.equal(file.headers.get("content-type"), "application/pdf");
  assert.deepEqual(new Uint8Array(await file.arrayBuffer()), new Uint8Array(pdf));

  const list = (await (await app.fetch("/api/collections")).json()) as { collections: { id: string; name: string; documentCount: number }[] };
  assert.equal(list.collections.find((c) => c.id === collectionId)?.documentCount, 2);
});

test("corrupt, encrypted and oversized uploads each get their error naming the file; nothing else changes", async () => {
  const corrupt = await upload(collectionId, "broken.pdf", new TextEncoder().encode("%PDF-1.4 this is not a PDF at all"));
  assert.equal(corrupt.status, 400);
  const corruptBody = (await corrupt.json()) as { code: string; error: string };
  assert.equal(corruptBody.code, "bad_request:document_corrupt");
  assert.match(corruptBody.error, /"broken\.pdf"/);

  const encrypted = await upload(collectionId, "locked.pdf", buildPdfPages({ title: "Secret", pages: [["hidden"]], encrypted: true }));
  assert.equal(encrypted.status, 400);
  const encryptedBody = (await encrypted.json()) as { code: string; error: string };
  assert.equal(encryptedBody.code, "bad_request:document_encrypted");
  assert.match(encryptedBody.error, /"locked\.pdf".*password/);

  const big = await upload(collectionId, "huge.txt", new Uint8Array(MAX_FILE + 1).fill(97));
  assert.equal(big.status, 413);
  const bigBody = (await big.json()) as { code: string; error: string };
  assert.equal(bigBody.code, "payload_too_large:document");
  assert.match(bigBody.error, /"huge\.txt".*64 KiB.*KNOWLEDGE_MAX_FILE_BYTES/);

  // The files the server read and could not index stay listed, failed with their reasons, until removed
  // (issue 53); the one over the size limit was never read, so nothing of it is kept.
  const documents = ((await (await app.fetch(`/api/collections/${collectionId}`)).json()) as { collection: { documents: { id: string; name: string; status: string; error: string | null }[] } }).collection.documents;
  assert.deepEqual(documents.map((d) => [d.name, d.status]), [["moss.pdf", "ready"], ["notes.md", "ready"], ["broken.pdf", "failed"], ["locked.pdf", "failed"]]);
  assert.deepEqual(documents.slice(2).map((d) => d.error), [corruptBody.error, encryptedBody.error]);
  assert.equal((await search(collectionId, "hidden")).length, 0, "nothing of a failed upload is searchable");
  for (const d of documents.slice(2)) assert.equal((await app.fetch(`/api/collections/${collectionId}/documents/${d.id}`, { method: "DELETE" })).status, 204);
});

test("another user gets 404 from every collection route, and changes nothing", async () => {
  const as = { authorization: `Bearer ${bob.token}` };
  const json = { ...as, "content-type": "application/json" };
  const base = `/api/collections/${collectionId}`;
  const calls: Array<[string, string, RequestInit?]> = [
    ["GET", base],
    ["PATCH", base, { headers: json, body: JSON.stringify({ name: "Bob's now" }) }],
    ["POST", `${base}/reindex`],
    ["GET", `${base}/search?q=moss`],
    ["GET", `${base}/documents?page=1&sort=name`],
    ["GET", `${base}/documents/${documentId}`],
    ["GET", `${base}/documents/${documentId}/file`],
    ["DELETE", `${base}/documents/${documentId}`],
    ["DELETE", base],
  ];
  for (const [method, url, init] of calls) {
    const res = await app.fetch(url, { method, headers: as, ...init });
    assert.equal(res.status, 404, `${method} ${url}`);
    assert.match(((await res.json()) as { code: string }).code, /^not_found:/);
  }
  const up = await upload(collectionId, "bobs.txt", new TextEncoder().encode("Bob was here"), bob.token);
  assert.equal(up.status, 404);
  const bobsList = (await (await app.fetch("/api/collections", { headers: as })).json()) as { collections: { id: string }[] };
  assert.ok(!bobsList.collections.some((c) => c.id === collectionId));
  const mine = (await (await app.fetch(base)).json()) as { collection: { name: string; documents: unknown[] } };
  assert.deepEqual([mine.collection.name, mine.collection.documents.length], ["Fieldwork 2026", 2]);
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test("KNOWLEDGE_DOCS_PATH is indexed at start as a shared read-only collection, and re-indexed when a file changes", async () => {
  const asBob = { authorization: `Bearer ${bob.token}` };
  const shared = await waitFor("the shared collection", async () => {
    const { collections } = (await (await app.fetch("/api/collections", { headers: asBob })).json()) as { collections: { id: string; shared: boolean; documentCount: number }[] };
    return collections.find((c) => c.shared && c.documentCount === 1);
  });
  assert.deepEqual((await search(shared.id, "paid leave days")).map((h) => [h.documentName, h.section]), [["handbook.md", "Handbook › Leave"]]);
  const refused = await app.fetch(`/api/collections/${shared.id}`, { method: "DELETE", headers: asBob });
  assert.equal(refused.status, 403);

  fs.writeFileSync(path.join(folder, "handbook.md"), "# Handbook\n\n## Leave\n\nStaff get forty days of paid leave, and sabbaticals.");
  await waitFor("the changed file re-indexed", async () => ((await search(shared.id, "sabbaticals")).length === 1 ? true : undefined));
  assert.deepEqual(await search(shared.id, "thirty"), []);
});
