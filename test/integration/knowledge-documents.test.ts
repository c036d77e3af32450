// Issue 53, item 7, through the real HTTP API: a collection's documents listed a page at a time,
// sorted (name, type, size, added, status) and filtered (type, status, name) by the server; a bad
// parameter is a 400 naming it; another user's collection is a 404; the old listing (GET
// /api/collections/:id) keeps working. Uploads: a Latin-1 text file is read and its encoding named, a
// DOCX takes Word's title, a 250-character name is shortened keeping its extension, and a failed upload
// stays listed with its reason (after a reload too) until it is removed.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { buildDocx } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { createTestUser, type TestUser } from "../helpers/auth";
import type { DocumentPage } from "@/lib/client/knowledge-api";
import { sortNameOf } from "@/lib/db/sort-name";

let app: TestApp;
let bob: TestUser;
let collectionId = "";

/** A document and a page of the list, as the API answers them (the browser's types of them). */
type Doc = DocumentPage["documents"][number];
type Page = DocumentPage;

before(async () => {
  app = await TestApp.start({ name: "knowledge-documents", env: {} });
  bob = await createTestUser(app.db, { email: "bob-docs@test.local" });
});
after(async () => {
  await app?.stop();
});

function upload(name: string, bytes: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  return app.fetch(`/api/collections/${collectionId}/documents`, { method: "POST", body: form });
}

async function list(query: string, init?: RequestInit): Promise<Page> {
  const res = await app.fetch(`/api/collections/${collectionId}/documents${query}`, init);
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as Page;
}

const names = (page: Page) => page.documents.map((d) => d.name);

test("uploads: a Latin-1 text file is read with its encoding named, a DOCX takes Word's title, a long name keeps its extension", async () => {
  const created = await app.postJson("/api/collections", { name: "Library" });
  assert.equal(created.status, 201, await created.clone().text());
  collectionId = ((await created.json()) as { collection: { id: string } }).collection.id;

  const latin1 = await upload("café.txt", Buffer.from("Les crêpes de la caf\xe9t\xe9ria sont d\xe9licieuses.", "latin1"));
  assert.equal(latin1.status, 201, await latin1.clone().text());
  const latinDoc = ((await latin1.json()) as { document: Doc }).document;
  assert.equal(latinDoc.encoding, "ISO-8859-1");
  assert.equal(latinDoc.status, "ready");
  const hits = ((await (await app.fetch(`/api/collections/${collectionId}/search?q=cafétéria`)).json()) as { results: { documentName: string; text: string }[] }).results;
  assert.equal(hits[0]?.documentName, "café.txt");
  assert.match(hits[0].text, /crêpes de la cafétéria sont délicieuses/);

  const docx = await upload("draft-v7.docx", buildDocx([{ heading: "Introduction", level: 1 }, { text: "Twelve sites were surveyed." }], { title: "Moss survey 2026" }));
  assert.equal(docx.status, 201, await docx.clone().text());
  const docxDoc = ((await docx.json()) as { document: Doc }).document;
  assert.equal(docxDoc.title, "Moss survey 2026");
  assert.equal(docxDoc.encoding, null);

  const longName = `${"An unusually thorough field report on moss ".repeat(6)}.md`;
  const long = await upload(longName, new TextEncoder().encode("# Field report\n\nMoss everywhere."));
  assert.equal(long.status, 201, await long.clone().text());
  const longDoc = ((await long.json()) as { document: Doc }).document;
  assert.equal(Array.from(longDoc.name).length, 200);
  assert.ok(longDoc.name.endsWith("….md"), longDoc.name);
  assert.equal(longDoc.format, "markdown");
  assert.equal(longDoc.encoding, "UTF-8");
});

