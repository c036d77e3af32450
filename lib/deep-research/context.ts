// What every step of a Deep Research run shares: the conversation, the run's signal, event
// emission (after the write it reports), and the bounded world view for prompts.
import { getEnv, type Env } from "../env";
import { eventBus, type EngineEvent, type RunTopic } from "../events/bus";
import type { RunHandle } from "../runs/engine";
import { addConversationUsage, beginConversationUsage, getConversation, getMessage, recentMessages } from "../db/conversations";
import { conversationLanguage, type Language } from "../ai/language";
import type { TokenCount, UsageSink } from "../ai/usage";
import { getRun } from "../db/runs";
import { drTopic, type DeepResearchEventType } from "./events";
import { renderWorldView } from "./render";
import { runGuardView, stateView } from "./views";
import { retrieveWorldView } from "./world-view";
import { promptBudget, type PromptBudget } from "../ai/context-limit";

/** Where a run's events go: the event bus, or (queue mode, work spread over processes) a SharedSeqSink. */
export interface DrEventSink {
  emit(topic: RunTopic, event: EngineEvent): void;
}

export class DrContext {
  readonly env: Env = getEnv();
  constructor(
    readonly conversationId: string,
    readonly userId: string,
    readonly run: RunHandle,
    private readonly sink: DrEventSink = eventBus,
    /** Aborts the work too (the user's stop, which ends the start without cancelling it); the run's own signal always does. */
    stopSignal?: AbortSignal,
  ) {
    this.signal = stopSignal ? AbortSignal.any([run.signal, stopSignal]) : run.signal;
  }

  /** Aborts when the run must stop now: cancelled, lease lost, or (with a stop signal) stopped by the user. */
  readonly signal: AbortSignal;

  emit(type: DeepResearchEventType, data: unknown): void {
    this.sink.emit(drTopic(this.conversationId), { type, data });
  }

  async emitState(): Promise<void> {
    const c = await getConversation({ id: this.conversationId });
    if (c) this.emit("state", stateView(c));
  }

  async emitRun(): Promise<void> {
    const c = await getConversation({ id: this.conversationId });
    if (!c) return;
    const [run, root] = await Promise.all([getRun({ kind: "deep-research", subjectId: this.conversationId }), c.rootMessageId ? getMessage({ id: c.rootMessageId }) : null]);
    this.emit("run", runGuardView(c, run, root));
  }

  /** A prompt budget as this run reads it: the configured one, held to a known context window (lib/ai/context-limit.ts). */
  budgetOf(name: PromptBudget): number {
    return promptBudget(this.env, name);
  }

  /**
   * The world view for a prompt, with `reserve` tokens of the budget left for the step's own inputs; it opens
   * with the language every text meant for the user is written in (the user's).
   */
  async context(level: number, reserve = 0): Promise<string> {
    const budget = Math.max(500, this.budgetOf("CONTEXT_TOKEN_BUDGET") - reserve);
    const view = await retrieveWorldView(this.conversationId, level);
    // Short: it opens every prompt of the run, small windows included (a window held to a few hundred tokens).
    const language = conversationLanguage(view.userMessage, view.objective);
    const rule = `Write all text for the user in ${language?.name ? `${language.name}, their language` : "the language of their messages"}; keep names of tables, columns and handles as they are.`;
    return `${rule}\n${renderWorldView(view, budget)}`;
  }

  /** The language the user writes in (lib/ai/language.ts): what the write-up must be in. */
  async language(): Promise<Language | null> {
    const [c, messages] = await Promise.all([getConversation({ id: this.conversationId }), recentMessages(this.conversationId, 4)]);
    const latest = [...messages].reverse().find((m) => m.role === "user")?.content ?? null;
    return conversationLanguage(latest, c?.objective ?? "");
  }

  /** Records each agent call on the conversation before it is sent, and its tokens as it returns. */
  readonly usage: UsageSink = Object.assign((t: TokenCount) => addConversationUsage(this.conversationId, t), {
    begin: () => beginConversationUsage(this.conversationId),
  });

  /** Throws when the run must stop now (lease lost, cancelled, or stopped by the user). */
  check(): void {
    this.signal.throwIfAborted();
  }
}
