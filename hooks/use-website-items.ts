"use client";
// The extracted items' text, for the views that show it. A running research's stream carries it;
// an ended research's snapshot leaves it out (LiveWebsiteView in lib/types.ts), so it is fetched
// here, page by page from GET /api/research/:id/items, once, when a view that shows it is opened:
// one query's items when `queryId` is given (the query tree's detail), else the research's.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { api } from "@/lib/client/api";
import type { LiveItemView, LiveResearchView, LiveWebsiteView } from "@/lib/types";

async function fetchItems(researchId: string, queryId: string | undefined): Promise<Map<string, LiveItemView[]>> {
  const byWebsite = new Map<string, LiveItemView[]>();
  let after: string | undefined;
  do {
    const page = await api.items(researchId, { queryId, after });
    for (const item of page.items) {
      const list = byWebsite.get(item.website_id) ?? [];
      list.push({ content: item.content });
      byWebsite.set(item.website_id, list);
    }
    after = page.next ?? undefined;
  } while (after);
  return byWebsite;
}

export function useWebsiteItems(research: LiveResearchView, enabled: boolean, queryId?: string): { websites: LiveWebsiteView[]; loading: boolean } {
  const current = research.successful_scraped_websites;
  const missing = useMemo(
    () => current.some((w) => w.items === null && w.item_count > 0 && (queryId === undefined || w.query_id === queryId)),
    [current, queryId],
  );
  const fetched = useQuery({
    // A research that runs again (resume, write report) ends with another completed_at.
    queryKey: ["research-items", research.research_id, research.completed_at, queryId ?? null],
    queryFn: () => fetchItems(research.research_id, queryId),
    enabled: enabled && missing,
    staleTime: Infinity,
  });
  const byId = fetched.data;
  const websites = useMemo(() => {
    if (!missing || !byId) return current;
    return current.map((w) => (w.items === null && (queryId === undefined || w.query_id === queryId) ? { ...w, items: byId.get(w.id) ?? [] } : w));
  }, [missing, byId, current, queryId]);
  return { websites, loading: enabled && missing && !byId };
}
