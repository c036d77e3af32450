"use client";
// After a research: ask a follow-up question that builds on what it found — on all of it, or going
// deeper on one branch — at its own depth and breadth, or run it again at another depth × breadth;
// and the links between a research and its follow-ups, both ways.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { useFollowUp } from "@/hooks/use-research-mutations";
import { ApiError } from "@/lib/client/api";
import { buttonClass } from "./button";
import { FieldError } from "./field-error";
import { NumberChoice } from "./number-choice";
import { RerunResearch } from "./rerun-research";
import { useResearch } from "./research-context";
import { StatusBadge } from "./status-badge";

export function FollowUpPanel() {
  const { live } = useResearch();
  const r = live.research;
  const ended = r.status === "completed" || r.status === "failed" || r.status === "cancelled";
  const canFollowUp = ended && r.successful_scraped_websites.some((w) => w.item_count > 0);
  // A failed or cancelled research offers its re-run beside resume (research-stopped.tsx).
  const canRerun = r.status === "completed";
  if (!r.follows && r.follow_ups.length === 0 && !canFollowUp && !canRerun) return null;
  const queryText = (id: string | null) => (id ? r.serp_queries.find((q) => q.query_id === id)?.text : undefined);

  return (
    <section aria-labelledby="follow-up-heading" className="mt-8 space-y-4 rounded-2xl border border-border bg-surface p-4 sm:p-6" data-testid="follow-up-panel">
      <h2 id="follow-up-heading" className="text-base font-semibold">Follow-ups</h2>
      {r.follows ? (
        <p className="text-sm text-muted" data-testid="follows">
          Follows up on{" "}
          <Link href={`/research/${r.follows.research_id}/report`} className="font-medium text-fg underline underline-offset-2">
            {r.follows.initial_prompt}
          </Link>
          {r.follows.query_id ? " (one branch of it)" : ""}.
        </p>
      ) : null}
      {r.follow_ups.length > 0 ? (
        <ul className="space-y-2" data-testid="follow-up-list">
          {r.follow_ups.map((f) => (
            <li key={f.research_id} className="flex flex-wrap items-center gap-2 text-sm">
              <StatusBadge status={f.status} />
              <Link href={`/research/${f.research_id}`} className="font-medium underline underline-offset-2">
                {f.initial_prompt}
              </Link>
              {f.query_id ? <span className="text-muted">— deeper on “{queryText(f.query_id) ?? "a branch"}”</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {canFollowUp ? <FollowUpForm /> : null}
      {canRerun ? (
        <div className="space-y-2 border-t border-border pt-4" data-testid="rerun-completed">
          <p className="text-sm font-medium">Run it again</p>
          <p className="text-xs text-subtle">The same prompt and answers, at another depth × breadth.</p>
          <RerunResearch disabled={false} />
        </div>
      ) : null}
    </section>
  );
}

function FollowUpForm() {
  const { live, selectedQueryId } = useResearch();
  const r = live.research;
  const router = useRouter();
  const followUp = useFollowUp();
  const ids = useId();
  const [question, setQuestion] = useState("");
  const [branch, setBranch] = useState(selectedQueryId ?? "");
  const [depth, setDepth] = useState(1);
  const [breadth, setBreadth] = useState(3);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    if (!question.trim()) {
      setErrors({ question: "Ask the question to follow up with." });
      return;
    }
    setErrors({});
    try {
      const res = await followUp.mutateAsync({ id: r.research_id, question: question.trim(), depth, breadth, ...(branch ? { query_id: branch } : {}) });
      router.push(`/research/${res.research_id}`);
    } catch (error) {
      const field = error instanceof ApiError && error.field && ["question", "query_id", "depth", "breadth"].includes(error.field) ? error.field : "general";
      setErrors({ [field]: error instanceof Error ? error.message : "Something went wrong." });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" data-testid="follow-up-form">
      <div>
        <label htmlFor={`${ids}-q`} className="text-sm font-medium">Ask a follow-up question</label>
        <p className="text-xs text-subtle">A new research that builds on what this one found.</p>
        <textarea
          id={`${ids}-q`}
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          rows={2}
          maxLength={10_000}
          aria-invalid={!!errors.question}
          aria-describedby={errors.question ? `${ids}-q-error` : undefined}
          className="mt-2 w-full rounded-lg border border-border bg-bg px-3 py-2 text-[15px] focus:border-accent focus:outline-none"
          data-testid="follow-up-question"
        />
        <FieldError id={`${ids}-q-error`} message={errors.question} />
      </div>
      <div>
        <label htmlFor={`${ids}-b`} className="text-sm font-medium">Build on</label>
        <select
          id={`${ids}-b`}
          value={branch}
          onChange={(e) => setBranch(e.target.value)}
          aria-invalid={!!errors.query_id}
          className="mt-2 block w-full rounded-lg border border-border bg-bg px-3 py-2 text-sm"
          data-testid="follow-up-branch"
        >
          <option value="">Everything this research found</option>
          {r.serp_queries.map((q) => (
            <option key={q.query_id} value={q.query_id}>
              {`${"· ".repeat(q.depth - 1)}Go deeper on “${q.text}”`}
            </option>
          ))}
        </select>
        <FieldError id={`${ids}-b-error`} message={errors.query_id} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <NumberChoice label="Depth" value={depth} min={1} max={3} onChange={setDepth} testid="follow-up-depth" />
        <NumberChoice label="Breadth" value={breadth} min={1} max={5} onChange={setBreadth} testid="follow-up-breadth" />
      </div>
      <FieldError id={`${ids}-error`} message={errors.general ?? errors.depth ?? errors.breadth} testid="follow-up-error" />
      <button type="submit" disabled={followUp.isPending} className={buttonClass("primary", "md")} data-testid="follow-up-start">
        {followUp.isPending ? "Starting…" : "Start the follow-up"}
      </button>
    </form>
  );
}
