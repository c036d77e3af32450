"use client";
// A shared Deep Research conversation, read-only (/share/:token): the header, hypothesis, timeline,
// discoveries with their quotes and the plan — the conversation page's panels without its controls
// (no reply box, stop or share; a literature task's tree is the owner's, so it has no link).
import { useMemo } from "react";
import type { SharedConversation } from "@/lib/deep-research/shared-view";
import type { DrDiscovery, DrMessage, DrMode, DrState, DrTask } from "@/lib/client/deep-research-state";
import { StatusBadge } from "../status-badge";
import { MODE_LABELS } from "./dr-header";
import { DiscoveriesPanel } from "./discoveries-panel";
import { HypothesisPanel } from "./hypothesis-panel";
import { PlanPanel, useTaskFocus } from "./plan-panel";
import { Timeline } from "./timeline";

function toState(c: SharedConversation): DrState {
  return {
    id: "", objective: c.objective, currentObjective: null, evolvingObjective: c.evolvingObjective, conversationTitle: c.title, keyInsights: c.keyInsights,
    methodology: null, currentHypothesis: c.hypothesis, suggestedNextSteps: [], currentLevel: c.currentLevel, researchMode: c.researchMode as DrMode,
    uploadedDatasets: [], createdAt: c.createdAt, updatedAt: c.createdAt,
  };
}

const toMessages = (c: SharedConversation): DrMessage[] =>
  c.messages.map((m, i) => ({ ...m, id: `m${i}`, status: "completed", phase: null, researchMode: null, replyToId: null, suggestedNextSteps: [], error: null, completedAt: null }));

const toPlan = (c: SharedConversation): DrTask[] =>
  c.plan.map((t) => ({ ...t, datasetFilenames: [], artifacts: [], error: null, childResearchId: null }));

const toDiscoveries = (c: SharedConversation): DrDiscovery[] =>
  c.discoveries.map((d) => ({ ...d, evidenceItems: d.evidenceItems.map((e, i) => ({ ...e, itemId: `${e.taskId}-${i}`, researchId: null })) }));

export function SharedConversationView({ conversation: c }: { conversation: SharedConversation }) {
  const [focus, cite] = useTaskFocus();
  const view = useMemo(() => ({ state: toState(c), messages: toMessages(c), plan: toPlan(c), discoveries: toDiscoveries(c) }), [c]);
  const taskIds = useMemo(() => new Set(c.plan.map((t) => t.id)), [c]);
  // The verified write-up is the last reply (toMessages numbers the messages m0, m1, …).
  const writeUp = useMemo(() => {
    const last = c.messages.map((m, i) => ({ m, i })).filter(({ m }) => m.role === "assistant").at(-1);
    return c.writeUpVerification && last ? { messageId: `m${last.i}`, view: c.writeUpVerification } : null;
  }, [c]);
  return (
    <div className="grid gap-6 py-2" data-testid="shared-conversation">
      <header className="min-w-0">
        <p className="text-xs uppercase tracking-wide text-muted">Shared deep research · read-only</p>
        <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-muted">
          <span className="rounded-full border border-border bg-surface px-2 py-0.5 font-medium" data-testid="dr-mode">{MODE_LABELS[c.researchMode] ?? c.researchMode}</span>
          <StatusBadge status={c.status} />
          {c.currentLevel > 0 ? <span>Level {c.currentLevel}</span> : null}
        </div>
        <h1 data-testid="shared-title" className="mt-2 break-words text-xl font-semibold leading-snug tracking-tight sm:text-2xl">{c.title}</h1>
        <dl className="mt-3 grid gap-1 text-sm">
          <div className="flex gap-2"><dt className="shrink-0 text-muted">Objective</dt><dd data-testid="dr-objective" className="min-w-0 break-words">{c.objective}</dd></div>
          {c.evolvingObjective && c.evolvingObjective !== c.objective ? (
            <div className="flex gap-2"><dt className="shrink-0 text-muted">Now</dt><dd data-testid="dr-evolving" className="min-w-0 break-words">{c.evolvingObjective}</dd></div>
          ) : null}
        </dl>
      </header>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,24rem)]">
        <div className="grid min-w-0 content-start gap-6">
          <HypothesisPanel state={view.state} taskIds={taskIds} onCite={cite} />
          <Timeline messages={view.messages} verification={writeUp} />
        </div>
        <aside className="grid min-w-0 content-start gap-6" aria-label="Discoveries and plan">
          <DiscoveriesPanel discoveries={view.discoveries} />
          <PlanPanel plan={view.plan} focus={focus} />
        </aside>
      </div>
    </div>
  );
}
