"use client";
// History's rows: tree researches, Deep Research conversations and quick answers, each a page at a
// time from its own list API (which filters and searches), merged newest first (lib/client/history.ts).
import { useInfiniteQuery } from "@tanstack/react-query";
import { api, type ListParams } from "@/lib/client/api";
import { drApi } from "@/lib/client/deep-research-api";
import { answerRow, conversationRow, mergeHistory, researchRow, type HistoryKind, type HistoryRow } from "@/lib/client/history";

const PAGE = 20;

/** One kind's list: its API, its next cursor, its rows, and whether a row is still running. */
interface ListSource<P> {
  key: string;
  fetch: (params: ListParams) => Promise<P>;
  next: (page: P) => string | null;
  rows: (page: P) => HistoryRow[];
}

/** One kind's pages, fetched while `enabled`; polled every 5 s while a row on screen is running. */
function useListPages<P>(source: ListSource<P>, filters: { status: string; q: string }, enabled: boolean) {
  const query = useInfiniteQuery({
    queryKey: [source.key, filters],
    queryFn: ({ pageParam }) => source.fetch({ status: filters.status || undefined, q: filters.q || undefined, limit: PAGE, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: source.next,
    placeholderData: (prev) => prev,
    enabled,
    refetchInterval: (q) => (q.state.data?.pages.some((p) => source.rows(p).some((r) => r.status === "running")) ? 5000 : false),
  });
  return { query, enabled, rows: enabled ? (query.data?.pages ?? []).flatMap(source.rows) : [] };
}

const TREE: ListSource<Awaited<ReturnType<typeof api.list>>> = { key: "researches", fetch: api.list, next: (p) => p.next_cursor, rows: (p) => p.researches.map(researchRow) };
const DEEP: ListSource<Awaited<ReturnType<typeof drApi.list>>> = { key: "conversations", fetch: drApi.list, next: (p) => p.nextCursor, rows: (p) => p.conversations.map(conversationRow) };
// A queued answer's row shows as running (answerRow), so it is polled too.
const ANSWERS: ListSource<Awaited<ReturnType<typeof api.answers>>> = { key: "answers", fetch: api.answers, next: (p) => p.next, rows: (p) => p.answers.map(answerRow) };

export function useHistory({ kind, status, q }: { kind: "" | HistoryKind; status: string; q: string }) {
  const on = (k: HistoryKind) => kind === "" || kind === k;
  const filters = { status, q };
  // A conversation or an answer is never a draft.
  const sources = [
    useListPages(TREE, filters, on("tree")),
    useListPages(DEEP, filters, on("deep") && status !== "draft"),
    useListPages(ANSWERS, filters, on("answer") && status !== "draft"),
  ].filter((s) => s.enabled);

  const rows = mergeHistory(sources.map((s) => ({ rows: s.rows, hasMore: Boolean(s.query.hasNextPage) })));
  const failed = sources.find((s) => s.query.isError)?.query;
  return {
    rows,
    isPending: sources.some((s) => s.query.isPending),
    isFetching: sources.some((s) => s.query.isFetching && !s.query.isFetchingNextPage),
    isFetchingNextPage: sources.some((s) => s.query.isFetchingNextPage),
    error: failed?.error ?? null,
    refetch: () => sources.forEach((s) => void s.query.refetch()),
    hasNextPage: sources.some((s) => s.query.hasNextPage),
    fetchNextPage: () => sources.forEach((s) => { if (s.query.hasNextPage) void s.query.fetchNextPage(); }),
  };
}
