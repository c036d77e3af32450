// The events of tree research, in the run event envelope (lib/events/bus.ts).
import type { EngineEvent, RunEvent, RunTopic } from "../events/bus";
import type { RunStatusData, SerpQueryView, WebsiteView } from "../types";

export type TreeEvent =
  | EngineEvent<"query.created" | "query.status", SerpQueryView>
  | EngineEvent<"page.status" | "item.extracted", WebsiteView>
  | EngineEvent<"report.delta", { delta: string }>
  | EngineEvent<"report.done", { markdown: string }>
  | EngineEvent<"run.status", RunStatusData>;

export type TreeRunEvent = RunEvent<TreeEvent>;

/** The topic of a tree research's run. */
export const treeTopic = (researchId: string): RunTopic => ({ kind: "tree", subjectId: researchId });
