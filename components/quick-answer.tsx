"use client";
// Quick answer: a question box; the opened run's question, the agent's steps live (with Cancel), then
// the answer first with its references and the steps folded below it. The request id lives in the
// URL (?id=…), so a reload or a link from the list replays the run.
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { useAnswerStream } from "@/hooks/use-answer-stream";
import type { Sources } from "@/lib/client/knowledge-api";
import { SourcePicker, sourcesChosen, WEB_ONLY } from "./knowledge/source-picker";
import { AnswerHistory } from "./answer-history";
import { AnswerResult } from "./answer-result";
import { AnswerSteps } from "./answer-steps";
import { buttonClass } from "./button";
import { Spinner } from "./spinner";
import { StatusBadge } from "./status-badge";

export function QuickAnswer() {
  const router = useRouter();
  const requestId = useSearchParams().get("id");
  const [question, setQuestion] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sources, setSources] = useState<Sources>(WEB_ONLY);
  const { steps, final, error: runError, paused } = useAnswerStream(requestId);
  const running = Boolean(requestId) && !final && !runError;
  // Both belong to one run (its id): a value of another run reads as none, so opening a run resets
  // them without an effect, whose late reset could undo a click that came first.
  const [askedOf, setAskedOf] = useState<{ id: string; question: string } | null>(null);
  const [cancellingOf, setCancellingOf] = useState<string | null>(null);
  const asked = askedOf && askedOf.id === requestId ? askedOf.question : null;
  const cancelling = cancellingOf !== null && cancellingOf === requestId;

  // The opened run's question (after a reload or from the list; a run asked here has it already): the
  // box may hold another one, or none.
  useEffect(() => {
    if (!requestId || asked !== null) return;
    let live = true;
    void fetch(`/api/v1/answers/${encodeURIComponent(requestId)}`)
      .then((res) => (res.ok ? (res.json() as Promise<{ question: string }>) : null))
      .then((body) => {
        if (live && body) setAskedOf({ id: requestId, question: body.question });
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [requestId, asked]);

  async function cancel() {
    if (!requestId) return;
    setCancellingOf(requestId);
    try {
      const res = await fetch(`/api/v1/answers/${encodeURIComponent(requestId)}/cancel`, { method: "POST" });
      if (!res.ok) {
        setCancellingOf(null);
        setError(((await res.json().catch(() => ({}))) as { error?: string }).error ?? `Cancel failed (${res.status})`);
      }
    } catch {
      setCancellingOf(null);
      setError("The cancel could not be sent");
    }
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/v1/query", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ q: question, sources }) });
      const body = (await res.json()) as { requestId?: string; error?: string };
      if (!res.ok || !body.requestId) throw new Error(body.error ?? `Request failed (${res.status})`);
      // The question shows with the run's view, not a moment later above a Cancel button it would move.
      setAskedOf({ id: body.requestId, question: question.trim() });
      router.push(`/answer?id=${encodeURIComponent(body.requestId)}`);
    } catch (err) {
      setError(err instanceof Error ? err.message : "The question could not be sent");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mx-auto w-full max-w-3xl space-y-5">
      <h1 className="text-xl font-semibold tracking-tight">Quick answer</h1>
      <form onSubmit={submit} className="space-y-2">
        <textarea
          data-testid="answer-question"
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          rows={3}
          placeholder="Ask a precise question, e.g. What is the context length of model X?"
          className="w-full rounded-lg border border-border bg-surface p-3 text-[15px]"
        />
        {error ? (
          <p className="text-sm text-danger" data-testid="answer-error">
            {error}
          </p>
        ) : null}
        <SourcePicker value={sources} onChange={setSources} />
        <button type="submit" data-testid="answer-submit" disabled={busy || !question.trim() || !sourcesChosen(sources)} className={buttonClass("primary", "md")}>
          {busy ? <Spinner /> : null} Ask
        </button>
      </form>
      {requestId ? (
        <section className="space-y-3" data-testid="answer-run" data-request-id={requestId}>
          {asked ? (
            <p className="text-[15px] font-medium" data-testid="answer-asked">
              {asked}
            </p>
          ) : null}
          {running ? (
            <div className="flex items-center gap-3">
              <p className="flex items-center gap-2 text-sm text-muted" data-testid="answer-running">
                <StatusBadge status="running" paused={!!paused} title={paused?.reason} testid="answer-status" />
                {paused ? `${paused.reason}. It goes on by itself when the provider is back.` : <><Spinner /> Searching, reading and reasoning…</>}
              </p>
              <button type="button" data-testid="answer-cancel" onClick={cancel} disabled={cancelling} className={buttonClass("secondary", "sm", "ml-auto")}>
                {cancelling ? "Cancelling…" : "Cancel"}
              </button>
            </div>
          ) : null}
          {final ? <AnswerResult final={final} /> : null}
          {runError ? (
            <p className="rounded-lg border border-danger/40 p-3 text-sm text-danger" data-testid="answer-run-error">
              {runError}
            </p>
          ) : null}
          {/* Live while running; once the run ended the answer comes first and the steps fold below it. */}
          <details open={running} data-testid="answer-steps-fold" className="space-y-2">
            <summary className="cursor-pointer text-sm text-muted">
              {steps.length} step{steps.length === 1 ? "" : "s"}
            </summary>
            <AnswerSteps steps={steps} />
          </details>
        </section>
      ) : null}
      <AnswerHistory limit={10} refreshKey={`${requestId}|${final ? "done" : runError ? "ended" : ""}`} />
    </div>
  );
}
