import assert from "node:assert/strict";
import { test } from "node:test";
import type { ResearchData } from "../types";
import { toSharedResearch } from "./shared-view";

const q = (id: string, parent: string | null, depth: number, position: number) => ({
  query_id: id, parent_query_id: parent, depth, position, text: `text ${depth}.${position}`, objective: `objective ${depth}.${position}`, status: "completed" as const,
  level_breadth: 2, error_message: "internal: searxng at http://10.0.0.5 failed", prompt_tokens: 1, completion_tokens: 1,
  created_at: "2026-01-01T00:00:00.000Z", started_at: null, completed_at: null,
});

const view: ResearchData = {
  research_id: "cm_research_secret_id",
  initial_prompt: "What is X?",
  followup_questions: ["q?"],
  followup_answers: ["a"],
  depth: 2, breadth: 2, status: "completed", error: "stack trace here", report: "# Report",
  serp_queries: [q("cm_child", "cm_root", 2, 0), q("cm_root", null, 1, 0)],
  successful_scraped_websites: [{ id: "cm_child:cm_page", query_id: "cm_child", url: "https://example.com/a", title: "A", status: "analyzed", content: "- fact", items: [{ content: "fact", url: "https://example.com/a" }], error_message: null }],
  tokens: { prompt: 1, completion: 2, total: 3, llm_calls: 1, llm_calls_unsettled: 0 },
  created_at: "2026-01-01T00:00:00.000Z", started_at: null, completed_at: null, elapsed_ms: null,
  paused: null, warnings: [], follows: null, follow_ups: [],
};

test("the shared view keeps the report, sources and tree, and drops internal ids and errors", () => {
  const shared = toSharedResearch(view);
  assert.equal(shared.report, "# Report");
  assert.deepEqual(shared.queries.map((x) => [x.ref, x.parentRef]), [["q1", null], ["q2", "q1"]]);
  assert.deepEqual(shared.sources, [{ queryRef: "q2", url: "https://example.com/a", title: "A", learnings: ["fact"] }]);
  const json = JSON.stringify(shared);
  for (const leak of ["cm_", "10.0.0.5", "stack trace", "/api/research"]) assert.ok(!json.includes(leak), leak);
});
