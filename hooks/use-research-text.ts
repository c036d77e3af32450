"use client";
import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/client/api";

/** A Markdown document of a research (report or error output); null while it does not exist. */
export function useResearchText(path: string | null, enabled = true) {
  return useQuery({
    queryKey: ["research-text", path],
    queryFn: () => api.text(path!),
    enabled: enabled && !!path,
  });
}
