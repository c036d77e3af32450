// The events of a Deep Research run, on the run platform's bus: one topic per conversation, typed
// data per kind (the stream writes them as data parts of the same names).
import type { RunTopic } from "../events/bus";

export const drTopic = (conversationId: string): RunTopic => ({ kind: "deep-research", subjectId: conversationId });

export type DeepResearchEventType = "state" | "message" | "task" | "phase" | "discovery" | "run";
