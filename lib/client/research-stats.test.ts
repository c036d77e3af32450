import { test } from "node:test";
import assert from "node:assert/strict";
import { hasFindings, reportFromPartialFindings, researchStats } from "./research-stats";
import type { LiveResearchView as ResearchView, LiveWebsiteView, SerpQueryView } from "@/lib/types";

const query = (id: string, status: SerpQueryView["status"]): SerpQueryView => ({
  query_id: id, parent_query_id: null, depth: 1, position: 0, text: id, objective: "", status,
  level_breadth: 3, error_message: null, prompt_tokens: 0, completion_tokens: 0,
  created_at: "", started_at: null, completed_at: null,
});
const site = (id: string, status: LiveWebsiteView["status"], items = 0): LiveWebsiteView => ({
  id, query_id: "a", url: `https://example.com/${id}`, title: null, status, item_count: items,
  items: Array.from({ length: items }, (_, i) => ({ content: `item ${i}` })), error_message: null,
});
const view = (over: Partial<ResearchView>): ResearchView => ({
  research_id: "r1", initial_prompt: "p", followup_questions: [], followup_answers: [], depth: 1, breadth: 3,
  status: "cancelled", error: null, report: null, serp_queries: [], successful_scraped_websites: [],
  tokens: { prompt: 0, completion: 0, total: 0, llm_calls: 0, llm_calls_unsettled: 0 }, paused: null, warnings: [], follows: null, follow_ups: [],
  created_at: "", started_at: null, completed_at: null, elapsed_ms: null,
  links: { self: "", stream: "", report: "", error_output: "", resume: "", write_report: "", export: "", verification: "" },
  ...over,
});

test("stopped queries and pages are counted apart: neither done nor failed", () => {
  const s = researchStats(
    view({
      serp_queries: [query("a", "completed"), query("b", "stopped"), query("c", "failed")],
      successful_scraped_websites: [site("1", "analyzed", 2), site("2", "stopped"), site("3", "failed")],
    }),
    null,
  );
  assert.deepEqual(
    [s.queriesDone, s.queriesFailed, s.queriesStopped, s.pagesAnalyzed, s.pagesFailed, s.pagesStopped],
    [2, 1, 1, 1, 1, 1],
  );
  assert.equal(s.phase, "done");
});

test("once a research has ended, a page fetched but never analysed counts as stopped", () => {
  const sites = [site("1", "scraped"), site("2", "pending"), site("3", "analyzed", 1)];
  assert.equal(researchStats(view({ status: "cancelled", successful_scraped_websites: sites }), null).pagesStopped, 2);
  assert.equal(researchStats(view({ status: "running", successful_scraped_websites: sites }), null).pagesStopped, 0);
});

test("a report can be written only from pages with findings", () => {
  assert.equal(hasFindings(view({ successful_scraped_websites: [site("1", "analyzed", 0), site("2", "stopped")] })), false);
  assert.equal(hasFindings(view({ successful_scraped_websites: [site("1", "analyzed", 1)] })), true);
});

test("a completed research with stopped queries had its report written from partial findings", () => {
  const queries = [query("a", "completed"), query("b", "stopped")];
  assert.equal(reportFromPartialFindings(view({ status: "completed", serp_queries: queries })), true);
  assert.equal(reportFromPartialFindings(view({ status: "cancelled", serp_queries: queries })), false);
  assert.equal(reportFromPartialFindings(view({ status: "completed", serp_queries: [query("a", "completed")] })), false);
});
