// The write-up's snippet citations (by handle, S1 …) as numbered links to the snippets' pages, and the paper's
// references built from the pages' author and date.
import assert from "node:assert/strict";
import { test } from "node:test";
import { conversationDocument, conversationPaper } from "./export-view";
import { withoutQueryQuotes, type SharedConversation } from "./shared-view";
import { citeSnippets } from "./write-up";
import { renderItems } from "./agents/snippets";
import { analysisSources } from "./analysis-evidence";
import { citedSourceCount, splitNumberedSources } from "../report-citations";
import { claimsOf, reportBody } from "../verification/claims";
import { linkTarget } from "../knowledge/source-url";
import { isWebLink } from "../exports/blocks";
import { safeUrl } from "../exports/latex/escape";

const A = "https://a.example/prices";
const Q1 = "https://analysis.quarry.invalid/ana-1-1/q1";
const B = "https://b.example/grid";
const shown = renderItems([
  { id: "cmitem-a", taskKey: "lit-1-1", content: "Prices fell.", url: A },
  { id: "cmitem-b", taskKey: "lit-1-2", content: "Capacity doubled.", url: B },
  { id: "cmitem-a2", taskKey: "lit-1-1", content: "More on prices.", url: A },
], 10_000).choices;
const pages = new Map([
  [A, { title: "Battery prices", text: "Prices fell." }],
  [B, { title: null, text: "Capacity doubled." }],
]);

test("snippet handles become numbered links to their pages, one per page; invented ids go; prose in brackets stays", () => {
  const out = citeSnippets("Prices fell [S1]. Capacity doubled [S2, S3]. Made up [nope:9]. Quoted [sic] text [s3]. In [Figure 2] too [Source 1][S7].", shown, pages);
  const [body, list] = out.split("## Sources");
  assert.equal(body.trim(), `Prices fell [1](${A}). Capacity doubled [2](${B})[1](${A}). Made up. Quoted [sic] text [1](${A}). In [Figure 2] too [1](${A}).`);
  assert.match(list, /1\. Battery prices — <https:\/\/a\.example\/prices>/);
  assert.match(list, /2\. .* — <https:\/\/b\.example\/grid>/);
});

test("links the model wrote itself: to a snippet's page kept (repaired when named in other words), to any other page removed", () => {
  const out = citeSnippets(`Prices fell [source](https://evil.example/x). Rose [2](https://A.example/prices/). Also https://evil.example/y here.`, shown, pages);
  const [body, list] = out.split("## Sources");
  assert.equal(body.trim().replace(/\s+/g, " "), `Prices fell. Rose [1](${A}). Also here.`);
  assert.ok(!list.includes("evil.example"));
});

test("a write-up citing by number into its own reference list links its pages", () => {
  const out = citeSnippets(`Prices fell [1]. Capacity doubled [2].\n\n## References\n\n1. ${A}\n2. ${B}`, shown, pages);
  assert.equal(out.split("## Sources")[0].trim(), `Prices fell [1](${A}). Capacity doubled [2](${B}).`);
});

test("a citation by a snippet's stored id, as a task summary shows it, still links its page", () => {
  const out = citeSnippets("Capacity doubled [cmitem-b].", shown, pages);
  assert.equal(out.split("## Sources")[0].trim(), `Capacity doubled [1](${B}).`);
});

test("a write-up cites an analysis query as it cites a page: a numbered link to the query's place, its sentence a claim judged against the result", () => {
  const tasks = [{ taskKey: "ana-1-1", type: "ANALYSIS", status: "completed", artifacts: JSON.stringify({ kind: "analysis", datasets: [], chart: null, repairs: [], removedSentences: [], queries: [
    { id: "q1", sql: "SELECT region, SUM(amount) AS total FROM sales GROUP BY region", ok: true, error: null, columns: ["region", "total"], rows: [["north", 412], ["south", 97]], rowCount: 2, truncated: false, durationMs: 3 },
    { id: "q2", sql: "SELECT nope", ok: false, error: "no such column", columns: [], rows: [], rowCount: 0, truncated: false, durationMs: 1 },
  ] }) }];
  const analyses = analysisSources(tasks);
  assert.deepEqual(analyses.items.map((i) => i.url), [Q1], "only a query that ran");
  assert.match(analyses.pages.get(Q1)!.text, /^Row 1: region = north; total = 412\.$/m, "each row says what its values measure");
  const both = renderItems([{ id: "cmitem-a", taskKey: "lit-1-1", content: "Prices fell.", url: A }, ...analyses.items], 10_000).choices;
  const out = citeSnippets("Battery prices fell sharply [S1]. North sold the most, 412 in all [S2].", both, new Map([...pages, ...analyses.pages]));
  const { body, sources } = splitNumberedSources(out);
  assert.equal(body.trim(), `Battery prices fell sharply [1](${A}). North sold the most, 412 in all [2](${Q1}).`);
  assert.deepEqual(sources.map((s) => [s.n, s.title, s.url]), [[1, "Battery prices", A], [2, "Query q1 of analysis ana-1-1", Q1]]);
  assert.equal(linkTarget(Q1), "#query-ana-1-1-q1", "the conversation page links it to the query's cell");
  const claims = claimsOf(reportBody(out).body);
  assert.deepEqual(claims.map((c) => c.urls), [[A], [Q1]], "the query's sentence is a cited claim, checked against the query's result");
  assert.equal(citedSourceCount(out), 2);
});

