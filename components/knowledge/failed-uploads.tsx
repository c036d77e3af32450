"use client";
// A collection's failed uploads, each with its reason, until dismissed — after a reload too. The
// server keeps the record of every file it read and could not index (status failed: dismissing
// removes it); a file it never read (over the size limit, or the connection dropped) is remembered by
// this browser (localStorage), the only place that knows of it.
import { useQuery } from "@tanstack/react-query";
import { useState, useSyncExternalStore } from "react";
import { buttonClass } from "@/components/button";
import { knowledgeApi } from "@/lib/client/knowledge-api";
import { formatSize } from "@/lib/client/knowledge-format";

interface LocalFailure {
  key: string;
  name: string;
  bytes: number;
  error: string;
  at: string;
}

const storageKey = (collectionId: string) => `quarry:failed-uploads:${collectionId}`;
const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; value: LocalFailure[] }>();

function readLocal(collectionId: string): LocalFailure[] {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(storageKey(collectionId));
  } catch {
    return [];
  }
  const hit = cache.get(collectionId);
  if (hit && hit.raw === raw) return hit.value;
  let value: LocalFailure[] = [];
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed)) value = parsed.filter((f): f is LocalFailure => !!f && typeof f.key === "string" && typeof f.name === "string" && typeof f.error === "string");
  } catch {
    // a damaged entry: nothing to show
  }
  cache.set(collectionId, { raw, value });
  return value;
}

function writeLocal(collectionId: string, value: LocalFailure[]): void {
  try {
    if (value.length) window.localStorage.setItem(storageKey(collectionId), JSON.stringify(value.slice(-200)));
    else window.localStorage.removeItem(storageKey(collectionId));
  } catch {
    // storage full or refused: the failure still shows in this session's upload list
  }
  for (const l of listeners) l();
}

export function rememberLocalFailure(collectionId: string, failure: { name: string; bytes: number; error: string }): void {
  const at = new Date().toISOString();
  writeLocal(collectionId, [...readLocal(collectionId), { ...failure, at, key: `${at}-${failure.name}` }]);
}

const NONE: LocalFailure[] = [];
const FOLDED = 3;

function useLocalFailures(collectionId: string): LocalFailure[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      const onStorage = (e: StorageEvent) => e.key === storageKey(collectionId) && listener();
      window.addEventListener("storage", onStorage);
      return () => {
        listeners.delete(listener);
        window.removeEventListener("storage", onStorage);
      };
    },
    () => readLocal(collectionId),
    () => NONE,
  );
}

export function FailedUploads({ collectionId, failedCount, onChanged }: { collectionId: string; failedCount: number; onChanged: () => void }) {
  const local = useLocalFailures(collectionId);
  const server = useQuery({
    queryKey: ["documents", collectionId, "failed", failedCount],
    queryFn: () => knowledgeApi.documents(collectionId, { page: 1, limit: 50, sort: "added", order: "desc", status: "failed" }),
    enabled: failedCount > 0,
  });
  const [expanded, setExpanded] = useState(false);
  const recorded = failedCount > 0 ? (server.data?.documents ?? []) : [];
  const total = local.length + (failedCount > 0 ? failedCount : 0);
  if (total === 0) return null;
  // A long list is folded to its first few: the page is for the documents.
  const shownRecorded = expanded ? recorded : recorded.slice(0, FOLDED);
  const shownLocal = expanded ? local : local.slice(0, Math.max(0, FOLDED - shownRecorded.length));
  const hidden = recorded.length + local.length - shownRecorded.length - shownLocal.length;
  const dismissAll = async () => {
    writeLocal(collectionId, []);
    for (const d of recorded) await knowledgeApi.removeDocument(collectionId, d.id).catch(() => undefined);
    onChanged();
  };
  return (
    <section className="flex flex-col gap-2 rounded-lg border border-danger/40 p-3" aria-labelledby="failed-uploads-title" data-testid="failed-uploads">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="failed-uploads-title" className="min-w-0 flex-1 text-sm font-semibold text-danger">
          Failed uploads ({total})
        </h2>
        <button type="button" className={buttonClass("ghost", "sm")} onClick={() => void dismissAll()} data-testid="failed-dismiss-all">
          Dismiss all
        </button>
      </div>
      <ul className="flex max-h-72 flex-col gap-2 overflow-y-auto text-sm">
        {shownRecorded.map((d) => (
          <li key={d.id} className="flex items-start gap-2" data-testid="failed-upload" data-source="server">
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium" title={d.name}>
                {d.name}
              </p>
              <p className="break-words text-xs text-danger">{d.error}</p>
            </div>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              aria-label={`Dismiss ${d.name}`}
              onClick={() => void knowledgeApi.removeDocument(collectionId, d.id).then(onChanged, onChanged)}
            >
              Dismiss
            </button>
          </li>
        ))}
        {shownLocal.map((f) => (
          <li key={f.key} className="flex items-start gap-2" data-testid="failed-upload" data-source="browser">
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium" title={f.name}>
                {f.name} <span className="text-xs font-normal text-muted">{formatSize(f.bytes)}</span>
              </p>
              <p className="break-words text-xs text-danger">{f.error}</p>
            </div>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              aria-label={`Dismiss ${f.name}`}
              onClick={() => writeLocal(collectionId, readLocal(collectionId).filter((x) => x.key !== f.key))}
            >
              Dismiss
            </button>
          </li>
        ))}
      </ul>
      {hidden > 0 ? (
        <button type="button" className={buttonClass("ghost", "sm", "self-start")} onClick={() => setExpanded(true)} data-testid="failed-show-all">
          Show {hidden} more
        </button>
      ) : null}
      {expanded && failedCount > recorded.length && server.data ? <p className="text-xs text-muted">The {recorded.length} most recent are shown; filter the documents by the status “Failed” for all of them.</p> : null}
    </section>
  );
}
