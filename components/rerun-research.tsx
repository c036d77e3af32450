"use client";
// Re-run: a new research with the same prompt, questions and answers, at the same or another
// depth × breadth. Opens the new research when it has started; the original stays as it is.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useRerunResearch } from "@/hooks/use-research-mutations";
import { buttonClass } from "./button";
import { Icon } from "./icons";
import { NumberChoice } from "./number-choice";
import { EstimateLine } from "./research-estimate";
import { useResearch } from "./research-context";
import { Spinner } from "./spinner";

export function RerunResearch({ disabled }: { disabled: boolean }) {
  const { live, limits } = useResearch();
  const r = live.research;
  const router = useRouter();
  const rerun = useRerunResearch();
  const [open, setOpen] = useState(false);
  const [depth, setDepth] = useState(Math.min(r.depth ?? 2, limits.maxDepth));
  const [breadth, setBreadth] = useState(Math.min(r.breadth ?? 3, limits.maxBreadth));

  if (!open) {
    return (
      <button type="button" data-testid="rerun-open" aria-expanded={false} aria-disabled={disabled} className={buttonClass("secondary", "md", disabled ? "opacity-70" : "")} onClick={() => !disabled && setOpen(true)}>
        <Icon name="play" className="size-3.5" /> Re-run…
      </button>
    );
  }
  return (
    <form
      data-testid="rerun-form"
      className="mt-1 w-full space-y-3 rounded-xl border border-border bg-surface p-3.5"
      onSubmit={(ev) => {
        ev.preventDefault();
        if (rerun.isPending) return;
        rerun.mutate({ id: r.research_id, depth, breadth }, { onSuccess: (started) => router.push(`/research/${started.research_id}`) });
      }}
    >
      <p className="text-sm">
        <span className="font-medium">Re-run with the same answers</span>{" "}
        <span className="text-muted">— a new research with this prompt, its questions and your answers. This one stays as it is.</span>
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <NumberChoice label="Depth" value={depth} min={1} max={limits.maxDepth} onChange={setDepth} testid="rerun-depth" />
        <NumberChoice label="Breadth" value={breadth} min={1} max={limits.maxBreadth} onChange={setBreadth} testid="rerun-breadth" />
      </div>
      <EstimateLine depth={depth} breadth={breadth} ranges={limits.estimates[depth - 1]?.[breadth - 1]} testid="rerun-estimate" />
      {rerun.error ? (
        <p role="alert" className="text-sm text-danger" data-testid="rerun-error">
          {rerun.error.message}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" data-testid="rerun-submit" className={buttonClass("primary", "md")} aria-disabled={rerun.isPending}>
          {rerun.isPending ? <Spinner className="size-3.5" /> : <Icon name="play" className="size-3.5" />}
          {rerun.isPending ? "Starting…" : `Re-run at ${depth} × ${breadth}`}
        </button>
        <button type="button" className={buttonClass("ghost", "md")} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
