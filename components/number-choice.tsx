"use client";
// A row of numbered choices (a radio group that arrow keys move through).
import { useRef } from "react";

interface Props {
  label: string;
  hint?: string;
  value: number;
  min: number;
  max: number;
  onChange: (n: number) => void;
  testid: string;
  errorId?: string;
  invalid?: boolean;
}

export function NumberChoice({ label, hint, value, min, max, onChange, testid, errorId, invalid }: Props) {
  const options = Array.from({ length: max - min + 1 }, (_, i) => min + i);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const labelId = `${testid}-label`;

  function onKeyDown(e: React.KeyboardEvent, i: number) {
    let next = i;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = Math.min(options.length - 1, i + 1);
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = Math.max(0, i - 1);
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = options.length - 1;
    else return;
    e.preventDefault();
    onChange(options[next]);
    refs.current[next]?.focus();
  }

  return (
    <div>
      <div className="flex items-baseline justify-between gap-2">
        <span id={labelId} className="text-sm font-medium">{label}</span>
        {hint ? <span className="text-xs text-subtle">{hint}</span> : null}
      </div>
      <div
        role="radiogroup"
        aria-labelledby={labelId}
        aria-describedby={errorId}
        aria-invalid={invalid || undefined}
        data-testid={testid}
        data-value={value}
        className={`mt-2 flex gap-1 rounded-lg border bg-surface p-1 ${invalid ? "border-danger" : "border-border"}`}
      >
        {options.map((n, i) => (
          <button
            key={n}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="radio"
            aria-checked={n === value}
            tabIndex={n === value ? 0 : -1}
            data-testid={`${testid}-${n}`}
            onClick={() => onChange(n)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={`h-8 min-w-0 flex-1 rounded-md text-sm font-medium tabular-nums transition-colors ${
              n === value ? "bg-accent text-accent-fg shadow-sm" : n < value ? "bg-accent-soft text-accent" : "text-muted hover:bg-surface-2 hover:text-fg"
            }`}
          >
            {n}
          </button>
        ))}
      </div>
    </div>
  );
}
