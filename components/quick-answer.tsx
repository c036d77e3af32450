"use client";
// Quick answer: a question box; the agent's steps appear live, then the answer with its references.
// The request id lives in the URL (?id=…), so a reload or a link from the list replays the run.
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { useAnswerStream } from "@/hooks/use-answer-stream";
import { AnswerResult } from "./answer-result";
import { AnswerSteps } from "./answer-steps";
import { buttonClass } from "./button";
import { Spinner } from "./spinner";

interface Listed {
  requestId: string;
  question: string;
  status: string;
}

export function QuickAnswer() {
  const router = useRouter();
  const requestId = useSearchParams().get("id");
  const [question, setQuestion] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [recent, setRecent] = useState<Listed[]>([]);
  const { steps, final, error: runError } = useAnswerStream(requestId);
  const running = Boolean(requestId) && !final && !runError;

  useEffect(() => {
    void fetch("/api/v1/answers?limit=10", { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : { answers: [] }))
      .then((b: { answers: Listed[] }) => setRecent(b.answers));
  }, [requestId, final]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/v1/query", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ q: question }) });
      const body = (await res.json()) as { requestId?: string; error?: string };
      if (!res.ok || !body.requestId) throw new Error(body.error ?? `Request failed (${res.status})`);
      router.push(`/answer?id=${encodeURIComponent(body.requestId)}`);
    } catch (err) {
      setError(err instanceof Error ? err.message : "The question could not be sent");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mx-auto w-full max-w-3xl space-y-5 px-4 py-8 sm:px-6">
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
        <button type="submit" data-testid="answer-submit" disabled={busy || !question.trim()} className={buttonClass("primary", "md")}>
          {busy ? <Spinner /> : null} Ask
        </button>
      </form>
      {requestId ? (
        <section className="space-y-3" data-testid="answer-run" data-request-id={requestId}>
          {running ? (
            <p className="flex items-center gap-2 text-sm text-muted" data-testid="answer-running">
              <Spinner /> Searching, reading and reasoning…
            </p>
          ) : null}
          <AnswerSteps steps={steps} />
          {final ? <AnswerResult final={final} /> : null}
          {runError ? (
            <p className="rounded-lg border border-danger/40 p-3 text-sm text-danger" data-testid="answer-run-error">
              {runError}
            </p>
          ) : null}
        </section>
      ) : null}
      {recent.length > 0 ? (
        <section>
          <h2 className="text-sm font-semibold text-muted">Recent questions</h2>
          <ul className="mt-1 space-y-1 text-sm" data-testid="answer-recent">
            {recent.map((a) => (
              <li key={a.requestId}>
                <a href={`/answer?id=${encodeURIComponent(a.requestId)}`} className="hover:underline">
                  {a.question}
                </a>{" "}
                <span className="text-xs text-muted">({a.status})</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
