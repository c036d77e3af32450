// A Deep Research conversation's write-up exported through the API: Markdown with the reply and
// the discoveries, a PDF with its title, a DOCX, and the LaTeX paper whose methods list the tasks
// and whose every \cite is in the .bib; read-only through a share link, whose downloads are limited
// per hour; another user's is 404. A conversation with two analyses exports them in every format:
// each query's SQL, its first rows and how many in all, its chart as a figure, and the discoveries'
// evidence pointing at the queries.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { strFromU8, unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";
import { startFakes, type Fakes } from "../fakes";
import { TestApp } from "../helpers/app-server";
import { createTestUser } from "../helpers/auth";
import { conversation, pollUntilDone, startDr } from "../helpers/deep-research";
import { salesCsv, salesRows } from "../fixtures/datasets";

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

test("a conversation with two analyses exports their SQL, first rows, row counts and charts in every format; discoveries point at the queries", async () => {
  const form = new FormData();
  form.set("message", "Regional sales exported #analysis #analyses-2 #tasks-2");
  form.set("researchMode", "steering");
  // A European spreadsheet's CSV: semicolons, said as such in the export.
  form.append("files", new Blob([salesCsv(salesRows(), ";")]), "sales.csv");
  const res = await app.fetch("/api/deep-research/start", { method: "POST", body: form });
  const start = (await res.json()) as { conversationId: string; pollUrl: string };
  assert.equal(res.status, 200, JSON.stringify(start));
  assert.equal((await pollUntilDone(app, start.pollUrl)).at(-1)?.status, "completed");
  const c = await conversation(app, start.conversationId);
  const analyses = (c.plan as unknown as { id: string; type: string; status: string }[]).filter((t) => t.type === "ANALYSIS");
  assert.deepEqual(analyses.map((t) => t.status), ["completed", "completed"]);
  const base = `/api/deep-research/conversations/${start.conversationId}/export`;
  const get = async (format: string) => {
    const r = await app.fetch(`${base}?format=${format}`);
    assert.equal(r.status, 200, `${format}: ${await r.clone().text()}`);
    return new Uint8Array(await r.arrayBuffer());
  };
  const rows = salesRows();
  const regions = [...new Set(rows.map((r) => r.region))].sort();
  const total = (region: string) => rows.filter((r) => r.region === region).reduce((sum, r) => sum + r.units, 0);
  const products = [...new Set(rows.map((r) => r.product))].sort();
  const count = (product: string) => rows.filter((r) => r.product === product).length;
  const sqlRegions = 'SELECT "region", sum("units") AS total, count(*) AS n FROM "sales" GROUP BY 1 ORDER BY 1';
  const sqlProducts = 'SELECT "product", count(*) AS records, max("units") AS largest FROM "sales" GROUP BY 1 ORDER BY 1';

  const md = new TextDecoder().decode(await get("md"));
  assert.ok(md.includes(`\`\`\`sql\n${sqlRegions}\n\`\`\``) && md.includes(`\`\`\`sql\n${sqlProducts}\n\`\`\``), "each query's SQL");
  assert.ok(md.includes(`| ${regions[0]} | ${total(regions[0])} | ${rows.filter((r) => r.region === regions[0]).length} |`), "the first rows");
  assert.ok(md.includes(`| ${products[0]} | ${count(products[0])} |`));
  assert.ok(md.includes(`**Query q1** (${regions.length} rows)`) && md.includes(`_All ${regions.length} rows._`), "how many rows in all");
  assert.equal((md.match(/!\[(Bar|Line) chart [^\n]*\]\(data:image\/svg\+xml;base64,/g) ?? []).length, 2, "both charts as SVG figures");
  assert.ok(md.includes("_Figure 1.") && md.includes("_Figure 2."));
  assert.ok(md.includes("read as semicolon-separated"), "how the dataset was read");
  assert.match(md, /\\\[\[q1\]\(#query-ana-1-\d-q1\)\\\]/, "the write-up's [q1] links to its query");
  assert.match(md, /> Evidence: \[query q1 of analysis (ana-1-\d)\]\(#query-\1-q1\)/, "a discovery points at its query");
  for (const anchor of md.matchAll(/\(#(query-[\w-]+)\)/g)) assert.ok(md.includes(`<a id="${anchor[1]}"></a>`), `${anchor[1]} is in the document`);

  const pdf = (await extractText(await getDocumentProxy(await get("pdf")), { mergePages: true })).text.replace(/\s+/g, " ");
  for (const sql of [sqlRegions, sqlProducts]) assert.ok(pdf.includes(sql), `the PDF has ${sql}`);
  assert.ok(pdf.includes(`${regions[0]} ${total(regions[0])}`) && pdf.includes(`${products[0]} ${count(products[0])}`), "and the first rows");
  assert.ok(pdf.includes(`All ${regions.length} rows`) && pdf.includes("Figure 1.") && pdf.includes("Figure 2."), "the row counts and both figures");
  assert.match(pdf, /Evidence: query q1 of analysis ana-1-\d/);

  const docx = unzipSync(await get("docx"));
  const xml = strFromU8(docx["word/document.xml"]);
  assert.ok(xml.includes("GROUP BY 1 ORDER BY 1") && xml.includes("count(*) AS records"), "the DOCX has the SQL");
  assert.ok(xml.includes(`<w:t xml:space="preserve">${regions[0]}</w:t>`) || xml.includes(`<w:t>${regions[0]}</w:t>`), "and the rows");
  assert.equal((xml.match(/<asvg:svgBlip /g) ?? []).length, 2, "both charts as SVG drawings");
  assert.ok(Object.keys(docx).filter((f) => f.startsWith("word/media/") && f.endsWith(".png")).length >= 1, "with their PNG fallback");
  assert.ok(/w:anchor="a_query_ana_1_\d_q1"/.test(xml) && /w:name="a_query_ana_1_\d_q1"/.test(xml), "the evidence links to the query's bookmark");

  const tex = strFromU8(unzipSync(await get("tex"))["paper.tex"]);
  // Verbatim lines are wrapped at 88 characters: the SQL is whole once they are joined again.
  const joined = tex.replace(/\n/g, "");
  assert.ok(joined.includes(`\\begin{verbatim}${sqlRegions}\\end{verbatim}`) && joined.includes(`\\begin{verbatim}${sqlProducts}\\end{verbatim}`), "the paper has each query's SQL");
  assert.ok(tex.includes(`${regions[0]} & ${total(regions[0])}`), "the paper has the first rows");
  assert.equal((tex.match(/\\begin\{picture\}/g) ?? []).length, 2, "and both charts as figures");
  assert.match(tex, /\\hyperlink\{query-ana-1-\d-q1\}\{query q1 of analysis ana-1-\d\}/);
});
