"use client";
// Drag-and-drop (or pick) documents into a collection: one upload per file, each with its progress,
// then its status: indexed (pages, passages) or the server's error naming the file.
import { useRef, useState } from "react";
import { knowledgeApi } from "@/lib/client/knowledge-api";

const ACCEPT = ".pdf,.md,.markdown,.txt,.text,.html,.htm,.docx";

interface Upload {
  key: string;
  name: string;
  share: number;
  state: "uploading" | "indexing" | "done" | "failed";
  message: string;
}

export function UploadDrop({ collectionId, onUploaded }: { collectionId: string; onUploaded: () => void }) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const update = (key: string, patch: Partial<Upload>) => setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...patch } : u)));

  const send = async (files: File[]) => {
    const batch = files.map((f, i) => ({ key: `${Date.now()}-${i}-${f.name}`, name: f.name, share: 0, state: "uploading" as const, message: "" }));
    setUploads((all) => [...batch, ...all]);
    // One at a time: the server parses each before it answers, and the 2-core default deserves it.
    for (const [i, file] of files.entries()) {
      const { key } = batch[i];
      try {
        const doc = await knowledgeApi.upload(collectionId, file, (share) => update(key, { share, state: share >= 1 ? "indexing" : "uploading" }));
        const where = doc.pageCount ? `${doc.pageCount} pages, ` : "";
        update(key, { share: 1, state: "done", message: `indexed: ${where}${doc.chunkCount} passages` });
        onUploaded();
      } catch (error) {
        update(key, { state: "failed", message: error instanceof Error ? error.message : "upload failed" });
      }
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <div
        role="button"
        tabIndex={0}
        data-testid="upload-drop"
        onClick={() => input.current?.click()}
        onKeyDown={(e) => (e.key === "Enter" || e.key === " ") && input.current?.click()}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          void send(Array.from(e.dataTransfer.files));
        }}
        className={`rounded-lg border-2 border-dashed p-6 text-center text-sm ${over ? "border-accent bg-accent-soft/40" : "border-border text-muted"}`}
      >
        Drop PDF, Markdown, text, HTML or DOCX files here, or click to choose them.
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          className="hidden"
          data-testid="upload-input"
          onChange={(e) => {
            void send(Array.from(e.target.files ?? []));
            e.target.value = "";
          }}
        />
      </div>
      {uploads.length > 0 ? (
        <ul className="flex flex-col gap-1 text-sm" aria-live="polite" data-testid="upload-list">
          {uploads.map((u) => (
            <li key={u.key} className="flex items-center gap-2" data-testid="upload-item" data-state={u.state}>
              <span className="min-w-0 flex-1 truncate">{u.name}</span>
              {u.state === "uploading" ? <progress max={1} value={u.share} className="w-24" aria-label={`${u.name} upload progress`} /> : null}
              <span className={u.state === "failed" ? "text-danger" : "text-muted"}>{u.state === "uploading" ? `${Math.round(u.share * 100)}%` : u.state === "indexing" ? "indexing…" : u.message}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
