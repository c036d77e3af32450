import { test } from "node:test";
import assert from "node:assert/strict";
import { applyChunk, applyChunks, type LiveResearch } from "./research-state";
import type { LiveResearchView as ResearchView, SerpQueryView } from "@/lib/types";

const view = (over: Partial<ResearchView> = {}): ResearchView => ({
  research_id: "r1",
  initial_prompt: "p",
  followup_questions: [],
  followup_answers: [],
  depth: 2,
  breadth: 2,
  status: "running",
  error: null,
  report: null,
  serp_queries: [],
  successful_scraped_websites: [],
  tokens: { prompt: 0, completion: 0, total: 0, llm_calls: 0, llm_calls_unsettled: 0 },
  created_at: "2026-01-01T00:00:00Z",
  started_at: null,
  completed_at: null,
  elapsed_ms: null,
  links: { self: "", stream: "", report: "", error_output: "", resume: "", write_report: "", export: "", verification: "" },
  paused: null,
  warnings: [],
  follows: null,
  follow_ups: [],
  ...over,
});

const query = (id: string, status: SerpQueryView["status"]): SerpQueryView => ({
  query_id: id, parent_query_id: null, depth: 1, position: 0, text: id, objective: "", status,
  level_breadth: 2, error_message: null, prompt_tokens: 0, completion_tokens: 0,
  created_at: "", started_at: null, completed_at: null,
});

test("live parts replace rows by id and skip those the snapshot already holds", () => {
  let s: LiveResearch | null = null;
  s = applyChunk(s, { type: "data-query", data: { ...query("a", "pending"), seq: 1, at: 0 } });
  assert.equal(s, null, "a live part before the snapshot is ignored");
  s = applyChunk(s, { type: "data-snapshot", data: { seq: 5, research: view({ serp_queries: [query("a", "searching")] }), report_draft: null } });
  s = applyChunk(s, { type: "data-query", data: { ...query("a", "pending"), seq: 4, at: 0 } });
  assert.equal(s!.research.serp_queries[0].status, "searching");
  s = applyChunk(s, { type: "data-query", data: { ...query("a", "completed"), seq: 6, at: 0 } });
  s = applyChunk(s, { type: "data-query", data: { ...query("b", "pending"), seq: 7, at: 0 } });
  assert.deepEqual(s!.research.serp_queries.map((q) => [q.query_id, q.status]), [["a", "completed"], ["b", "pending"]]);
  assert.equal("seq" in s!.research.serp_queries[0], false);
});

test("report deltas append to the draft until the final report", () => {
  let s = applyChunk(null, { type: "data-snapshot", data: { seq: 1, research: view(), report_draft: "# T" } });
  s = applyChunk(s, { type: "data-report-delta", data: { delta: "itle", seq: 2, at: 0 } });
  assert.equal(s!.reportDraft, "# Title");
  // Written again (the server cut its prompt): the draft begins anew with the restarting delta.
  s = applyChunk(s, { type: "data-report-delta", data: { delta: "# Ti", restart: true, seq: 3, at: 0 } });
  assert.equal(s!.reportDraft, "# Ti");
  s = applyChunk(s, { type: "data-report-delta", data: { delta: "tle", seq: 4, at: 0 } });
  assert.equal(s!.reportDraft, "# Title");
  assert.equal(s!.reportDraftNote ?? null, null);
  // Written again for a fault of the first (it cited nothing, another language): the draft says why, until the report.
  s = applyChunk(s, { type: "data-report-delta", data: { delta: "# T", restart: true, note: "Written again: the report was written in Chinese, not English.", seq: 4.5, at: 0 } });
  s = applyChunk(s, { type: "data-report-delta", data: { delta: "itle", seq: 4.6, at: 0 } });
  assert.equal(s!.reportDraft, "# Title");
  assert.equal(s!.reportDraftNote, "Written again: the report was written in Chinese, not English.");
  s = applyChunk(s, { type: "data-report", data: { markdown: "# Title\n", seq: 5, at: 0 } });
  assert.equal(s!.reportDraft, null);
  assert.equal(s!.reportDraftNote, null);
  assert.equal(s!.research.report, "# Title\n");
});

test("a run part carries the pause and the warnings, and clears the pause when the run goes on", () => {
  let s = applyChunk(null, { type: "data-snapshot", data: { seq: 1, research: view(), report_draft: null } });
  const run = { status: "running" as const, error: null, tokens: view().tokens, started_at: null, completed_at: null };
  const paused = { reason: "Waiting for the LLM provider: HTTP 503 from the LLM server", since: "2026-01-01T00:01:00Z" };
  s = applyChunk(s, { type: "data-run", data: { ...run, paused, warnings: ["The query generator planned 2 of 3 queries"], seq: 2, at: 0 } });
  assert.deepEqual(s!.research.paused, paused);
  assert.deepEqual(s!.research.warnings, ["The query generator planned 2 of 3 queries"]);
  s = applyChunk(s, { type: "data-run", data: { ...run, paused: null, warnings: ["The query generator planned 2 of 3 queries"], seq: 3, at: 0 } });
  assert.equal(s!.research.paused, null);
  assert.equal(s!.research.status, "running");
});

