import { test } from "node:test";
import assert from "node:assert/strict";
import { countsLine, reportDownload, reportFileName, slugify } from "./report-download";
import type { LiveResearchView as ResearchView } from "@/lib/types";

const research = {
  research_id: "r1", initial_prompt: "Heat pumps in cold climates: are they worth it?\nFocus on Europe.", depth: 3, breadth: 4,
  created_at: "2026-11-20T10:00:00.000Z", completed_at: "2026-11-21T09:30:00.000Z",
} as ResearchView;

test("the file name is readable: the prompt's words and the date", () => {
  assert.equal(reportFileName(research), "quarry-heat-pumps-in-cold-climates-are-they-worth-it-focus-on-2026-11-21.md");
  assert.equal(slugify("Élan vital — ça va?"), "elan-vital-ca-va");
  assert.equal(slugify("???"), "report");
});

test("the download has a header with title, question, date, depth × breadth and counts, then the report once", () => {
  const md = "# Heat pumps report\n\nText [1](https://a.example/x).\n\n## Sources\n\n1. A — <https://a.example/x>\n";
  const counts = { queries: 20, pageAnalyses: 140, sourcesRead: 11, sourcesCited: 1 };
  const { fileName, text } = reportDownload(research, md, counts);
  assert.ok(fileName.endsWith("2026-11-21.md"));
  assert.ok(text.startsWith("# Heat pumps report\n"));
  assert.equal(text.match(/^# /gm)?.length, 1, "one title");
  assert.match(text, /> Heat pumps in cold climates: are they worth it\?\n> Focus on Europe\./);
  assert.match(text, /\*\*Date:\*\* 2026-11-21/);
  assert.match(text, /\*\*Depth × breadth:\*\* 3 × 4/);
  assert.match(text, /20 queries · 140 page analyses · 11 sources read · 1 cited/);
  assert.ok(text.includes("Text [1](https://a.example/x).") && text.includes("1. A — <https://a.example/x>"));
  assert.equal(countsLine({ queries: 1, pageAnalyses: 1, sourcesRead: 1, sourcesCited: 0 }), "1 query · 1 page analysis · 1 source read · 0 cited");
});
