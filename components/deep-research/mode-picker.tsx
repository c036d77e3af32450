"use client";
// The research mode: a radio group, each mode with a one-line explanation and its iteration cap.
import type { DrMode } from "@/lib/client/deep-research-state";

export function modes(semiCap: number): { id: DrMode; label: string; help: string }[] {
  return [
    { id: "semi-autonomous", label: "Semi-autonomous", help: `Runs up to ${semiCap} iterations per message, then reports back.` },
    { id: "fully-autonomous", label: "Fully autonomous", help: "Keeps going until it judges the objective met (at most 20 iterations)." },
    { id: "steering", label: "Steering", help: "One iteration at a time; you steer before each next one (1 per message)." },
  ];
}

export function ModePicker({ value, onChange, semiCap }: { value: DrMode; onChange: (m: DrMode) => void; semiCap: number }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Mode</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {modes(semiCap).map((m) => (
          <label key={m.id} data-testid={`mode-${m.id}`} className={`flex cursor-pointer gap-2 rounded-lg border px-3 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${value === m.id ? "border-accent bg-accent/5" : "border-border bg-surface hover:bg-surface-2"}`}>
            <input type="radio" name="mode" value={m.id} checked={value === m.id} onChange={() => onChange(m.id)} className="mt-1 accent-[var(--accent)]" />
            <span>
              <span className="block font-medium">{m.label}</span>
              <span className="block text-xs text-muted">{m.help}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
