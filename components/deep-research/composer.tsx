"use client";
// Suggested next steps and the box to answer or steer: a new start on this conversation. In
// steering mode the box takes the focus each time an iteration ends.
import { memo, useEffect, useRef, useState } from "react";
import { buttonClass } from "../button";
import { drApi } from "@/lib/client/deep-research-api";
import type { DrStep } from "@/lib/client/deep-research-state";

export const Composer = memo(function Composer({ conversationId, mode, running, steps, iterationsDone, onStarted }: {
  conversationId: string; mode: string; running: boolean; steps: DrStep[]; iterationsDone: number; onStarted: () => void;
}) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    // Without scrolling: the page opens at its top (the title), not at the reply box far below it.
    if (mode === "steering" && !running && iterationsDone > 0) box.current?.focus({ preventScroll: true });
  }, [mode, running, iterationsDone]);

  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!text.trim()) { setError("Write a message first."); return; }
    setBusy(true);
    setError(null);
    try {
      await drApi.start({ message: text.trim(), conversationId });
      setText("");
      onStarted();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="dr-next-h" className="rounded-xl border border-border bg-surface px-4 py-3" data-testid="dr-composer">
      <h2 id="dr-next-h" className="text-sm font-semibold uppercase tracking-wide text-subtle">Next steps</h2>
      {steps.length ? (
        <ul data-testid="dr-next-steps" className="mt-2 grid gap-1 text-sm">
          {steps.map((s, i) => (
            <li key={i} className="flex gap-2">
              <span className="shrink-0 text-xs font-medium uppercase text-subtle">{s.type === "ANALYSIS" ? "Analysis" : "Literature"}</span>
              <button type="button" className="min-w-0 break-words text-left hover:text-accent" onClick={() => { setText(s.objective ?? ""); box.current?.focus(); }} title="Use as the message">
                {s.objective}
              </button>
            </li>
          ))}
        </ul>
      ) : <p className="mt-2 text-sm text-muted">No suggested steps{running ? " yet" : ""}.</p>}
      <form onSubmit={send} className="mt-3 grid gap-2">
        <label htmlFor="dr-reply" className="text-sm font-medium">{mode === "steering" ? "Steer the next iteration" : "Answer or steer"}</label>
        <textarea id="dr-reply" ref={box} data-testid="dr-reply" rows={3} value={text} onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => { if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) void send(e); }}
          className="w-full resize-y rounded-lg border border-border bg-bg px-3 py-2 text-sm focus:border-accent focus:outline-none"
          placeholder={running ? "The loop is running: your message starts once it stops" : "What should it look at next?"} aria-describedby={error ? "dr-reply-err" : undefined} />
        {error ? <p id="dr-reply-err" role="alert" className="text-sm text-danger">{error}</p> : null}
        <div className="flex justify-end">
          <button type="submit" data-testid="dr-send" className={buttonClass("primary", "md")} disabled={busy || running}>{busy ? "Sending…" : "Send"}</button>
        </div>
      </form>
    </section>
  );
});
