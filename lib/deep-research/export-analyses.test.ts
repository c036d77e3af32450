// A Deep Research export carries its analyses (issues 54, 53): each analysis task's output with its
// [qN] linked to the query, its queries' SQL and first result rows (and how many rows in all), and its
// chart as a figure — vectors in the PDF and the paper, an SVG drawing in the DOCX, an SVG image in
// Markdown; a discovery whose evidence is a query points at it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { strFromU8, unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";
import { docxExport } from "../exports/docx";
import { markdownExport } from "../exports/markdown";
import { pdfExport } from "../exports/pdf";
import { buildPaper } from "../exports/latex/paper";
import { conversationDocument, conversationPaper } from "./export-view";
import { linkQueryCitations } from "../exports/query-links";
import { analysesMarkdown, ROWS_SHOWN, type AnalysisTask } from "./export-analyses";
import type { SharedConversation } from "./shared-view";

const rows = Array.from({ length: 14 }, (_, i) => [`region ${i + 1}`, (i + 1) * 10]);
const task: AnalysisTask = {
  id: "ana-1-1",
  type: "ANALYSIS",
  objective: "Capacity by region",
  status: "completed",
  output: "Region 14 has the most capacity (140 MW) [q1].",
  artifacts: {
    kind: "analysis",
    datasets: [{ filename: "capacity.csv", table: "capacity" }],
    queries: [
      { id: "q1", sql: "SELECT region, mw FROM capacity ORDER BY mw", ok: true, error: null, columns: ["region", "mw"], rows, rowCount: 14, truncated: false, durationMs: 3 },
      { id: "q2", sql: "SELECT nope FROM capacity", ok: false, error: "Binder Error: column nope not found", columns: [], rows: [], rowCount: 0, truncated: false, durationMs: 1 },
    ],
    chart: { queryId: "q1", spec: { $schema: "https://vega.github.io/schema/vega-lite/v5.json", title: "Capacity | by region", data: { values: rows.map(([region, mw]) => ({ region, mw })) }, mark: "bar", encoding: { x: { field: "region", type: "nominal" }, y: { field: "mw", type: "quantitative" } } } },
    repairs: [],
    removedSentences: [],
  },
};

const conversation: SharedConversation = {
  title: "Grid capacity",
  objective: "Grid capacity by region",
  evolvingObjective: null,
  researchMode: "steering",
  status: "completed",
  currentLevel: 1,
  keyInsights: [],
  hypothesis: null,
  createdAt: "2026-11-25T10:00:00.000Z",
  messages: [{ role: "assistant", content: "Capacity is uneven across regions.", iteration: 1, level: 1, createdAt: "2026-11-25T10:05:00.000Z" }],
  plan: [{ id: "ana-1-1", level: 1, type: "ANALYSIS", objective: "Capacity by region", status: "completed", output: task.output, startedAt: null, endedAt: null }],
  discoveries: [{
    id: "disc-1", claim: "Region 14 leads on capacity", evidence: "The grouped capacities.", novelty: "new", confidence: "high", status: "active", level: 1,
    supportingTaskIds: ["ana-1-1"], evidenceItems: [{ taskId: "ana-1-1", quote: null, url: null }], linkedEvidence: true, history: [],
  }],
  writeUpVerification: null,
};
const refs = new Map([["disc-1", [{ taskId: "ana-1-1", queryId: "q1" }]]]);

test("[qN] in an analysis's output links to that query's place; ids that ran no query stay text", () => {
  const ran = new Set(["q1", "q2"]);
  const href = (q: string) => `#query-ana-1-1-${q}`;
  assert.equal(linkQueryCitations("A is 3 [q1]. B is 4 [Q1; q2]. C [q7]. D [q1](#x).", ran, href),
    "A is 3 \\[[q1](#query-ana-1-1-q1)\\]. B is 4 \\[[q1](#query-ana-1-1-q1), [q2](#query-ana-1-1-q2)\\]. C [q7]. D [q1](#x).");
  assert.equal(linkQueryCitations("`x[q1]` and\n```\nSELECT [q1]\n```\n[q2]", ran, href), "`x[q1]` and\n```\nSELECT [q1]\n```\n\\[[q2](#query-ana-1-1-q2)\\]", "code keeps its text");
});

