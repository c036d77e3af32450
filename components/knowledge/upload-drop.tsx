"use client";
// Drag-and-drop (or pick) documents into a collection: one upload at a time, the batch's overall
// progress (files done of all, bytes sent of all) above each file's own line: indexed (pages,
// passages) or the server's reason naming the file. The batch's lines stay until cleared; a failed
// upload also stays in the collection's failed uploads (the server's record of it, or — for a file
// the server never read, as one over the size limit — this browser's) until dismissed.
import { useRef, useState } from "react";
import { buttonClass } from "@/components/button";
import { ApiError } from "@/lib/client/api";
import { knowledgeApi } from "@/lib/client/knowledge-api";
import { formatSize } from "@/lib/client/knowledge-format";
import { rememberLocalFailure } from "./failed-uploads";

const ACCEPT = ".pdf,.md,.markdown,.txt,.text,.html,.htm,.docx";

interface Upload {
  key: string;
  name: string;
  bytes: number;
  share: number;
  state: "waiting" | "uploading" | "indexing" | "done" | "failed";
  message: string;
}

/** A failure the server recorded as the collection's failed document: it read the file and could not index it. */
const recordedByServer = (error: unknown) =>
  error instanceof ApiError && (error.code.startsWith("bad_request:document_") || (error.status === 413 && !/KNOWLEDGE_MAX_FILE_BYTES/.test(error.message)));

export function UploadDrop({ collectionId, onUploaded }: { collectionId: string; onUploaded: () => void }) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const update = (key: string, patch: Partial<Upload>) => setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...patch } : u)));

  const send = async (files: File[]) => {
    if (files.length === 0) return;
    const stamp = Date.now();
    const batch: Upload[] = files.map((f, i) => ({ key: `${stamp}-${i}-${f.name}`, name: f.name, bytes: f.size, share: 0, state: "waiting", message: "" }));
    setUploads((all) => [...all.filter((u) => u.state === "waiting" || u.state === "uploading" || u.state === "indexing"), ...batch]);
    // One at a time: the server parses each before it answers, and the 2-core default deserves it.
    for (const [i, file] of files.entries()) {
      const { key } = batch[i];
      update(key, { state: "uploading" });
      try {
        const doc = await knowledgeApi.upload(collectionId, file, (share) => update(key, { share, state: share >= 1 ? "indexing" : "uploading" }));
        const where = doc.pageCount ? `${doc.pageCount} page${doc.pageCount === 1 ? "" : "s"}, ` : "";
        const encoding = doc.encoding && doc.encoding !== "UTF-8" ? `, read as ${doc.encoding}` : "";
        update(key, { share: 1, state: "done", message: `indexed: ${where}${doc.chunkCount} passage${doc.chunkCount === 1 ? "" : "s"}${encoding}` });
      } catch (error) {
        const message = error instanceof Error ? error.message : "upload failed";
        update(key, { share: 1, state: "failed", message });
        if (!recordedByServer(error)) rememberLocalFailure(collectionId, { name: file.name, bytes: file.size, error: message });
      }
      onUploaded();
    }
  };

  const active = uploads.filter((u) => u.state !== "done" && u.state !== "failed");
  const done = uploads.filter((u) => u.state === "done").length;
  const failed = uploads.filter((u) => u.state === "failed").length;
  const totalBytes = uploads.reduce((n, u) => n + u.bytes, 0);
  const sentBytes = uploads.reduce((n, u) => n + u.bytes * (u.state === "done" || u.state === "failed" ? 1 : u.share), 0);
  const finished = done + failed;

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
        className={`rounded-lg border-2 border-dashed p-5 text-center text-sm ${over ? "border-accent bg-accent-soft/40" : "border-border text-muted"}`}
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
        <section className="flex flex-col gap-2 rounded-lg border border-border p-3" aria-label="Uploads" data-testid="upload-batch">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <p className="min-w-0 flex-1" role="status" data-testid="upload-summary">
              {active.length > 0 ? `Uploading ${Math.min(finished + 1, uploads.length)} of ${uploads.length} files` : `${uploads.length} file${uploads.length === 1 ? "" : "s"} uploaded`}
              {" · "}
              {formatSize(Math.round(sentBytes))} of {formatSize(totalBytes)}
              {done ? ` · ${done} indexed` : ""}
              {failed ? ` · ${failed} failed` : ""}
            </p>
            {active.length === 0 ? (
              <button type="button" className={buttonClass("ghost", "sm")} onClick={() => setUploads([])} data-testid="upload-clear">
                Clear
              </button>
            ) : null}
          </div>
          <progress max={Math.max(1, totalBytes)} value={sentBytes} className="h-2 w-full" aria-label="Overall upload progress" data-testid="upload-progress" />
          {/* Scrolls when long: focusable, so that a keyboard can scroll it too. */}
          <ul className="flex max-h-72 flex-col gap-1 overflow-y-auto text-sm" data-testid="upload-list" tabIndex={0} aria-label="Each file's result">
            {uploads.map((u) => (
              <li key={u.key} className="flex flex-wrap items-center gap-x-2" data-testid="upload-item" data-state={u.state}>
                <span className="min-w-0 flex-1 truncate" title={u.name}>
                  {u.name}
                </span>
                <span className="text-xs text-muted">{formatSize(u.bytes)}</span>
                {u.state === "uploading" ? <progress max={1} value={u.share} className="w-20" aria-label={`${u.name} upload progress`} /> : null}
                <span className={`basis-full break-words text-xs sm:basis-auto ${u.state === "failed" ? "text-danger" : "text-muted"}`}>
                  {u.state === "waiting" ? "waiting" : u.state === "uploading" ? `${Math.round(u.share * 100)}%` : u.state === "indexing" ? "indexing…" : u.message}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
