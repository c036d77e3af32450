"use client";
// The optional clarification: questions one at a time, then the proposed plan (objective and initial
// tasks) to Approve, or to Revise with feedback (a new plan replaces it; the server keeps history).
import { useEffect, useRef, useState } from "react";
import { buttonClass } from "../button";
import { drApi, type ClarifyQuestion, type ProposedPlan } from "@/lib/client/deep-research-api";

type Props = { sessionId: string; questions: ClarifyQuestion[]; onApproved: (sessionId: string) => Promise<void>; onCancel: () => void };

export function ClarifyWizard({ sessionId, questions, onApproved, onCancel }: Props) {
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<string[]>(() => questions.map(() => ""));
  const [plan, setPlan] = useState<ProposedPlan | null>(null);
  const [feedback, setFeedback] = useState("");
  const [revising, setRevising] = useState(false);
  const [busy, setBusy] = useState(false);
  // Approved once on the server: a retry (the start failed) only starts again.
  const [approved, setApproved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [index, plan]);

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try { await fn(); } catch (e) { setError(e instanceof Error ? e.message : String(e)); } finally { setBusy(false); }
  };

  if (plan) {
    return (
      <section aria-labelledby="dr-plan-title" data-testid="dr-proposed-plan" className="grid gap-3 rounded-xl border border-border bg-surface p-4">
        <h2 id="dr-plan-title" ref={heading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">Proposed plan</h2>
        <p className="text-sm"><span className="text-muted">Objective: </span><span data-testid="dr-plan-objective">{plan.objective}</span></p>
        <ol className="grid list-decimal gap-1 pl-5 text-sm" data-testid="dr-plan-tasks">
          {plan.initialTasks.map((t, i) => <li key={i}><span className="text-xs font-medium uppercase text-subtle">{t.type}</span> {t.objective}</li>)}
        </ol>
        {revising ? (
          <div className="grid gap-2">
            <label htmlFor="dr-feedback" className="text-sm font-medium">What should change?</label>
            <textarea id="dr-feedback" data-testid="dr-feedback" rows={3} value={feedback} onChange={(e) => setFeedback(e.target.value)} className="w-full rounded-lg border border-border bg-bg px-3 py-2 text-sm focus:border-accent focus:outline-none" />
          </div>
        ) : null}
        {error ? <p role="alert" className="text-sm text-danger">{error}</p> : null}
        <div className="flex flex-wrap justify-end gap-2">
          {revising ? (
            <>
              <button type="button" className={buttonClass("ghost", "md")} onClick={() => setRevising(false)} disabled={busy}>Cancel</button>
              <button type="button" data-testid="dr-send-feedback" className={buttonClass("secondary", "md")} disabled={busy || !feedback.trim()}
                onClick={() => run(async () => { const r = await drApi.feedback(sessionId, false, feedback.trim()); if (r.plan) setPlan(r.plan); setFeedback(""); setRevising(false); })}>
                {busy ? "Revising…" : "Revise the plan"}
              </button>
            </>
          ) : (
            <>
              <button type="button" data-testid="dr-revise" className={buttonClass("secondary", "md")} onClick={() => setRevising(true)} disabled={busy || approved}>Revise with feedback</button>
              <button type="button" data-testid="dr-approve" className={buttonClass("primary", "md")} disabled={busy}
                onClick={() => run(async () => { if (!approved) { await drApi.feedback(sessionId, true); setApproved(true); } await onApproved(sessionId); })}>
                {busy ? "Starting…" : "Approve and start"}
              </button>
            </>
          )}
        </div>
      </section>
    );
  }

  const q = questions[index];
  const last = index === questions.length - 1;
  return (
    <section aria-labelledby="dr-q-title" data-testid="dr-clarify" className="grid gap-3 rounded-xl border border-border bg-surface p-4">
      <p className="text-xs text-muted" data-testid="dr-q-progress">Question {index + 1} of {questions.length} · {q.category}</p>
      <h2 id="dr-q-title" ref={heading} tabIndex={-1} className="text-base font-semibold focus:outline-none">{q.question}</h2>
      {q.context ? <p className="text-sm text-muted">{q.context}</p> : null}
      <label htmlFor="dr-answer" className="sr-only">Your answer</label>
      <textarea id="dr-answer" data-testid="dr-answer" rows={3} value={answers[index]} onChange={(e) => setAnswers(answers.map((a, i) => (i === index ? e.target.value : a)))}
        className="w-full rounded-lg border border-border bg-bg px-3 py-2 text-sm focus:border-accent focus:outline-none" placeholder="Your answer (optional)" />
      {error ? <p role="alert" className="text-sm text-danger">{error}</p> : null}
      <div className="flex flex-wrap justify-between gap-2">
        <button type="button" className={buttonClass("ghost", "md")} onClick={index === 0 ? onCancel : () => setIndex(index - 1)} disabled={busy}>{index === 0 ? "Skip clarification" : "Back"}</button>
        <button type="button" data-testid="dr-q-next" className={buttonClass("primary", "md")} disabled={busy}
          onClick={() => last
            ? run(async () => {
              const given = answers.map((answer, questionIndex) => ({ questionIndex, answer: answer.trim() || "No preference." }));
              setPlan((await drApi.answers(sessionId, given)).plan);
            })
            : setIndex(index + 1)}>
          {last ? (busy ? "Proposing a plan…" : "See the plan") : "Next"}
        </button>
      </div>
    </section>
  );
}