const conversation: SharedConversation = {
  title: "Grid storage",
  objective: "Grid storage",
  evolvingObjective: null,
  researchMode: "steering",
  status: "completed",
  currentLevel: 1,
  keyInsights: [],
  hypothesis: null,
  createdAt: "2026-11-25T10:00:00.000Z",
  messages: [
    { role: "user", content: "Grid storage", iteration: 0, level: 0, createdAt: "2026-11-25T10:00:00.000Z" },
    { role: "assistant", content: `Prices fell [1](${A}).\n\n## Sources\n\n1. Battery prices — <${A}>\n`, iteration: 1, level: 1, createdAt: "2026-11-25T10:05:00.000Z" },
  ],
  plan: [],
  discoveries: [],
  writeUpVerification: {
    status: "done",
    support_rate: 0.5,
    counts: { claims: 2, supported: 1, partial: 0, unsupported: 0, uncited: 1, unverified: 0 },
    claims: [],
    as_written: { support_rate: 1 / 3, counts: { claims: 3, supported: 1, partial: 0, unsupported: 1, uncited: 1, unverified: 0 }, claims: [] },
    repair: { removed: 1, rewritten: 0 },
    completed_at: "2026-11-25T10:06:00.000Z",
  },
};

test("the write-up's export states its support rate; the paper's references carry the pages' author and date", () => {
  const { doc, shared } = conversationDocument(conversation);
  assert.equal(doc.supportRate, 0.5);
  assert.equal(doc.sources.length, 1, "the reply's own source list is not a second copy");
  const paper = conversationPaper(doc, shared, new Map([[A, { fetchedAt: new Date("2026-11-24T08:00:00Z"), author: "Ada Lovelace", published: "2025-03-14" }]]));
  assert.deepEqual(paper.sources[0], { n: 1, url: A, title: "Battery prices", accessed: "2026-11-24", author: "Ada Lovelace", published: "2025-03-14" });
  assert.ok(paper.verification[0].includes("1 (50%) are fully supported"));
  assert.ok(!paper.limitations.some((l) => l.includes("were not checked")));
  const unverified = conversationPaper(conversationDocument({ ...conversation, writeUpVerification: null }).doc, { ...conversation, writeUpVerification: null });
  assert.equal(unverified.sources[0].author, null);
  assert.ok(unverified.limitations.some((l) => l.includes("were not checked")));
});

test("a discovery kept without linked evidence says so in the export and the paper; analysis tasks are reported as they ended", () => {
  const discovery = { id: "disc-1", claim: "Prices fell", evidence: "A survey", novelty: "N", confidence: "medium", status: "active", level: 1, supportingTaskIds: [], history: [] };
  const c: SharedConversation = {
    ...conversation,
    writeUpVerification: null,
    plan: [
      { id: "ana-1-1", level: 1, type: "ANALYSIS", objective: "Totals", status: "completed", output: "Totals [q1]", startedAt: null, endedAt: null },
      { id: "ana-1-2", level: 1, type: "ANALYSIS", objective: "More", status: "skipped", output: "No dataset was uploaded, so there is no data to analyse.", startedAt: null, endedAt: null },
    ],
    discoveries: [
      { ...discovery, evidenceItems: [], linkedEvidence: false },
      { ...discovery, id: "disc-2", claim: "Capacity doubled", evidenceItems: [{ taskId: "lit-1-2", quote: "Capacity doubled.", url: B }], linkedEvidence: true },
    ],
  };
  const { doc, shared } = conversationDocument(c);
  assert.equal(doc.body.split("No linked evidence").length - 1, 1, doc.body);
  assert.match(doc.body, /### Prices fell\n\nConfidence: medium[^\n]*\n\nA survey\n\n_No linked evidence/);
  const paper = conversationPaper(doc, shared);
  assert.ok(paper.methods.paragraphs[1].includes("Analysis tasks (2) queried the uploaded datasets") && paper.methods.paragraphs[1].includes("(1 completed, 1 skipped)"), paper.methods.paragraphs[1]);
  assert.ok(paper.limitations.some((l) => l === 'The analysis task "More" did not run: No dataset was uploaded, so there is no data to analyse.'));
  assert.ok(paper.limitations.some((l) => l.startsWith("1 discovery could not be linked to stored evidence")));
});

test("a write-up citing a query: its exports name the query by its title, with no link to a host that is no address; a share link shows no row as a quote", () => {
  const reply = `Battery prices fell sharply [1](${A}). North sold the most, 412 in all [2](${Q1}).\n\n## Sources\n\n1. Battery prices — <${A}>\n2. Query q1 of analysis ana-1-1 — <${Q1}>\n`;
  const row = { sentence: "North sold the most, 412 in all.", verdict: "supported" as const, cited_urls: [Q1], quote: "Row 1: region = north; total = 412.", quote_url: Q1, note: null };
  const web = { sentence: "Battery prices fell sharply.", verdict: "supported" as const, cited_urls: [A], quote: "Prices fell.", quote_url: A, note: null };
  const verification = { ...conversation.writeUpVerification!, claims: [web, row], as_written: { ...conversation.writeUpVerification!.as_written, claims: [web, row] } };
  const c: SharedConversation = { ...conversation, messages: [conversation.messages[0], { ...conversation.messages[1], content: reply }], writeUpVerification: verification };
  const { doc } = conversationDocument(c, verification);
  assert.deepEqual(doc.sources.map((s) => [s.n, s.title, s.url]), [[1, "Battery prices", A], [2, "Query q1 of analysis ana-1-1", Q1]]);
  assert.equal(isWebLink(Q1), false, "a document does not link it");
  assert.equal(safeUrl(Q1), null, "nor does the paper's bibliography");
  const view = withoutQueryQuotes(verification);
  assert.deepEqual([view.claims.map((x) => x.quote), view.as_written.claims.map((x) => x.quote)], [["Prices fell.", null], ["Prices fell.", null]], "a result row is no quote a share link shows");
});
