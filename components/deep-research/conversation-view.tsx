"use client";
// The Deep Research conversation page: header, hypothesis and insights, timeline, next steps and
// the reply box in the main column; discoveries and the plan beside it (below it on a phone).
import Link from "next/link";
import { useLayoutEffect, useMemo } from "react";
import { buttonClass } from "../button";
import { Spinner } from "../spinner";
import { useDeepResearchLive } from "@/hooks/use-deep-research-live";
import { DrHeader } from "./dr-header";
import { HypothesisPanel } from "./hypothesis-panel";
import { Timeline } from "./timeline";
import { Composer } from "./composer";
import { DiscoveriesPanel } from "./discoveries-panel";
import { PlanPanel, useTaskFocus } from "./plan-panel";
import { DatasetsPanel } from "./datasets-panel";
import { AnalysisNotebook } from "./notebook";
import { datasetsOf } from "@/lib/client/deep-research-state";
import { useVerification } from "@/hooks/use-verification";
import type { VerificationView } from "@/lib/verification/view";

export function DrNotFound() {
  return (
    <div className="mx-auto max-w-md py-20 text-center" data-testid="not-found">
      <p className="font-mono text-sm text-subtle">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">Nothing was found here</h1>
      <p className="mt-2 text-sm text-muted">The conversation does not exist, or it is not yours.</p>
      <div className="mt-6 flex justify-center gap-2">
        <Link href="/history" className={buttonClass("secondary", "md")}>Open history</Link>
        <Link href="/deep-research/new" className={buttonClass("primary", "md")}>New deep research</Link>
      </div>
    </div>
  );
}

export function ConversationView({ id, semiCap }: { id: string; semiCap: number }) {
  const { live, connection, notFound, reconnect } = useDeepResearchLive(id);
  const [focus, cite] = useTaskFocus();
  const plan = live?.plan;
  const taskIds = useMemo(() => new Set((plan ?? []).map((t) => t.id)), [plan]);
  const uploaded = live?.state.uploadedDatasets;
  const datasets = useMemo(() => datasetsOf(uploaded ?? []), [uploaded]);
  const loaded = live !== null;
  // The write-up's citation check, once the start has ended (it runs before the start ends).
  const checked = useVerification(`/api/deep-research/conversations/${encodeURIComponent(id)}/verification`, loaded && !live.deepResearchRun.isRunning).data as (VerificationView & { message_id: string }) | null | undefined;
  useLayoutEffect(() => { if (loaded) performance.mark("dr:committed"); }, [loaded]);
  if (notFound) return <DrNotFound />;
  if (!live) {
    return (
      <div className="flex items-center gap-2 py-16 text-sm text-muted" role="status">
        <Spinner /> Loading the conversation…
      </div>
    );
  }
  const running = live.deepResearchRun.isRunning;
  const replies = live.messages.filter((m) => m.role === "assistant").length;
  return (
    <div data-testid="dr-page" data-running={running ? "true" : "false"} className="grid gap-6 py-2">
      <div className="flex items-center justify-between gap-2 text-xs text-muted">
        <Link href="/deep-research/new" className="hover:text-fg">← New deep research</Link>
        <span data-testid="connection" data-state={connection}>{connection === "live" ? "Live" : connection === "closed" ? "" : connection === "reconnecting" ? "Reconnecting…" : "Connecting…"}</span>
      </div>
      <DrHeader c={live} semiCap={semiCap} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,24rem)]">
        <div className="grid min-w-0 content-start gap-6">
          <HypothesisPanel state={live.state} taskIds={taskIds} onCite={cite} />
          <AnalysisNotebook plan={live.plan} datasets={datasets} />
          <Timeline messages={live.messages} draft={live.draft} verification={checked ? { messageId: checked.message_id, view: checked } : null} />
          <Composer conversationId={id} mode={live.state.researchMode} running={running} steps={live.state.suggestedNextSteps} iterationsDone={replies} onStarted={reconnect} />
        </div>
        <aside className="grid min-w-0 content-start gap-6" aria-label="Discoveries, plan and datasets">
          <DiscoveriesPanel discoveries={live.discoveries} />
          <PlanPanel plan={live.plan} focus={focus} />
          <DatasetsPanel datasets={datasets} />
        </aside>
      </div>
    </div>
  );
}