test("a batch gives the same state as its parts one by one, copying the rows once", () => {
  const snapshot = { type: "data-snapshot" as const, data: { seq: 5, research: view({ serp_queries: [query("a", "searching")] }), report_draft: null } };
  const site = (id: string, status: "pending" | "analyzed", seq: number) => ({
    type: "data-website" as const,
    data: { id, query_id: "a", url: `https://x.test/${id}`, title: null, status, item_count: 0, items: [], error_message: null, seq, at: 0 },
  });
  const chunks = [
    { type: "data-query" as const, data: { ...query("z", "pending"), seq: 1, at: 0 } },
    snapshot,
    { type: "data-query" as const, data: { ...query("a", "pending"), seq: 4, at: 0 } },
    { type: "data-query" as const, data: { ...query("b", "pending"), seq: 6, at: 0 } },
    site("w1", "pending", 7),
    { type: "data-query" as const, data: { ...query("a", "completed"), seq: 8, at: 0 } },
    site("w2", "pending", 9),
    site("w1", "analyzed", 10),
    { type: "data-query" as const, data: { ...query("b", "searching"), seq: 11, at: 0 } },
    { type: "data-run" as const, data: { status: "running" as const, error: null, tokens: view().tokens, paused: null, warnings: ["w"], started_at: null, completed_at: null, seq: 12, at: 0 } },
  ];
  const oneByOne = chunks.reduce<LiveResearch | null>((s, c) => applyChunk(s, c), null);
  const batched = applyChunks(null, chunks);
  assert.deepEqual(batched, oneByOne);
  assert.deepEqual(batched!.research.serp_queries.map((q) => [q.query_id, q.status]), [["a", "completed"], ["b", "searching"]]);
  assert.deepEqual(batched!.research.successful_scraped_websites.map((w) => [w.id, w.status]), [["w1", "analyzed"], ["w2", "pending"]]);
  // A second batch after a new snapshot drops what the snapshot already holds.
  const again = applyChunks(batched, [{ ...snapshot, data: { ...snapshot.data, seq: 20 } }, { type: "data-query" as const, data: { ...query("c", "pending"), seq: 15, at: 0 } }]);
  assert.deepEqual(again!.research.serp_queries.map((q) => q.query_id), ["a"]);
});

test("a row's older state that comes after a newer one is dropped, one by one and in a batch", () => {
  const snapshot = { type: "data-snapshot" as const, data: { seq: 5, research: view({ serp_queries: [query("a", "searching")] }), report_draft: null } };
  const site = (id: string, status: "pending" | "analyzed", seq: number) => ({
    type: "data-website" as const,
    data: { id, query_id: "a", url: `https://x.test/${id}`, title: null, status, item_count: 0, items: [], error_message: null, seq, at: 0 },
  });
  const run = (status: "running" | "completed", seq: number) => ({
    type: "data-run" as const,
    data: { status, error: null, tokens: view().tokens, paused: null, warnings: [], started_at: null, completed_at: null, seq, at: 0 },
  });
  // As a queue-mode stream delivered them: 70, 71, then 65, 66 (a newer state of each row first).
  const chunks = [
    snapshot,
    { type: "data-query" as const, data: { ...query("a", "completed"), seq: 70, at: 0 } },
    site("w1", "analyzed", 71),
    run("completed", 72),
    { type: "data-query" as const, data: { ...query("a", "searching"), seq: 65, at: 0 } },
    site("w1", "pending", 66),
    site("w2", "pending", 67),
    run("running", 68),
  ];
  const oneByOne = chunks.reduce<LiveResearch | null>((s, c) => applyChunk(s, c), null)!;
  for (const s of [oneByOne, applyChunks(null, chunks)!, applyChunks(applyChunks(null, chunks.slice(0, 4)), chunks.slice(4))!]) {
    assert.deepEqual(s.research.serp_queries.map((q) => [q.query_id, q.status]), [["a", "completed"]]);
    assert.deepEqual(s.research.successful_scraped_websites.map((w) => [w.id, w.status]), [["w1", "analyzed"], ["w2", "pending"]], "a row not seen before takes its late part");
    assert.equal(s.research.status, "completed");
  }
  assert.deepEqual(applyChunks(null, chunks), oneByOne);
  // Within one batch too: the older of two parts of a row loses, whatever their order.
  const inBatch = applyChunks(applyChunk(null, snapshot), [site("w3", "analyzed", 9), site("w3", "pending", 8)])!;
  assert.equal(inBatch.research.successful_scraped_websites[0].status, "analyzed");
  // A report delta older than the final report does not start a draft again.
  let r = applyChunk(null, { type: "data-snapshot", data: { seq: 1, research: view(), report_draft: "# T" } });
  r = applyChunk(r, { type: "data-report", data: { markdown: "# Title\n", seq: 4, at: 0 } });
  r = applyChunk(r, { type: "data-report-delta", data: { delta: "itle", seq: 3, at: 0 } });
  assert.equal(r!.reportDraft, null);
});
