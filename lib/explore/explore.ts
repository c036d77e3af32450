// Tree exploration as a library: search → read → extract over a tree of queries, for any engine.
// Tree research is exploreTree + its report; a Deep Research literature task runs it too. It writes
// the tree (queries, pages, extracted items) under the scope's research and reports progress to the
// sink; it resumes from what that research already holds, so calling it again after a crash or a
// cancel goes on where it stopped.
import { getEnv } from "../env";
import { RunContext, type EventSink, type TreeScope } from "./context";
import { TreeRunner } from "./runner";
import * as store from "../db/tree";

/** One extracted item: its id resolves to the stored ExtractedItem. */
export interface TreeLearning {
  id: string;
  content: string;
  url: string;
  queryId: string;
}

export interface ExploreOptions {
  scope: TreeScope;
  /** Receives every event of the exploration (query created and status, page status, items). */
  sink: EventSink;
  /** Aborting it stops the exploration; what is unfinished is marked stopped, and the call throws. */
  signal: AbortSignal;
  /** True once another process owns the run: stop and write nothing more. */
  leaseLost?: () => boolean;
}

/**
 * Explores the scope's tree to its end and returns everything extracted. Throws when the tree
 * cannot be explored at all (no root query could be planned, the LLM refusing every call) or when
 * `signal` aborts; a lost page or branch only costs itself (see TreeRunner).
 */
export async function exploreTree({ scope, sink, signal, leaseLost }: ExploreOptions): Promise<{ learnings: TreeLearning[] }> {
  const ctx = new RunContext(scope, getEnv(), sink, signal, leaseLost);
  await new TreeRunner(ctx).explore();
  await ctx.settled();
  return { learnings: await store.learningsOf(scope.researchId) };
}
