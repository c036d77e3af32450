"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { api } from "@/lib/client/api";

const PAGE = 20;

/** History, newest first, a page at a time. */
export function useResearchList({ status, q }: { status: string; q: string }) {
  return useInfiniteQuery({
    queryKey: ["researches", { status, q }],
    queryFn: ({ pageParam }) => api.list({ status: status || undefined, q: q || undefined, limit: PAGE, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    placeholderData: (prev) => prev,
    // Keep running rows' status fresh while any is on screen.
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.researches.some((r) => r.status === "running")) ? 5000 : false),
  });
}
