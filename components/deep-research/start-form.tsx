"use client";
// Start a Deep Research conversation: the question, the mode, optional datasets (multipart), then
// either start now or clarify first (questions → proposed plan → approve) and start from the session.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "../button";
import { drApi, type ClarifyQuestion, type UploadProgress } from "@/lib/client/deep-research-api";
import { formatBytes } from "@/lib/client/deep-research-files";
import type { DrMode } from "@/lib/client/deep-research-state";
import { ClarifyWizard } from "./clarify-wizard";
import { DatasetDrop } from "./dataset-drop";
import { ModePicker } from "./mode-picker";
import { SourcePicker, WEB_ONLY } from "../knowledge/source-picker";
import type { Sources } from "@/lib/client/knowledge-api";

export function StartForm({ semiCap }: { semiCap: number }) {
  const router = useRouter();
  const [question, setQuestion] = useState("");
  const [mode, setMode] = useState<DrMode>("semi-autonomous");
  const [files, setFiles] = useState<File[]>([]);
  const [sources, setSources] = useState<Sources>(WEB_ONLY);
  const [clarify, setClarify] = useState<{ sessionId: string; questions: ClarifyQuestion[] } | null>(null);
  const [busy, setBusy] = useState<"start" | "clarify" | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  // The datasets' upload while a start with files is sent (null otherwise).
  const [progress, setProgress] = useState<UploadProgress | null>(null);

  const start = async (clarificationSessionId?: string) => {
    if (files.length > 0) setProgress({ loaded: 0, total: files.reduce((sum, f) => sum + f.size, 0) });
    try {
      const r = await drApi.start({ message: question.trim(), researchMode: mode, files, sources, ...(clarificationSessionId ? { clarificationSessionId } : {}) }, setProgress);
      router.push(`/deep-research/${r.conversationId}`);
    } finally {
      setProgress(null);
    }
  };
  const act = async (kind: "start" | "clarify") => {
    if (!question.trim()) { setError({ message: "Write your research question first.", field: "message" }); return; }
    setBusy(kind);
    setError(null);
    try {
      if (kind === "start") await start();
      else {
        const r = await drApi.questions(question.trim(), files.map((f) => f.name));
        setClarify({ sessionId: r.sessionId, questions: r.questions });
        setBusy(null);
      }
    } catch (e) {
      setError({ message: e instanceof Error ? e.message : String(e), field: (e as { field?: string }).field });
      setBusy(null);
    }
  };

  return (
    <div className="mx-auto grid max-w-3xl gap-5 py-4" data-testid="dr-start">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">New deep research</h1>
        <p className="mt-1 text-sm text-muted">An agent that plans, reads the literature, forms hypotheses and records discoveries with their evidence — over many iterations, with you steering.</p>
      </div>
      {progress ? <UploadBar progress={progress} /> : null}
      {clarify ? (
        <ClarifyWizard sessionId={clarify.sessionId} questions={clarify.questions} onApproved={(id) => start(id)} onCancel={() => setClarify(null)} />
      ) : (
        <form className="grid gap-5" onSubmit={(e) => { e.preventDefault(); void act("start"); }}>
          <div className="grid gap-2">
            <label htmlFor="dr-question" className="text-sm font-medium">Research question</label>
            <textarea id="dr-question" data-testid="dr-question" rows={4} value={question} onChange={(e) => setQuestion(e.target.value)} aria-invalid={error?.field === "message" || undefined}
              aria-describedby={error ? "dr-start-err" : undefined}
              className="w-full resize-y rounded-lg border border-border bg-surface px-3 py-2 text-[15px] focus:border-accent focus:outline-none" placeholder="What do you want to find out?" />
          </div>
          <ModePicker value={mode} onChange={setMode} semiCap={semiCap} />
          <DatasetDrop files={files} onChange={setFiles} />
          <SourcePicker value={sources} onChange={setSources} />
          {error ? <p id="dr-start-err" role="alert" className="text-sm text-danger" data-testid="dr-start-error">{error.message}</p> : null}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" data-testid="dr-clarify-first" className={buttonClass("secondary", "lg")} disabled={busy !== null} onClick={() => act("clarify")}>
              {busy === "clarify" ? "Preparing questions…" : "Clarify first"}
            </button>
            <button type="submit" data-testid="dr-start-now" className={buttonClass("primary", "lg")} disabled={busy !== null}>{busy === "start" ? "Starting…" : "Start research"}</button>
          </div>
        </form>
      )}
    </div>
  );
}

/** The datasets' upload: a progress bar with the share and bytes sent; "Starting…" once all is sent. */
function UploadBar({ progress: { loaded, total } }: { progress: UploadProgress }) {
  const percent = total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0;
  const sent = total > 0 && loaded >= total;
  const label = sent ? "Uploaded; starting the research…" : `Uploading datasets: ${percent}% · ${formatBytes(loaded)} of ${formatBytes(total)}`;
  return (
    <section className="grid gap-1.5 rounded-lg border border-border p-3 text-sm" aria-label="Dataset upload" data-testid="dr-upload">
      <p role="status" aria-live="polite" className="tabular-nums" data-testid="dr-upload-status">{label}</p>
      <div role="progressbar" aria-label="Dataset upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={`${percent}%, ${formatBytes(loaded)} of ${formatBytes(total)}`}
        className="h-2 w-full overflow-hidden rounded-full bg-border" data-testid="dr-upload-progress">
        <div className="h-full bg-accent transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </section>
  );
}
