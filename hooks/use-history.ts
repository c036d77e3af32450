"use client";
// History's rows: tree researches, Deep Research conversations and quick answers, each a page at a
// time from its own list API (which filters and searches), merged newest first (lib/client/history.ts).
import { useInfiniteQuery } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { call, drApi } from "@/lib/client/deep-research-api";
import { answerRow, conversationRow, mergeHistory, researchRow, type AnswerSummary, type HistoryKind } from "@/lib/client/history";

const PAGE = 20;
// Keep running rows' status fresh while any is on screen.
const refresh = (running: boolean) => (running ? 5000 : false);

export function useHistory({ kind, status, q }: { kind: "" | HistoryKind; status: string; q: string }) {
  const on = (k: HistoryKind) => kind === "" || kind === k;
  const tree = useInfiniteQuery({
    queryKey: ["researches", { status, q }],
    queryFn: ({ pageParam }) => api.list({ status: status || undefined, q: q || undefined, limit: PAGE, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    placeholderData: (prev) => prev,
    enabled: on("tree"),
    refetchInterval: (query) => refresh(Boolean(query.state.data?.pages.some((p) => p.researches.some((r) => r.status === "running")))),
  });
  const deep = useInfiniteQuery({
    queryKey: ["conversations", { status, q }],
    queryFn: ({ pageParam }) => drApi.list({ status: status || undefined, q: q || undefined, limit: PAGE, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: (prev) => prev,
    // A conversation is never a draft.
    enabled: on("deep") && status !== "draft",
    refetchInterval: (query) => refresh(Boolean(query.state.data?.pages.some((p) => p.conversations.some((c) => c.status === "running")))),
  });
  const answers = useInfiniteQuery({
    queryKey: ["answers", { status, q }],
    queryFn: ({ pageParam }) => {
      const sp = new URLSearchParams({ limit: String(PAGE) });
      if (status) sp.set("status", status);
      if (q) sp.set("q", q);
      if (pageParam) sp.set("before", pageParam);
      return call<{ answers: AnswerSummary[]; next: string | null }>(`/api/v1/answers?${sp}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    placeholderData: (prev) => prev,
    // An answer is never a draft.
    enabled: on("answer") && status !== "draft",
    refetchInterval: (query) => refresh(Boolean(query.state.data?.pages.some((p) => p.answers.some((a) => a.status === "running" || a.status === "queued")))),
  });

  const sources = [
    { on: on("tree"), query: tree, rows: () => (tree.data?.pages ?? []).flatMap((p) => p.researches.map(researchRow)) },
    { on: on("deep") && status !== "draft", query: deep, rows: () => (deep.data?.pages ?? []).flatMap((p) => p.conversations.map(conversationRow)) },
    { on: on("answer") && status !== "draft", query: answers, rows: () => (answers.data?.pages ?? []).flatMap((p) => p.answers.map(answerRow)) },
  ].filter((s) => s.on);

  const rows = mergeHistory(sources.map((s) => ({ rows: s.rows(), hasMore: Boolean(s.query.hasNextPage) })));
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
