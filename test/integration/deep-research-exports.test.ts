// A Deep Research conversation's write-up exported through the API: Markdown with the reply and
// the discoveries, a PDF with its title, a DOCX, and the LaTeX paper whose methods list the tasks
// and whose every \cite is in the .bib; read-only through a share link, whose downloads are limited
// per hour; another user's is 404.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { strFromU8, unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { createTestUser } from "../helpers/auth";
import { conversation, pollUntilDone, startDr } from "../helpers/deep-research";

let fakes: Fakes;
let app: TestApp;

before(async () => {
  fakes = await startFakes();
  app = await TestApp.start({ name: "dr-exports", env: { ...fakes.env, SCRAPE_TIMEOUT_MS: "2000", RATE_LIMIT_SHARE_EXPORTS_PER_HOUR: "4" } });
});
after(async () => {
  await app?.stop();
  await fakes?.stop();
});

test("a conversation's write-up exports in every format, through its owner and its share link only", async () => {
  const start = await startDr(app, { message: "Solid-state batteries for grid storage", researchMode: "steering" });
  assert.equal((await pollUntilDone(app, start.pollUrl)).at(-1)?.status, "completed");
  const c = await conversation(app, start.conversationId);
  const reply = c.messages.filter((m) => m.role === "assistant").at(-1)!.content;
  const base = `/api/deep-research/conversations/${start.conversationId}/export`;
  const get = async (path: string, format: string) => {
    const res = await app.fetch(`${path}?format=${format}`);
    assert.equal(res.status, 200, `${format}: ${await res.clone().text()}`);
    return new Uint8Array(await res.arrayBuffer());
  };

  const md = new TextDecoder().decode(await get(base, "md"));
  assert.ok(md.includes(reply.split("\n")[0].slice(0, 40)), "the write-up is the last reply");
  assert.match(md, /> Solid-state batteries for grid storage/);
  // The write-up was verified: the header states its support rate (as GET …/verification gives it).
  const checked = (await (await app.fetch(`/api/deep-research/conversations/${start.conversationId}/verification`)).json()) as { support_rate: number };
  assert.ok(md.includes(`**Support rate:** ${Math.round(checked.support_rate * 100)}%`), md.slice(0, 600));

  const pdf = await getDocumentProxy(await get(base, "pdf"));
  assert.ok((await extractText(pdf, { mergePages: true })).text.replace(/\s+/g, " ").includes("Solid-state batteries for grid storage"));
  assert.ok(strFromU8(unzipSync(await get(base, "docx"))["word/document.xml"]).startsWith("<?xml"));

  const paper = unzipSync(await get(base, "tex"));
  const tex = strFromU8(paper["paper.tex"]);
  const bib = strFromU8(paper["references.bib"]);
  assert.ok(tex.includes("\\section{Methods}") && tex.includes("Deep Research in steering mode"));
  assert.ok(tex.includes("The tasks, level by level."), "the methods list the tasks");
  for (const key of new Set([...tex.matchAll(/\\cite\{([^}]+)\}/g)].flatMap((m) => m[1].split(",")))) assert.ok(bib.includes(`@misc{${key},`), key);
  // The write-up's sources are the pages its snippets came from; they state their dates, and the references keep them.
  assert.match(bib, /year = \{?\d{4}\}?/, "a reference carries the year its page states");
  assert.ok(tex.includes("fully supported by the stored text of their cited sources"), "the paper states the write-up's support rate");

  const shared = await app.postJson(`/api/deep-research/conversations/${start.conversationId}/shares`, {});
  assert.equal(shared.status, 201);
  const { token } = (await shared.json()) as { token: string };
  const viaLink = await fetch(`${app.url}/api/share/${token}/export?format=md`);
  assert.equal(viaLink.status, 200);
  assert.equal(await viaLink.text(), md, "the share link exports the same document");
  // Signed out, a link's downloads are limited per hour (4 here): then 429 with a Retry-After.
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await fetch(`${app.url}/api/share/${token}/export?format=md`)).status);
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  const limited = await fetch(`${app.url}/api/share/${token}/export?format=md`);
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get("retry-after")) > 0);
  assert.equal(((await limited.json()) as { code: string }).code, "rate_limit:share_export");

  const bob = await createTestUser(app.db, { email: "bob@test.local" });
  const res = await fetch(`${app.url}${base}?format=md`, { headers: { authorization: `Bearer ${bob.token}` } });
  assert.equal(res.status, 404);
  assert.equal(((await res.json()) as { code: string }).code, "not_found:conversation");
});
