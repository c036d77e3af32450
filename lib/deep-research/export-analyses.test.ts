// A Deep Research export carries its analyses (issue 54): each analysis task's output, its queries'
// SQL and first result rows, and its chart — drawn in the PDF, a table of values in the DOCX and
// the paper, the Vega-Lite spec in Markdown.
import assert from "node:assert/strict";
import { test } from "node:test";
import { strFromU8, unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";
import { docxExport } from "../exports/docx";
import { markdownExport } from "../exports/markdown";
import { pdfExport } from "../exports/pdf";
import { buildPaper } from "../exports/latex/paper";
import { conversationDocument, conversationPaper } from "./export-view";
import { analysesMarkdown, ROWS_SHOWN, type AnalysisTask } from "./export-analyses";
import type { SharedConversation } from "./shared-view";

const rows = Array.from({ length: 14 }, (_, i) => [`region ${i + 1}`, (i + 1) * 10]);
const task: AnalysisTask = {
  id: "ana-1-1",
  type: "ANALYSIS",
  objective: "Capacity by region",
  status: "completed",
  output: "Region 14 has the most capacity (140 MW).",
  artifacts: {
    kind: "analysis",
    datasets: [{ filename: "capacity.csv", table: "capacity" }],
    queries: [
      { id: "q1", sql: "SELECT region, mw FROM capacity ORDER BY mw", ok: true, error: null, columns: ["region", "mw"], rows, rowCount: 14, truncated: false, durationMs: 3 },
      { id: "q2", sql: "SELECT nope FROM capacity", ok: false, error: "Binder Error: column nope not found", columns: [], rows: [], rowCount: 0, truncated: false, durationMs: 1 },
    ],
    chart: { queryId: "q1", spec: { title: "Capacity | by region", data: { values: rows.map(([region, mw]) => ({ region, mw })) }, mark: "bar", encoding: { x: { field: "region", type: "nominal" }, y: { field: "mw", type: "quantitative" } } } },
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
  discoveries: [],
  writeUpVerification: null,
};

test("the analyses as Markdown: output, SQL, the first rows, a failed query's error, the chart's spec", () => {
  const md = analysesMarkdown([task, { ...task, type: "LITERATURE" }]);
  assert.ok(md.startsWith("## Analyses\n\n### Capacity by region"));
  assert.ok(md.includes("Datasets: capacity.csv (table capacity)") && md.includes("Region 14 has the most capacity (140 MW)."));
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
  const { doc, shared } = conversationDocument(conversation, null, analysesMarkdown([task]));
  assert.ok(markdownExport(doc).includes("SELECT region, mw FROM capacity"));

  const text = (await extractText(await getDocumentProxy(new Uint8Array(await pdfExport(doc))), { mergePages: true })).text.replace(/\s+/g, " ");
  assert.ok(text.includes("SELECT region, mw FROM capacity ORDER BY mw") && text.includes("region 1 10"), "the PDF has the query and its rows");
  assert.ok(text.includes("Chart: Capacity | by region") && text.includes("mw by region"), "and the chart, drawn with its caption and axis");

  const xml = strFromU8(unzipSync(new Uint8Array(await docxExport(doc)))["word/document.xml"]);
  assert.ok(xml.includes("SELECT region, mw FROM capacity") && xml.includes("Chart (bar): Capacity | by region") && xml.includes("region 14"));

  const { tex } = buildPaper(conversationPaper(doc, shared));
  assert.ok(tex.includes("\\begin{verbatim}\nSELECT region, mw FROM capacity ORDER BY mw\n\\end{verbatim}"));
  assert.ok(tex.includes("Chart (bar): Capacity \\textbar{} by region") && tex.includes("region 14 & 140"), "the paper lists the chart's values");
});
