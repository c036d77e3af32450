// The row shapes the rest of the app sees. Layers above lib/db import them from here, never from the
// generated Prisma client, so that lib/db alone depends on Prisma.
import type { ExtractedItem, Page, QueryPage, Research, SerpQuery } from "../generated/prisma/client";

export type { ApiToken, ExtractedItem, Page, QueryPage, Research, Run, SerpQuery, ShareLink, User } from "../generated/prisma/client";

/** A page without its text: events and views never need the text, and it can be large. */
export type PageSummary = Omit<Page, "content">;
/** What a website view is made of: a query page row as loaded, or as the runner just wrote it. */
export type WebsiteRow = Pick<QueryPage, "queryId" | "pageId" | "status" | "error"> & {
  page: Pick<Page, "url" | "title" | "status" | "error">;
  items: Pick<ExtractedItem, "content" | "url" | "position">[];
};

/** A query page as views and events show it: the page without its text, and the extracted items. */
export type QueryPageRow = QueryPage & { page: PageSummary; items: ExtractedItem[] };
/** A research with its whole tree, as the public shape is mapped from. */
export type ResearchGraph = Research & {
  queries: SerpQuery[];
  queryPages: QueryPageRow[];
  parentResearch: { id: string; initialPrompt: string } | null;
  followUps: { id: string; initialPrompt: string; status: string; parentQueryId: string | null; createdAt: Date }[];
};

// What the tree's writes take and return, declared here rather than imported from the agents and
// search providers that produce them (lib/db depends on nothing above it); those types match these.

/** A query to create: the query generator's output. */
export interface QueryDraft {
  query: string;
  objective: string;
}

/** A search result to attach to a query (the snippet is not stored). */
export interface SearchHit {
  url: string;
  title: string;
  snippet: string;
}

/** Tokens spent by LLM calls. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  calls: number;
}

/** One query of a chain with what it found: what the query generator reads as a parent chain. */
export interface QueryLearnings {
  query: string;
  objective: string;
  learnings: { content: string; url: string }[];
}
