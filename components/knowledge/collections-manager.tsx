"use client";
// The collections page: the caller's collections and the shared one; create, rename, re-index and
// delete a collection, open its documents, add documents by drag and drop, remove one.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { buttonClass } from "@/components/button";
import { knowledgeApi, type CollectionSummary } from "@/lib/client/knowledge-api";
import { UploadDrop } from "./upload-drop";

export function CollectionsManager() {
  const client = useQueryClient();
  const { data: collections = [], isLoading } = useQuery({ queryKey: ["collections"], queryFn: knowledgeApi.list });
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (n: string) => knowledgeApi.create(n),
    onSuccess: () => {
      setName("");
      setError(null);
      void client.invalidateQueries({ queryKey: ["collections"] });
    },
    onError: (e) => setError(e.message),
  });
  return (
    <div className="flex flex-col gap-6">
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) create.mutate(name.trim());
        }}
      >
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="New collection name"
          aria-label="New collection name"
          maxLength={100}
          data-testid="collection-name"
          className="min-w-0 flex-1 rounded-md border border-border bg-surface px-3 py-1.5 text-sm"
        />
        <button type="submit" className={buttonClass("primary", "md")} disabled={create.isPending} data-testid="collection-create">
          Create
        </button>
      </form>
      {error ? <p className="text-sm text-danger" role="alert">{error}</p> : null}
      {isLoading ? <p className="text-sm text-muted">Loading…</p> : null}
      {!isLoading && collections.length === 0 ? <p className="text-sm text-muted">No collections yet. Create one, then drop your documents into it.</p> : null}
      <ul className="flex flex-col gap-4">
        {collections.map((c) => (
          <CollectionCard key={c.id} collection={c} />
        ))}
      </ul>
    </div>
  );
}

function CollectionCard({ collection }: { collection: CollectionSummary }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const detail = useQuery({ queryKey: ["collection", collection.id], queryFn: () => knowledgeApi.get(collection.id), enabled: open });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ["collections"] });
    void client.invalidateQueries({ queryKey: ["collection", collection.id] });
  };
  const act = (fn: () => Promise<unknown>, done: string) => () =>
    fn().then(
      () => {
        setMessage(done);
        refresh();
      },
      (e: Error) => setMessage(e.message),
    );
  return (
    <li className="rounded-lg border border-border p-4" data-testid="collection" data-id={collection.id}>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className="min-w-0 flex-1 text-left font-medium" onClick={() => setOpen(!open)} aria-expanded={open}>
          {collection.name}
          <span className="ml-2 text-sm font-normal text-muted">
            {collection.documentCount} document{collection.documentCount === 1 ? "" : "s"}
            {collection.shared ? " · shared, read-only (KNOWLEDGE_DOCS_PATH)" : ""}
          </span>
        </button>
        {collection.shared ? null : (
          <>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() => {
                const next = window.prompt("Rename the collection", collection.name)?.trim();
                if (next && next !== collection.name) void act(() => knowledgeApi.rename(collection.id, next), "Renamed.")();
              }}
            >
              Rename
            </button>
            <button type="button" className={buttonClass("secondary", "sm")} onClick={act(() => knowledgeApi.reindex(collection.id), "Re-indexed.")}>
              Re-index
            </button>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() => {
                if (window.confirm(`Delete "${collection.name}" and its ${collection.documentCount} documents?`)) void act(() => knowledgeApi.remove(collection.id), "Deleted.")();
              }}
            >
              Delete
            </button>
          </>
        )}
      </div>
      {message ? <p className="mt-1 text-sm text-muted" role="status">{message}</p> : null}
      {open ? (
        <div className="mt-3 flex flex-col gap-3">
          {collection.shared ? null : <UploadDrop collectionId={collection.id} onUploaded={refresh} />}
          <ul className="flex flex-col gap-1 text-sm" data-testid="document-list">
            {(detail.data?.documents ?? []).map((d) => (
              <li key={d.id} className="flex items-center gap-2" data-testid="document" data-status={d.status}>
                <Link href={`/collections/${collection.id}/documents/${d.id}`} className="min-w-0 flex-1 truncate text-accent hover:underline">
                  {d.name}
                </Link>
                <span className={d.status === "failed" ? "text-danger" : "text-muted"}>
                  {d.status === "failed" ? d.error : `${d.pageCount ? `${d.pageCount} pages · ` : ""}${d.chunkCount} passages`}
                </span>
                {collection.shared ? null : (
                  <button type="button" aria-label={`Remove ${d.name}`} className={buttonClass("secondary", "sm")} onClick={act(() => knowledgeApi.removeDocument(collection.id, d.id), `Removed ${d.name}.`)}>
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </li>
  );
}
