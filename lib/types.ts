// The public shapes of tree research: the JSON of GET /api/research/:id (seed field names) and the
// typed data parts of GET /api/research/:id/stream. Declared once; the server maps to them in
// lib/explore/public-shape.ts and the browser reads them.
import type { UIMessage } from "ai";

export type ResearchStatus = "draft" | "running" | "completed" | "failed" | "cancelled";
/** `stopped`: the research failed or was cancelled before this query finished; a resume picks it up again. */
export type QueryStatus = "pending" | "searching" | "scraping" | "analyzing" | "completed" | "failed" | "stopped";
/**
 * Status of one URL for one query: the page fetch, then this query's analysis of it. `stopped`: the
 * research ended (failed or cancelled) before this page was fetched or analysed; a resume continues it.
 */
export type WebsiteStatus = "pending" | "scraping" | "scraped" | "analyzed" | "failed" | "stopped";

/**
 * Set while a running research is held up by its LLM provider (an outage, or rate limits past the
 * usual retries): its calls wait and are retried by themselves, nothing is lost. Null otherwise.
 */
export interface PausedState {
  /** Why, for people: e.g. "Waiting for the LLM provider: HTTP 503 from the LLM server". */
  reason: string;
  /** ISO time the pause began. */
  since: string;
}

export interface SerpQueryView {
  query_id: string;
  parent_query_id: string | null;
  depth: number;
  position: number;
  text: string;
  objective: string;
  status: QueryStatus;
  level_breadth: number;
  error_message: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface ExtractedItemView {
  content: string;
  url: string;
}

export interface WebsiteView {
  /** `${query_id}:${page_id}` — stable id of this URL under this query */
  id: string;
  query_id: string;
  url: string;
  title: string | null;
  status: WebsiteStatus;
  /** The extracted items joined as Markdown bullets (the seed's `content`). */
  content: string;
  items: ExtractedItemView[];
  error_message: string | null;
}

export interface TokenUsage {
  prompt: number;
  completion: number;
  total: number;
  llm_calls: number;
  /** Calls sent whose usage is not recorded: in flight now, or lost to a crash (their tokens unknown). */
  llm_calls_unsettled: number;
}

export interface ResearchView {
  research_id: string;
  initial_prompt: string;
  followup_questions: string[];
  followup_answers: string[];
  depth: number | null;
  breadth: number | null;
  status: ResearchStatus;
  error: string | null;
  report: string | null;
  serp_queries: SerpQueryView[];
  successful_scraped_websites: WebsiteView[];
  tokens: TokenUsage;
  /** Non-null while the run waits for its LLM provider (see PausedState). */
  paused: PausedState | null;
  /** Things the run could not do fully but went on without (e.g. fewer queries than planned). */
  warnings: string[];
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  elapsed_ms: number | null;
  /** The research this one follows up on (and the branch of it it goes deeper on), or null. */
  follows: { research_id: string; initial_prompt: string; query_id: string | null } | null;
  /** The follow-ups of this research, oldest first. */
  follow_ups: FollowUpView[];
  links: ResearchLinks;
}

export interface FollowUpView {
  research_id: string;
  initial_prompt: string;
  status: ResearchStatus;
  /** The query whose branch it goes deeper on; null for a follow-up of the whole research. */
  query_id: string | null;
  created_at: string;
}

/** A research as the engine knows it; the HTTP edge adds its links (lib/api/research-links.ts). */
export type ResearchData = Omit<ResearchView, "links">;

/** One query of the lean status view: the tree's shape and its counts, no text beyond the query's. */
export interface StatusQueryView {
  query_id: string;
  parent_query_id: string | null;
  depth: number;
  status: QueryStatus;
  text: string;
  /** Its pages by status (analyzed, failed, stopped, pending, scraping, scraped) and its extracted items. */
  pages: Partial<Record<WebsiteStatus, number>>;
  items: number;
}

/**
 * `GET /api/research/:id?view=status`: what a poller needs (status, tokens, warnings, counts and the
 * tree's shape) without the pages' items or the report's text — a few KB where the full view of a
 * finished (5, 5) is hundreds. The report is at `links.report`; the items in the full view.
 */
export interface ResearchStatusView {
  research_id: string;
  initial_prompt: string;
  depth: number | null;
  breadth: number | null;
  status: ResearchStatus;
  error: string | null;
  has_report: boolean;
  tokens: RunStatusData["tokens"];
  paused: RunStatusData["paused"];
  warnings: string[];
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  counts: { queries: number; pages: Partial<Record<WebsiteStatus, number>>; items: number };
  serp_queries: StatusQueryView[];
  links: ResearchLinks;
}

/** One extracted item of `GET /api/research/:id/items`, with the query page (website) it came from. */
export interface ResearchItemView {
  id: string;
  /** The website's id in the other views: `${query_id}:${page_id}`. */
  website_id: string;
  query_id: string;
  url: string;
  content: string;
}

/** `GET /api/research/:id/items`: a page of items; `next` is the `after` of the next page, null at the end. */
export interface ResearchItemsPage {
  items: ResearchItemView[];
  next: string | null;
}

/**
 * What a client can do next. `resume` (POST): continue a failed or cancelled research from where it
 * stopped, or retry the LLM provider at once for a paused one. `write_report` (POST): write the report
 * from what a failed or cancelled research already found.
 */
export interface ResearchLinks {
  self: string;
  stream: string;
  report: string;
  error_output: string;
  resume: string;
  write_report: string;
  /** GET with ?format=md|pdf|docx|tex: the report as a file (tex: the LaTeX paper, zipped). */
  export: string;
  /** GET: the report's citation verification (verdicts, support rate). */
  verification: string;
}

/** A row of GET /api/research (history). */
export interface ResearchSummary {
  research_id: string;
  initial_prompt: string;
  status: ResearchStatus;
  depth: number | null;
  breadth: number | null;
  created_at: string;
  completed_at: string | null;
}

export interface RunStatusData {
  status: ResearchStatus;
  error: string | null;
  tokens: TokenUsage;
  paused: PausedState | null;
  warnings: string[];
  started_at: string | null;
  completed_at: string | null;
}

/**
 * Data parts of the research stream (AI SDK UI message stream). The first part is always a
 * `snapshot` built from the database; later parts are live updates newer than `snapshot.seq`.
 * `query` and `website` parts carry the whole current row and use its id, so a repeated id replaces
 * the earlier part. `report-delta` is transient (appended text while the report is written).
 */
/** Every live part carries the per-research sequence number and `at`, the emit time (epoch ms). */
export interface LiveMeta {
  seq: number;
  at: number;
}

/** An extracted item as the stream sends it: its URL is its website's. */
export interface LiveItemView {
  content: string;
}

/**
 * A website as the stream sends it: without `content` (its items joined again as Markdown, which
 * the browser does not use), with `item_count`, and with `items` as text — except in the snapshot of
 * a research that has ended, where `items` is null: a view that shows the text fetches it
 * (GET /api/research/:id) when it is opened. A 110-query research has ~1,400 items.
 */
export type LiveWebsiteView = Omit<WebsiteView, "content" | "items"> & { item_count: number; items: LiveItemView[] | null };

/** A research as the stream sends it (its websites without `content`). */
export type LiveResearchView = Omit<ResearchView, "successful_scraped_websites"> & { successful_scraped_websites: LiveWebsiteView[] };

export type ResearchDataParts = {
  snapshot: { seq: number; research: LiveResearchView; report_draft: string | null };
  query: SerpQueryView & LiveMeta;
  website: LiveWebsiteView & LiveMeta;
  /** `restart`: the draft begins again with this delta (the earlier text is void). */
  /** `restart`: the draft starts over with this delta; `note`: why, when the report is written again for a fault of the first (it cited nothing, it was in another language). */
  "report-delta": { delta: string; restart?: true; note?: string } & LiveMeta;
  report: { markdown: string } & LiveMeta;
  run: RunStatusData & LiveMeta;
};

export type ResearchUIMessage = UIMessage<never, ResearchDataParts>;

/** A run of any engine, as GET /api/runs/:id shows it. */
export interface RunView {
  id: string;
  kind: string;
  subject_id: string;
  parent_run_id: string | null;
  status: "queued" | "running" | "completed" | "failed" | "cancelled";
  attempt: number;
  error: string | null;
  /** Non-null while the run waits for its LLM provider (see PausedState). */
  paused: PausedState | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  links: { self: string; stream: string };
}

/** An event of any engine in its envelope (lib/events/bus.ts), as the engine-neutral stream sends it. */
export interface RunEventView {
  runId: string;
  kind: string;
  subjectId: string;
  seq: number;
  type: string;
  data: unknown;
  at: number;
}

/**
 * Data parts of the engine-neutral stream (GET /api/runs/:id/stream): `snapshot` (the engine's
 * snapshot of its subject, current to `seq`), then one `event` per envelope newer than it.
 */
export type RunDataParts = {
  snapshot: { seq: number; run: RunView; data: unknown };
  event: RunEventView;
};

export type RunUIMessage = UIMessage<never, RunDataParts>;
