// KNOWLEDGE_DOCS_PATH mirrored as the shared collection: indexed, re-indexed when a file changes (only
// then), emptied of removed files; a file that cannot be read is recorded with its error, alone.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { useTestDatabase } from "../db/test-support";

await useTestDatabase();
const { db } = await import("../db/client");
const { syncSharedFolder } = await import("./shared-folder");
const { searchKnowledge } = await import("./search");
const { getCollection } = await import("./collections");

const user = (await db.user.create({ data: { email: "reader@example.com", passwordHash: "x" } })).id;
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-kb-"));
const write = (rel: string, text: string, mtime: Date) => {
  fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
  fs.writeFileSync(path.join(folder, rel), text);
  fs.utimesSync(path.join(folder, rel), mtime, mtime);
};

test("the folder is indexed, a changed file re-indexed, a removed one dropped", async () => {
  write("a.md", "# Alpha\n\nPangolins eat ants.", new Date(1_700_000_000_000));
  write("sub/b.txt", "Narwhals have tusks.", new Date(1_700_000_000_000));
  write("broken.pdf", "%PDF-1.4 nothing", new Date(1_700_000_000_000));
  write("ignored.xlsx", "x", new Date(1_700_000_000_000));
  fs.symlinkSync("/etc/hostname", path.join(folder, "outside.txt"));

  const first = await syncSharedFolder(folder);
  assert.deepEqual([first.added, first.updated, first.removed], [3, 0, 0]);
  assert.equal(first.failed.length, 1);
  assert.match(first.failed[0], /^broken\.pdf: "broken\.pdf"/);
  const search = (q: string) => searchKnowledge({ userId: user, collectionIds: [first.collectionId], query: q });
  assert.deepEqual((await search("pangolins")).map((h) => [h.documentName, h.section]), [["a.md", "Alpha"]]);
  assert.equal((await search("narwhals")).length, 1);
  const docs = (await getCollection(user, first.collectionId)).documents;
  assert.deepEqual(docs.map((d) => [d.name, d.status]).sort(), [["a.md", "ready"], ["b.txt", "ready"], ["broken.pdf", "failed"]]);

  const again = await syncSharedFolder(folder);
  assert.deepEqual([again.added, again.updated, again.removed], [0, 0, 0], "nothing changed, nothing re-read");

  const aId = docs.find((d) => d.name === "a.md")!.id;
  write("a.md", "# Alpha\n\nPangolins now eat termites.", new Date(1_700_000_100_000));
  fs.rmSync(path.join(folder, "sub/b.txt"));
  const changed = await syncSharedFolder(folder);
  assert.deepEqual([changed.added, changed.updated, changed.removed], [0, 1, 1]);
  assert.deepEqual((await search("termites")).map((h) => h.documentId), [aId], "same document, new text");
  assert.deepEqual(await search("ants"), []);
  assert.deepEqual(await search("narwhals"), []);
});
