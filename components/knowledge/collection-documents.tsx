"use client";
// One collection's Documents page: its name and actions (which wrap under the name, never over it),
// the upload drop with the batch's progress, the failed uploads, a search over the passages, and the
// documents a page at a time — sorted by name, type, size, date or status and filtered by type,
// status and name, all by the server (GET /api/collections/:id/documents).
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { buttonClass } from "@/components/button";
import { knowledgeApi, type CollectionSummary, type DocumentListParams, type DocumentPage, type DocumentSortKey } from "@/lib/client/knowledge-api";
import { formatDay, formatSize, typeLabel } from "@/lib/client/knowledge-format";
import { FailedUploads } from "./failed-uploads";
import { PassageSearch } from "./passage-search";
import { UploadDrop } from "./upload-drop";

export const PAGE_SIZE = 50;
export const DEFAULT_LIST: DocumentListParams = { page: 1, limit: PAGE_SIZE, sort: "added", order: "desc" };

const TYPES = ["pdf", "docx", "markdown", "html", "text"];
const STATUSES: [string, string][] = [
  ["ready", "Ready"],
  ["failed", "Failed"],
  ["pending", "Pending"],
  ["indexing", "Indexing"],
];
const COLUMNS: { key: DocumentSortKey; label: string; className: string }[] = [
  { key: "name", label: "Name", className: "" },
  { key: "type", label: "Type", className: "hidden sm:table-cell w-24" },
  { key: "size", label: "Size", className: "hidden sm:table-cell w-24 text-right" },
  { key: "added", label: "Added", className: "hidden md:table-cell w-32" },
  { key: "status", label: "Status", className: "hidden sm:table-cell w-40" },
];
/** The order a column sorts in first: names and types A–Z, the biggest and newest first. */
const FIRST_ORDER: Record<DocumentSortKey, "asc" | "desc"> = { name: "asc", type: "asc", size: "desc", added: "desc", status: "asc" };

