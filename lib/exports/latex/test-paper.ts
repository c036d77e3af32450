// A paper's input for the exports' tests: the test document with a title full of LaTeX's special
// characters, a clarification, methods with a table, a limitation and a finished check.
import { DOC } from "../test-document";
import type { PaperInput } from "./paper";

export const INPUT: PaperInput = {
  doc: { ...DOC, title: "Grid storage: costs & 100% renewables — São Paulo’s case_1 {x} #2 ~ ^ \\", body: `${DOC.body}\n## Discussion\n\nStorage matters most where solar is cheap [2](https://grid.example/capacity?year=2023&region=eu).\n` },
  author: "Quarry (automated research)",
  clarifications: [{ question: "Which region?", answer: "Europe since 2020" }],
  methods: { paragraphs: ["The research ran as a search tree of depth 2 and breadth 3."], tables: [{ caption: "The search queries.", header: ["Level", "Query", "Status"], rows: [["1", "battery prices 2023 & beyond", "completed"]] }] },
  results: { paragraphs: [], tables: [] },
  limitations: ["One query did not complete (failed)."],
  verification: ["Of the report's 8 claims, 6 (75%) are fully supported."],
  check: { status: "done", claims: [] },
  sources: DOC.sources.map((s) => ({ ...s, accessed: "2026-11-20" })),
};