test("a failed upload is refused naming the file, and stays listed, failed with its reason, until it is removed", async () => {
  const res = await upload("broken.pdf", new TextEncoder().encode("%PDF-1.4 not a PDF at all"));
  assert.equal(res.status, 400);
  const body = (await res.json()) as { error: string; code: string };
  assert.equal(body.code, "bad_request:document_corrupt");
  // What a reload of the page asks for: the failed uploads, with their reasons.
  const failed = await list("?status=failed");
  assert.deepEqual(names(failed), ["broken.pdf"]);
  assert.equal(failed.documents[0].error, body.error);
  assert.equal(failed.counts.status.failed, 1);
  // Nothing of it is searchable.
  const hits = ((await (await app.fetch(`/api/collections/${collectionId}/search?q=PDF`)).json()) as { results: unknown[] }).results;
  assert.equal(hits.length, 0);
  // Dismissed: removed like any document.
  assert.equal((await app.fetch(`/api/collections/${collectionId}/documents/${failed.documents[0].id}`, { method: "DELETE" })).status, 204);
  assert.equal((await list("?status=failed")).total, 0);
});

test("the list is paged, sorted and filtered by the server", async () => {
  // 60 more documents through the database (upload is tested above): names, types, sizes, times apart.
  const start = Date.UTC(2026, 0, 1);
  const formats = ["pdf", "markdown", "text", "html", "docx"];
  const docName = (i: number) => `doc-${String(i).padStart(2, "0")}.${formats[i % 5] === "markdown" ? "md" : formats[i % 5] === "text" ? "txt" : formats[i % 5]}`;
  await app.db.knowledgeDocument.createMany({
    data: Array.from({ length: 60 }, (_, i) => ({
      collectionId,
      name: docName(i),
      // As the database layer writes it (lib/db/knowledge.ts).
      sortName: sortNameOf(docName(i)),
      format: formats[i % 5],
      bytes: 1000 + ((i * 37) % 60) * 10,
      sha256: `sha-${i}`,
      content: Buffer.from("x"),
      status: i % 10 === 9 ? "failed" : "ready",
      error: i % 10 === 9 ? `"doc-${i}": the file is damaged.` : null,
      createdAt: new Date(start + i * 60_000),
    })),
  });

  // The default: oldest first, 50 a page, as the collection's own listing.
  const first = await list("");
  assert.equal(first.total, 63);
  assert.equal(first.documents.length, 50);
  assert.deepEqual([first.page, first.limit, first.pages, first.sort, first.order], [1, 50, 2, "added", "asc"]);
  assert.equal(first.documents[0].name, "doc-00.pdf");
  const second = await list("?page=2");
  assert.equal(second.documents.length, 13);
  const all = [...first.documents, ...second.documents].map((d) => d.id);
  assert.equal(new Set(all).size, 63, "pages never overlap");
  assert.equal((await list("?page=9")).documents.length, 0, "past the end: an empty page");

  // Sorted by each column, both ways; ties broken by id so that pages are stable.
  const byName = await list("?sort=name&order=desc&limit=3");
  // "draft-v7.docx" sorts after every "doc-…"; the 250-character "An unusually …" and "café.txt" before them.
  assert.deepEqual(names(byName), ["draft-v7.docx", "doc-59.docx", "doc-58.html"]);
  assert.equal((await list("?sort=name&order=asc&limit=1")).documents[0].name.slice(0, 12), "An unusually");
  const bySize = await list("?sort=size&order=asc&limit=200");
  const sizes = bySize.documents.map((d) => d.bytes);
  assert.deepEqual(sizes, [...sizes].sort((a, b) => a - b));
  const bySizeDesc = await list("?sort=size&order=desc&limit=200");
  assert.deepEqual(bySizeDesc.documents.map((d) => d.bytes), [...sizes].sort((a, b) => b - a));
  const byAdded = await list("?sort=added&order=desc&limit=2");
  assert.deepEqual(names(byAdded).length, 2);
  assert.ok(byAdded.documents[0].createdAt >= byAdded.documents[1].createdAt);
  const byType = await list("?sort=type&limit=200");
  const types = byType.documents.map((d) => d.format);
  assert.deepEqual(types, [...types].sort());
  const byStatus = await list("?sort=status&order=asc&limit=200");
  assert.equal(byStatus.documents[0].status, "failed");
  assert.equal(byStatus.documents.at(-1)?.status, "ready");

  // Filters, with the whole collection's counts beside them.
  const pdfs = await list("?type=pdf&limit=200");
  assert.equal(pdfs.total, 12);
  assert.ok(pdfs.documents.every((d) => d.format === "pdf"));
  assert.equal(pdfs.counts.type.pdf, 12);
  assert.equal(pdfs.counts.type.markdown, 13);
  const failed = await list("?status=failed&sort=name");
  assert.deepEqual(names(failed), ["doc-09.docx", "doc-19.docx", "doc-29.docx", "doc-39.docx", "doc-49.docx", "doc-59.docx"]);
  assert.equal(failed.total, 6);
  assert.ok(failed.documents.every((d) => d.status === "failed" && d.error));
  const both = await list("?status=failed&type=docx");
  assert.equal(both.total, 6);
  const named = await list("?name=DOC-1&sort=name");
  assert.deepEqual(names(named), ["doc-10.pdf", "doc-11.md", "doc-12.txt", "doc-13.html", "doc-14.docx", "doc-15.pdf", "doc-16.md", "doc-17.txt", "doc-18.html", "doc-19.docx"]);
  assert.deepEqual(names(await list(`?name=${encodeURIComponent("Moss survey")}`)), ["draft-v7.docx"], "the title is searched too");

  // The old listing still answers with every document.
  const old = (await (await app.fetch(`/api/collections/${collectionId}`)).json()) as { collection: { documents: Doc[]; documentCount: number } };
  assert.equal(old.collection.documents.length, 63);
});

