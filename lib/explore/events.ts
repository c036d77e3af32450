// The events of tree research, in the run event envelope (lib/events/bus.ts).
import type { EngineEvent, RunEvent, RunTopic } from "../events/bus";
import type { ResearchData, ResearchStatus, RunStatusData, SerpQueryView, WebsiteView } from "../types";

export type TreeEvent =
  | EngineEvent<"query.created" | "query.status", SerpQueryView>
  | EngineEvent<"page.status" | "item.extracted", WebsiteView>
  /** `restart`: the report is written again from this delta on (what came before it is void). */
  | EngineEvent<"report.delta", { delta: string; restart?: true; note?: string }>
  | EngineEvent<"report.done", { markdown: string }>
  | EngineEvent<"run.status", RunStatusData>;

export type TreeRunEvent = RunEvent<TreeEvent>;

/** The topic of a tree research's run. */
export const treeTopic = (researchId: string): RunTopic => ({ kind: "tree", subjectId: researchId });

/** What a tree research's stream starts with: the research as the database holds it, and the report text streamed so far. */
export interface TreeSnapshot {
  research: ResearchData;
  report_draft: string | null;
}

const TERMINAL: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"] satisfies ResearchStatus[]);

export const isTerminalStatus = (status: string) => TERMINAL.has(status);

/** A research's last event: its terminal status. */
export const isFinalTreeEvent = (e: RunEvent) => e.type === "run.status" && isTerminalStatus((e.data as RunStatusData).status);
