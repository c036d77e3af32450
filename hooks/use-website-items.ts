"use client";
// The extracted items' text, for the views that show it. A running research's stream carries it;
// an ended research's snapshot leaves it out (LiveWebsiteView in lib/types.ts), so it is fetched
// here (GET /api/research/:id), once, when a view that shows it is opened.
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { api } from "@/lib/client/api";
import type { LiveResearchView, LiveWebsiteView } from "@/lib/types";

export function useWebsiteItems(research: LiveResearchView, enabled: boolean): { websites: LiveWebsiteView[]; loading: boolean } {
  const current = research.successful_scraped_websites;
  const missing = useMemo(() => current.some((w) => w.items === null && w.item_count > 0), [current]);
  const fetched = useQuery({
    // A research that runs again (resume, write report) ends with another completed_at.
    queryKey: ["research-items", research.research_id, research.completed_at],
    queryFn: () => api.get(research.research_id),
    enabled: enabled && missing,
    staleTime: Infinity,
  });
  const full = fetched.data;
  const websites = useMemo(() => {
    if (!missing || !full) return current;
    const byId = new Map(full.successful_scraped_websites.map((w) => [w.id, w.items]));
    return current.map((w) => (w.items === null ? { ...w, items: (byId.get(w.id) ?? []).map((i) => ({ content: i.content })) } : w));
  }, [missing, full, current]);
  return { websites, loading: enabled && missing && !full };
}