test("names sort without regard to case, on both databases", async () => {
  const created = await app.postJson("/api/collections", { name: "Cases" });
  const other = ((await created.json()) as { collection: { id: string } }).collection.id;
  for (const name of ["banana.md", "Zostera.md", "apple.md", "Cherry.md"]) {
    const form = new FormData();
    form.append("file", new Blob([`# ${name}\n\nMoss.`]), name);
    assert.equal((await app.fetch(`/api/collections/${other}/documents`, { method: "POST", body: form })).status, 201);
  }
  const sorted = async (order: string) => ((await (await app.fetch(`/api/collections/${other}/documents?sort=name&order=${order}`)).json()) as Page).documents.map((d) => d.name);
  assert.deepEqual(await sorted("asc"), ["apple.md", "banana.md", "Cherry.md", "Zostera.md"]);
  assert.deepEqual(await sorted("desc"), ["Zostera.md", "Cherry.md", "banana.md", "apple.md"]);
});

test("a bad parameter is a 400 naming it", async () => {
  for (const [query, field] of [
    ["?page=0", "page"],
    ["?page=abc", "page"],
    ["?page=1.5", "page"],
    ["?limit=500", "limit"],
    ["?limit=0", "limit"],
    ["?sort=colour", "sort"],
    ["?order=sideways", "order"],
    ["?type=exe", "type"],
    ["?status=done", "status"],
    [`?name=${"x".repeat(201)}`, "name"],
  ] as const) {
    const res = await app.fetch(`/api/collections/${collectionId}/documents${query}`);
    assert.equal(res.status, 400, query);
    const body = (await res.json()) as { field?: string; error: string; code: string };
    assert.equal(body.field, field, `${query}: ${JSON.stringify(body)}`);
    assert.match(body.error, new RegExp(`^${field} `), query);
    assert.equal(body.code, "bad_request:documents");
  }
});

test("another user's collection is a 404, whatever the parameters; without a session a 401", async () => {
  const as = { authorization: `Bearer ${bob.token}` };
  for (const query of ["", "?page=2&sort=name", "?status=failed"]) {
    const res = await app.fetch(`/api/collections/${collectionId}/documents${query}`, { headers: as });
    assert.equal(res.status, 404, query);
  }
  const missing = await app.fetch(`/api/collections/no-such-collection/documents`);
  assert.equal(missing.status, 404);
  const anonymous = await fetch(`${app.url}/api/collections/${collectionId}/documents`);
  assert.equal(anonymous.status, 401);
});
