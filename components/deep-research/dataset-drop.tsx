"use client";
// Optional dataset files: drop them or pick them; each listed with its size and a remove button.
import { useRef, useState } from "react";
import { Icon } from "../icons";
import { formatBytes } from "@/lib/client/deep-research-files";

export function DatasetDrop({ files, onChange }: { files: File[]; onChange: (f: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const add = (list: FileList | null) => { if (list?.length) onChange([...files, ...Array.from(list)]); };
  const total = files.reduce((s, f) => s + f.size, 0);
  return (
    <div className="grid gap-2">
      <span id="dr-files-label" className="text-sm font-medium">Datasets <span className="font-normal text-muted">(optional)</span></span>
      <div
        data-testid="dr-dropzone"
        onDragOver={(e) => { e.preventDefault(); setOver(true); }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => { e.preventDefault(); setOver(false); add(e.dataTransfer.files); }}
        className={`flex flex-col items-center gap-1 rounded-lg border border-dashed px-3 py-4 text-center text-sm ${over ? "border-accent bg-accent/5" : "border-border"}`}
      >
        <span className="text-muted">Drop files here, or</span>
        <button type="button" className="text-accent underline-offset-2 hover:underline" onClick={() => input.current?.click()} aria-describedby="dr-files-label">choose files</button>
        <input ref={input} type="file" multiple className="sr-only" tabIndex={-1} aria-hidden="true" data-testid="dr-file-input" onChange={(e) => { add(e.target.files); e.target.value = ""; }} />
      </div>
      {files.length ? (
        <ul className="grid gap-1 text-sm" data-testid="dr-files">
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`} className="flex items-center gap-2 rounded-md bg-surface-2 px-2 py-1">
              <Icon name="file" className="size-3.5 shrink-0 text-muted" />
              <span className="min-w-0 flex-1 truncate">{f.name}</span>
              <span className="tabular-nums text-muted">{formatBytes(f.size)}</span>
              <button type="button" aria-label={`Remove ${f.name}`} className="text-muted hover:text-danger" onClick={() => onChange(files.filter((_, j) => j !== i))}>
                <Icon name="x" className="size-3.5" />
              </button>
            </li>
          ))}
          <li className="text-xs text-muted">Total {formatBytes(total)}</li>
        </ul>
      ) : null}
    </div>
  );
}