test("the analyses as Markdown: output, SQL, the first rows, a failed query's error, the chart's spec", () => {
  const md = analysesMarkdown([task, { ...task, type: "LITERATURE" }]);
  assert.ok(md.startsWith("## Analyses\n\n### Capacity by region"));
  assert.ok(md.includes("Datasets: capacity.csv (table capacity)") && md.includes("Region 14 has the most capacity (140 MW) \\[[q1](#query-ana-1-1-q1)\\]."));
  assert.ok(md.includes('<a id="query-ana-1-1-q1"></a>**Query q1** (14 rows)'), "each query has its anchor");
  assert.ok(!md.includes("$schema"), "no URL in the spec for the citation numbering to take for a source");
  assert.ok(analysesMarkdown([task], { readAs: new Map([["capacity.csv", "semicolon-separated"]]) }).includes("capacity.csv (table capacity, read as semicolon-separated)"));
  assert.ok(md.includes("```sql\nSELECT region, mw FROM capacity ORDER BY mw\n```"));
  assert.ok(md.includes("| region 1 | 10 |") && md.includes(`| region ${ROWS_SHOWN} | ${ROWS_SHOWN * 10} |`) && !md.includes(`| region ${ROWS_SHOWN + 1} |`), "the first rows only");
  assert.ok(md.includes(`_The first ${ROWS_SHOWN} of 14 rows._`));
  assert.ok(md.includes("**Query q2** (failed)") && md.includes("Error: Binder Error: column nope not found"));
  assert.ok(md.includes("```vega-lite\n") && md.includes('"title": "Capacity | by region"'));
  assert.equal(analysesMarkdown([{ ...task, type: "LITERATURE" }]), "", "no analyses, no section");
  assert.equal(analysesMarkdown([{ ...task, status: "skipped", artifacts: [] }]), "", "a skipped analysis ran no query");
  // A share link's export: the objective and output, no dataset, SQL or rows.
  const shared = analysesMarkdown([task], { data: false });
  assert.ok(shared.includes("### Capacity by region") && shared.includes("Region 14 has the most capacity"));
  assert.ok(!shared.includes("SELECT") && !shared.includes("region 1 |") && !shared.includes("capacity.csv") && !shared.includes("vega-lite"));
  assert.ok(shared.includes("2 queries ran; their SQL and result rows come from the owner's datasets and are not part of a shared export"));
});

test("the owner's export of a conversation carries its analyses in every format", async () => {
  const { doc, shared } = conversationDocument(conversation, null, analysesMarkdown([task]), refs);
  assert.deepEqual(doc.sources, [], "a URL in an analysis is not a cited source");
  const md = markdownExport(doc);
  assert.ok(md.includes("```sql\nSELECT region, mw FROM capacity ORDER BY mw\n```") && md.includes("| region 1 | 10 |") && md.includes("_The first 10 of 14 rows._"));
  const image = /!\[(Bar chart [^\n]*)\]\(data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)\)\n\n_Figure 1\. Capacity \| by region_/.exec(md);
  assert.ok(image, "the chart is an SVG image with its caption");
  assert.match(image[1], /mw \(y, 0 to 150\) by region \(x\), 14 values/, "its alternative text says what it shows");
  const svg = Buffer.from(image[2], "base64").toString("utf8");
  assert.ok(svg.includes("<title>Capacity | by region</title>") && svg.includes(">region</text>") && svg.includes(">mw</text>"), "titled, both axes named");
  assert.ok(!md.includes("```vega-lite"), "no spec left for a viewer to show as code");
  assert.ok(md.includes("> Evidence: [query q1 of analysis ana-1-1](#query-ana-1-1-q1)"), "the discovery points at its query");

  const text = (await extractText(await getDocumentProxy(new Uint8Array(await pdfExport(doc))), { mergePages: true })).text.replace(/\s+/g, " ");
  assert.ok(text.includes("SELECT region, mw FROM capacity ORDER BY mw") && text.includes("region 1 10"), "the PDF has the query and its rows");
  assert.ok(text.includes("The first 10 of 14 rows"), "and says how many rows in all");
  assert.ok(text.includes("Figure 1. Capacity | by region"), "and the chart, captioned as a figure");
  for (const tick of ["0", "20", "40", "140"]) assert.ok(new RegExp(`\\b${tick}\\b`).test(text), `tick ${tick}`);
  assert.ok(text.includes("query q1 of analysis ana-1-1"), "the discovery's evidence names the query");
  const pdfBytes = Buffer.from(await pdfExport(doc)).toString("latin1");
  assert.ok(pdfBytes.includes("anchor-query-ana-1-1-q1"), "a named destination the evidence link jumps to");

  const xml = strFromU8(unzipSync(new Uint8Array(await docxExport(doc)))["word/document.xml"]);
  assert.ok(xml.includes("SELECT region, mw FROM capacity") && xml.includes("region 10") && xml.includes("The first 10 of 14 rows"));
  assert.ok(xml.includes("Figure 1. Capacity | by region") && xml.includes("svgBlip") && /descr="Bar chart/.test(xml), "the chart is a drawing (SVG, with its description)");
  assert.ok(xml.includes('w:name="a_query_ana_1_1_q1"') && xml.includes('w:anchor="a_query_ana_1_1_q1"'), "the evidence links to the query's bookmark");
  const media = Object.keys(unzipSync(new Uint8Array(await docxExport(doc)))).filter((f) => f.startsWith("word/media/"));
  assert.ok(media.some((f) => f.endsWith(".svg")) && media.some((f) => f.endsWith(".png")), `the SVG and its PNG fallback: ${media}`);

  const { tex } = buildPaper(conversationPaper(doc, shared));
  assert.ok(tex.includes("\\begin{verbatim}\nSELECT region, mw FROM capacity ORDER BY mw\n\\end{verbatim}"));
  assert.ok(tex.includes("region 1 & 10") && tex.includes("The first 10 of 14 rows"), "the paper has the first rows and the count");
  assert.ok(tex.includes("\\begin{picture}") && tex.includes("\\caption{Capacity \\textbar{} by region}"), "the chart is a figure");
  assert.ok(tex.includes("\\hypertarget{query-ana-1-1-q1}{}") && tex.includes("\\hyperlink{query-ana-1-1-q1}{query q1 of analysis ana-1-1}"), "the evidence links to the query");
});
