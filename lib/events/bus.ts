// The in-process event bus (the embedded default). Every event carries the research id, a
// per-research sequence number and its emit time. A Redis implementation can replace it behind
// the same interface for queue mode.
import type { RunStatusData, SerpQueryView, WebsiteView } from "../types";

export type ResearchEvent =
  | { type: "query.created"; query: SerpQueryView }
  | { type: "query.status"; query: SerpQueryView }
  | { type: "page.status"; website: WebsiteView }
  | { type: "item.extracted"; website: WebsiteView }
  | { type: "report.delta"; delta: string }
  | { type: "report.done"; markdown: string }
  | { type: "run.status"; run: RunStatusData };

export type EmittedEvent = ResearchEvent & { researchId: string; seq: number; at: number };
export type Listener = (event: EmittedEvent) => void;

export interface EventBus {
  emit(researchId: string, event: ResearchEvent): EmittedEvent;
  subscribe(researchId: string, listener: Listener): () => void;
  /** The sequence number of the last event emitted for this research (0 if none). */
  currentSeq(researchId: string): number;
}

export class InProcessEventBus implements EventBus {
  private readonly seqs = new Map<string, number>();
  private readonly listeners = new Map<string, Set<Listener>>();

  emit(researchId: string, event: ResearchEvent): EmittedEvent {
    const seq = (this.seqs.get(researchId) ?? 0) + 1;
    this.seqs.set(researchId, seq);
    const emitted = { ...event, researchId, seq, at: performance.timeOrigin + performance.now() } as EmittedEvent;
    for (const listener of this.listeners.get(researchId) ?? []) {
      try {
        listener(emitted);
      } catch (error) {
        console.error("[quarry] event listener failed:", error);
      }
    }
    return emitted;
  }

  subscribe(researchId: string, listener: Listener): () => void {
    let set = this.listeners.get(researchId);
    if (!set) this.listeners.set(researchId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(researchId);
    };
  }

  currentSeq(researchId: string): number {
    return this.seqs.get(researchId) ?? 0;
  }
}

const globalForBus = globalThis as unknown as { quarryBus?: EventBus };
export const eventBus: EventBus = (globalForBus.quarryBus ??= new InProcessEventBus());