/** `collection` and `initialPage` come from the server's render (a rename or an upload refreshes them). */
export function CollectionDocuments({ collection, initialPage }: { collection: CollectionSummary; initialPage: DocumentPage }) {
  const client = useQueryClient();
  const router = useRouter();
  const [params, setParams] = useState<DocumentListParams>(DEFAULT_LIST);
  const [nameInput, setNameInput] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const isDefault = params === DEFAULT_LIST;
  const list = useQuery({
    queryKey: ["documents", collection.id, params],
    queryFn: () => knowledgeApi.documents(collection.id, params),
    placeholderData: keepPreviousData,
    initialData: isDefault ? initialPage : undefined,
    staleTime: isDefault ? 5_000 : 0,
  });
  // The name filter follows the typing, a moment after it stops.
  useEffect(() => {
    const name = nameInput.trim();
    if (name === (params.name ?? "")) return;
    const timer = setTimeout(() => setParams((p) => ({ ...p, name: name || undefined, page: 1 })), 250);
    return () => clearTimeout(timer);
  }, [nameInput, params.name]);

  const page = list.data ?? initialPage;
  const counts = page.counts;
  const total = Object.values(counts.status).reduce((n, c) => n + c, 0);
  const failed = counts.status.failed ?? 0;
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ["documents", collection.id] });
    void client.invalidateQueries({ queryKey: ["collections"] });
  };
  const set = (patch: Partial<DocumentListParams>) => setParams((p) => ({ ...p, page: 1, ...patch }));
  const sortBy = (key: DocumentSortKey) => set(params.sort === key ? { order: params.order === "asc" ? "desc" : "asc" } : { sort: key, order: FIRST_ORDER[key] });
  const act = (fn: () => Promise<unknown>, done: string) =>
    fn().then(
      () => {
        setMessage(done);
        refresh();
      },
      (e: Error) => setMessage(e.message),
    );
  const first = page.total === 0 ? 0 : (page.page - 1) * page.limit + 1;
  const last = Math.min(page.total, page.page * page.limit);

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-2">
        <Link href="/collections" className="text-sm text-muted hover:underline">
          ← All collections
        </Link>
        <h1 className="break-words text-2xl font-semibold" data-testid="collection-title">
          {collection.name}
        </h1>
        <p className="text-sm text-muted" data-testid="collection-counts">
          {total.toLocaleString("en")} document{total === 1 ? "" : "s"}
          {failed ? ` · ${failed.toLocaleString("en")} failed` : ""}
          {collection.shared ? " · shared, read-only (KNOWLEDGE_DOCS_PATH)" : ""}
        </p>
        {collection.shared ? null : (
          <div className="flex flex-wrap gap-2" data-testid="collection-actions">
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() => {
                const next = window.prompt("Rename the collection", collection.name)?.trim();
                // The name comes with the server's render: refreshed with it.
                if (next && next !== collection.name) void act(() => knowledgeApi.rename(collection.id, next).then(() => router.refresh()), "Renamed.");
              }}
            >
              Rename
            </button>
            <button type="button" className={buttonClass("secondary", "sm")} onClick={() => void act(() => knowledgeApi.reindex(collection.id), "Re-indexed.")}>
              Re-index
            </button>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() => {
                if (window.confirm(`Delete "${collection.name}" and its ${total} documents?`)) {
                  void knowledgeApi.remove(collection.id).then(
                    () => router.push("/collections"),
                    (e: Error) => setMessage(e.message),
                  );
                }
              }}
            >
              Delete
            </button>
          </div>
        )}
        {message ? (
          <p className="text-sm text-muted" role="status">
            {message}
          </p>
        ) : null}
      </header>

      <PassageSearch collectionId={collection.id} />
      {collection.shared ? null : <UploadDrop collectionId={collection.id} onUploaded={refresh} />}
      <FailedUploads collectionId={collection.id} failedCount={failed} onChanged={refresh} />

      <section className="flex flex-col gap-3" aria-labelledby="documents-title">
        <div className="flex flex-wrap items-end gap-2">
          <h2 id="documents-title" className="mr-auto text-lg font-semibold">
            Documents
          </h2>
          <input
            type="search"
            value={nameInput}
            onChange={(e) => setNameInput(e.target.value)}
            placeholder="Filter by name"
            aria-label="Filter documents by name"
            maxLength={200}
            data-testid="documents-name-filter"
            className="w-full min-w-0 rounded-md border border-border bg-surface px-3 py-1.5 text-sm sm:w-48"
          />
          <select
            aria-label="Type"
            value={params.type ?? ""}
            onChange={(e) => set({ type: e.target.value || undefined })}
            data-testid="documents-type-filter"
            className="min-w-0 flex-1 rounded-md border border-border bg-surface px-2 py-1.5 text-sm sm:flex-none"
          >
            <option value="">All types</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {typeLabel(t)} ({(counts.type[t] ?? 0).toLocaleString("en")})
              </option>
            ))}
          </select>
          <select
            aria-label="Status"
            value={params.status ?? ""}
            onChange={(e) => set({ status: e.target.value || undefined })}
            data-testid="documents-status-filter"
            className="min-w-0 flex-1 rounded-md border border-border bg-surface px-2 py-1.5 text-sm sm:flex-none"
          >
            <option value="">Any status</option>
            {STATUSES.map(([s, label]) => (
              <option key={s} value={s}>
                {label} ({(counts.status[s] ?? 0).toLocaleString("en")})
              </option>
            ))}
          </select>
          <select
            aria-label="Sort by"
            value={`${params.sort}:${params.order}`}
            onChange={(e) => {
              const [sort, order] = e.target.value.split(":") as [DocumentSortKey, "asc" | "desc"];
              set({ sort, order });
            }}
            data-testid="documents-sort"
            className="min-w-0 flex-1 rounded-md border border-border bg-surface px-2 py-1.5 text-sm sm:hidden"
          >
            <option value="added:desc">Newest first</option>
            <option value="added:asc">Oldest first</option>
            <option value="name:asc">Name A–Z</option>
            <option value="name:desc">Name Z–A</option>
            <option value="size:desc">Largest first</option>
            <option value="size:asc">Smallest first</option>
            <option value="type:asc">Type</option>
            <option value="status:asc">Status</option>
          </select>
        </div>

        <table className="w-full table-fixed border-collapse text-sm" data-testid="document-table" aria-busy={list.isFetching}>
          <caption className="sr-only">
            The collection’s documents, {first}–{last} of {page.total}
          </caption>
          <thead>
            <tr className="border-b border-border text-left text-xs text-muted">
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={`py-2 pr-2 font-medium ${c.className}`}
                  aria-sort={params.sort === c.key ? (params.order === "asc" ? "ascending" : "descending") : undefined}
                >
                  <button type="button" className="inline-flex items-center gap-1 hover:text-fg" onClick={() => sortBy(c.key)} data-testid={`sort-${c.key}`}>
                    {c.label}
                    <span aria-hidden="true">{params.sort === c.key ? (params.order === "asc" ? "↑" : "↓") : ""}</span>
                  </button>
                </th>
              ))}
              {collection.shared ? null : (
                <th scope="col" className="w-20 py-2 text-right font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {page.documents.map((d) => (
              <tr key={d.id} className="border-b border-border/60 align-top" data-testid="document" data-status={d.status}>
                <td className="py-2 pr-2">
                  <Link href={`/collections/${collection.id}/documents/${d.id}`} className="block truncate text-accent hover:underline" title={d.name}>
                    {d.title && d.title !== d.name ? d.title : d.name}
                  </Link>
                  {d.title && d.title !== d.name ? (
                    <span className="block truncate text-xs text-muted" title={d.name}>
                      {d.name}
                    </span>
                  ) : null}
                  {/* Below sm the other columns are hidden: their values under the name. */}
                  <span className="block text-xs text-muted sm:hidden">
                    {typeLabel(d.format)} · {formatSize(d.bytes)} · {formatDay(d.createdAt)} · {statusText(d)}
                  </span>
                  {d.status === "failed" ? <span className="block break-words text-xs text-danger">{d.error}</span> : null}
                </td>
                <td className="hidden py-2 pr-2 sm:table-cell">{typeLabel(d.format)}</td>
                <td className="hidden py-2 pr-2 text-right tabular-nums sm:table-cell">{formatSize(d.bytes)}</td>
                <td className="hidden py-2 pr-2 md:table-cell">
                  <time dateTime={d.createdAt}>{formatDay(d.createdAt)}</time>
                </td>
                <td className={`hidden py-2 pr-2 sm:table-cell ${d.status === "failed" ? "text-danger" : "text-muted"}`}>{statusText(d)}</td>
                {collection.shared ? null : (
                  <td className="py-1.5 text-right">
                    <button
                      type="button"
                      aria-label={`Remove ${d.name}`}
                      className={buttonClass("ghost", "sm")}
                      onClick={() => void act(() => knowledgeApi.removeDocument(collection.id, d.id), `Removed ${d.name}.`)}
                    >
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
        {page.documents.length === 0 ? (
          <p className="text-sm text-muted" data-testid="documents-empty">
            {total === 0 ? "No documents yet: drop your files above." : "No document matches these filters."}
          </p>
        ) : null}
        <nav className="flex flex-wrap items-center gap-2 text-sm" aria-label="Pages of documents">
          <p className="mr-auto text-muted" data-testid="documents-range">
            {first.toLocaleString("en")}–{last.toLocaleString("en")} of {page.total.toLocaleString("en")}
          </p>
          <button type="button" className={buttonClass("secondary", "sm")} disabled={page.page <= 1} onClick={() => setParams((p) => ({ ...p, page: p.page - 1 }))} data-testid="documents-prev">
            Previous
          </button>
          <span className="text-muted" data-testid="documents-page">
            Page {page.page} of {page.pages}
          </span>
          <button type="button" className={buttonClass("secondary", "sm")} disabled={page.page >= page.pages} onClick={() => setParams((p) => ({ ...p, page: p.page + 1 }))} data-testid="documents-next">
            Next
          </button>
        </nav>
      </section>
    </div>
  );
}

function statusText(d: { status: string; pageCount: number | null; chunkCount: number; encoding?: string | null }): string {
  if (d.status === "failed") return "Failed";
  if (d.status !== "ready") return d.status === "indexing" ? "Indexing…" : "Pending";
  const encoding = d.encoding && d.encoding !== "UTF-8" ? ` · ${d.encoding}` : "";
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${d.pageCount ? `${plural(d.pageCount, "page")} · ` : ""}${plural(d.chunkCount, "passage")}${encoding}`;
}
