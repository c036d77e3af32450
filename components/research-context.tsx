"use client";
// The live research shared by the research page's tabs (tree, sources, report), so that switching
// tab keeps one stream and one selection.
import { createContext, useContext } from "react";
import type { LiveResearch } from "@/lib/client/research-state";
import type { StreamConnection } from "@/lib/client/research-stream";
import type { ResearchLimits } from "@/lib/research/estimate";

export interface ResearchContextValue {
  live: LiveResearch;
  connection: StreamConnection;
  selectedQueryId: string | null;
  selectQuery: (id: string | null) => void;
  /** Opens the stream again after the research was made to run again (resume, write report). */
  reconnect: () => void;
  /** From `reconnect()` until the new snapshot is shown. */
  refreshing: boolean;
  /** What a re-run may choose (depth, breadth) and what each choice is estimated to cost. */
  limits: ResearchLimits;
}

export const ResearchContext = createContext<ResearchContextValue | null>(null);

export function useResearch(): ResearchContextValue {
  const v = useContext(ResearchContext);
  if (!v) throw new Error("useResearch must be used inside the research page");
  return v;
}
